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
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/write.json" with { type: "json" };
import { LLM_WRITE } from "../../schema/tool_names.ts";
import { WRITE_CODE } from "./run.ts";

export { write, type WriteOptions, type WriteReport } from "./engine.ts";
export {
  buildWriteRequest,
  type WriteRequest,
  type WriteRequestInput,
  type WriteSource,
} from "./request.ts";

/**
 * Runs `llm-write` with `args` and returns the exit code. The command line is parsed, checked
 * and explained by the command's generated table, so no run loads zod (`--files` and `--plan`
 * load the write-plan schema to check the plan's JSON, `request.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runWriteCli } from "@llm/search/write";
 * assert.equal(await runWriteCli(["--version"]), 0); // prints "llm-write <version>"
 * ```
 */
export async function runWriteCli(args: string[]): Promise<number> {
  return await runCommand(tableOf(TABLES, LLM_WRITE), WRITE_CODE, args);
}

if (import.meta.main) Deno.exit(await runWriteCli(Deno.args));
