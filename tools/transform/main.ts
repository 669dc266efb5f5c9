/**
 * `llm-transform`: checksummed span edits and guarded replacements, all or nothing, with a
 * journal for `--undo` and `--recover`.
 *
 * ```sh
 * deno run --allow-read=. --allow-write=. jsr:@llm/search/transform \
 *   --file src/main.ts --old 'let x = 1;' --new 'const x = 1;'
 * ```
 *
 * @example Replace a statement in a file, all or nothing
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildRequest, transform } from "@llm/search/transform";
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/main.ts`, "let x = 1;\n");
 * const request = await buildRequest(
 *   { file: "main.ts", old: "let x = 1;", new: "const x = 1;", all: false, recover: false },
 *   { cwd: root },
 * );
 * const report = await transform(request, {
 *   root, cwd: root, executionId: crypto.randomUUID(), dryRun: false,
 * });
 * assert.equal(report.status, "ok");
 * assert.equal(await Deno.readTextFile(`${root}/main.ts`), "const x = 1;\n");
 * await Deno.remove(root, { recursive: true });
 * ```
 *
 * @module
 */
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/transform.json" with { type: "json" };
import { LLM_TRANSFORM } from "../../schema/tool_names.ts";
import { TRANSFORM_CODE } from "./run.ts";

export { transform } from "./engine.ts";
export type { TransformOptions, TransformReport } from "./report.ts";
export {
  buildRequest,
  type PlanRequest,
  type PlanSource,
  type ReplaceRequest,
  type RequestInput,
  type TransformRequest,
} from "./request.ts";
export type { ValidationMode } from "./report.ts";

/**
 * Runs `llm-transform` with `args` and returns the exit code. The command line is parsed, checked
 * and explained by the command's generated table, so no run loads zod (`--edits` and `--plan`
 * load the edit-plan schema to check the plan's JSON, `request.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runTransformCli } from "@llm/search/transform";
 * assert.equal(await runTransformCli(["--version"]), 0); // prints "llm-transform <version>"
 * ```
 */
export async function runTransformCli(args: string[]): Promise<number> {
  return await runCommand(tableOf(TABLES, LLM_TRANSFORM), TRANSFORM_CODE, args);
}

if (import.meta.main) Deno.exit(await runTransformCli(Deno.args));
