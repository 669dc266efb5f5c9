/**
 * Transactions for mutating tools: all-or-nothing multi-file writes with a journal, recovery
 * of operations killed midway, and undo. See `commit.ts` for the protocol.
 *
 * @example
 * ```ts
 * import { commitChanges, recoverJournals, undoOperation } from "./mod.ts";
 * ```
 *
 * @module
 */
export * from "./commit.ts";
export * from "./confine.ts";
export * from "./fs.ts";
export * from "./journal.ts";
export * from "./recover.ts";
export * from "./restore.ts";
export * from "./types.ts";
export * from "./undo.ts";
