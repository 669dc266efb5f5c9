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
 * report.status; // "ok"
 * ```
 *
 * @module
 */
import { runCli } from "../../core/cli.ts";
import { transformTool } from "./tool.ts";

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
export { transformTool } from "./tool.ts";
export type { ValidationMode } from "./report.ts";

if (import.meta.main) Deno.exit(await runCli(transformTool, Deno.args));
