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
import { runCli } from "../../core/cli.ts";
import { validateTool } from "./tool.ts";

export { validate, type ValidateOptions, type ValidateOutcome } from "./engine.ts";
export { validateTool } from "./tool.ts";

if (import.meta.main) Deno.exit(await runCli(validateTool, Deno.args));
