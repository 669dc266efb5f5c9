/**
 * Transactions for mutating tools: all-or-nothing multi-file writes with a journal, recovery
 * of operations killed midway, and undo. See `commit.ts` for the protocol.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitChanges, undoOperation } from "./mod.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.writeTextFileSync(`${root}/a.txt`, "old\n");
 * const [before, after] = [new TextEncoder().encode("old\n"), new TextEncoder().encode("new\n")];
 * const options = { root, tool: "llm-transform", operationType: "edit", prefix: "LMT", codes };
 * const edit = crypto.randomUUID();
 * await commitChanges([{ file_path: "a.txt", path: `${root}/a.txt`, before, after }], {
 *   ...options, executionId: edit,
 * });
 * assert.equal(Deno.readTextFileSync(`${root}/a.txt`), "new\n");
 * await undoOperation({ ...options, executionId: crypto.randomUUID(), undoOf: edit });
 * assert.equal(Deno.readTextFileSync(`${root}/a.txt`), "old\n");
 * Deno.removeSync(root, { recursive: true });
 * ```
 *
 * @module
 */
export * from "./codes.ts";
export * from "./commit.ts";
export * from "./confine.ts";
export * from "./fs.ts";
export * from "./journal.ts";
export * from "./journal_runs.ts";
export * from "./plan_json.ts";
export * from "./recover.ts";
export * from "./restore.ts";
export * from "./types.ts";
export * from "./undo.ts";
export * from "./workspace.ts";
