/**
 * `llm-write`: create files only when they parse (and compile, where the compiler may run),
 * all or nothing, journaled for undo.
 *
 * ```sh
 * deno run --allow-read=. --allow-write=. --allow-run=gcc jsr:@llm/search/write \
 *   --path src/hello.c --content 'int main(void) { return 0; }'
 * ```
 *
 * @example Create a file, validated before it lands
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildWriteRequest, write } from "@llm/search/write";
 * const root = await Deno.makeTempDir();
 * const request = await buildWriteRequest(
 *   { path: "hello.py", content: 'print("hello")\n', overwrite: false, validate_only: false },
 *   { cwd: root },
 * );
 * const report = await write(request, {
 *   root, cwd: root, executionId: crypto.randomUUID(), validateOnly: false,
 * });
 * assert.equal(report.status, "approved");
 * assert.equal(await Deno.readTextFile(`${root}/hello.py`), 'print("hello")\n');
 * await Deno.remove(root, { recursive: true });
 * ```
 *
 * @module
 */
import { runCli } from "../../core/cli.ts";
import { writeTool } from "./tool.ts";

export { write, type WriteOptions, type WriteReport } from "./engine.ts";
export {
  buildWriteRequest,
  type WriteRequest,
  type WriteRequestInput,
  type WriteSource,
} from "./request.ts";
export { writeTool } from "./tool.ts";

if (import.meta.main) Deno.exit(await runCli(writeTool, Deno.args));
