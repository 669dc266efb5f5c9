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
import { runFastOrFull } from "../../core/cli_entry.ts";
import { LLM_TRANSFORM } from "../../schema/tool_names.ts";
import { renderText, runTransform } from "./run.ts";

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
 * Runs `llm-transform` with `args` and returns the exit code. A command line whose flags the
 * flag table can check (a replacement, a span edit, `--undo`, `--recover`, a plan file) runs
 * without loading zod; anything else (`--help`, `--edits`, `--count`, a refused flag) loads the
 * definition (`tool.ts`, `transformTool`) and takes the full path, with the same answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runTransformCli } from "@llm/search/transform";
 * assert.equal(await runTransformCli(["--version"]), 0); // prints "llm-transform <version>"
 * ```
 */
export async function runTransformCli(args: string[]): Promise<number> {
  const code = { run: runTransform, text: renderText };
  return await runFastOrFull(
    LLM_TRANSFORM,
    code,
    args,
    async () => (await import("./tool.ts")).transformTool,
  );
}

if (import.meta.main) Deno.exit(await runTransformCli(Deno.args));
