/**
 * `llm-validate`: check code before it is written — tree-sitter syntax errors with exact spans,
 * then the language's own compiler in the file's real context — answered as one JSON document
 * (approved or rejected, with diagnostics). It never writes the file.
 *
 * ```sh
 * deno run --allow-read=. --allow-run=gcc jsr:@llm/search/validate src/main.c
 * ```
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validate } from "@llm/search/validate";
 * const { data, diagnostics } = await validate({
 *   cwd: Deno.cwd(), path: "snippet.py", content: "def f(:\n  pass\n",
 * });
 * assert.equal(data.status, "rejected");
 * assert.deepEqual(diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`), [
 *   "1:6 invalid syntax",
 *   "1:6 missing )",
 * ]);
 * ```
 *
 * @module
 */
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/validate.json" with { type: "json" };
import { LLM_VALIDATE } from "../../schema/tool_names.ts";
import { VALIDATE_CODE } from "./run.ts";

export { validate, type ValidateOptions, type ValidateOutcome } from "./engine.ts";

/**
 * Runs `llm-validate` with `args` and returns the exit code. The command line is parsed, checked
 * and explained by the command's generated table, so no run loads zod.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runValidateCli } from "@llm/search/validate";
 * assert.equal(await runValidateCli(["--version"]), 0); // prints "llm-validate <version>"
 * ```
 */
export async function runValidateCli(args: string[]): Promise<number> {
  return await runCommand(tableOf(TABLES, LLM_VALIDATE), VALIDATE_CODE, args);
}

if (import.meta.main) Deno.exit(await runValidateCli(Deno.args));
