/**
 * What a caller gives a transaction: the changes, where the workspace is, and which registry
 * codes to fail with (each tool reports in its own code prefix).
 *
 * @module
 */

/** One file's change. `before` is what the caller verified; the transaction re-checks it. */
export interface FileChange {
  /** The file as reported: relative to the root with `/` separators. */
  file_path: string;
  /** Absolute path to write (symbolic links already resolved by the caller). */
  path: string;
  /** The bytes the file held when verified; `null`: the file must not exist (it is created). */
  before: Uint8Array | null;
  /** The bytes to write; `null`: the file is deleted. */
  after: Uint8Array | null;
}

/** Registry codes a transaction fails with, chosen by the calling tool. */
export interface TransactionCodes {
  /** A file or the journal could not be written; nothing was changed (e.g. `LMT-IO-011`). */
  writeFailed: string;
  /** A file changed between verification and renaming; nothing was written (e.g. `LMT-V-009`). */
  concurrentChange: string;
  /** No journal exists for an execution id (e.g. `LMT-REF-001`). */
  noJournal: string;
  /** A journal cannot be used in its state, or it is damaged (e.g. `LMT-REF-002`). */
  journalUnusable: string;
  /** Undo refused because the files changed since (e.g. `LMT-V-010`). */
  undoConflict: string;
  /** The execution id already names a journal (e.g. `LMT-ARG-002`). */
  idInUse: string;
  /**
   * A journal names a path outside the root, or one reached through a symbolic link; nothing
   * was touched (e.g. `LMT-PERM-012`).
   */
  outsideRoot: string;
  /**
   * The state folder (`.llm`, `.llm/journal`, a journal or one of its files) is a symbolic
   * link or not what it should be; nothing was written (e.g. `LMT-PERM-011`).
   */
  unsafeState: string;
  /**
   * A path to write lies in the state folder `<root>/.llm`, which belongs to the toolkit;
   * nothing was written (e.g. `LMT-PERM-013`).
   */
  stateFolder: string;
}

/** How to run a transaction. */
export interface TransactionOptions {
  /** Absolute, symlink-free workspace root; the journal lives in `<root>/.llm/journal/`. */
  root: string;
  /** Execution id of the operation, also the journal directory's name. */
  executionId: string;
  /** Tool name recorded in the journal. */
  tool: string;
  /** Operation type recorded in the journal. */
  operationType: string;
  /** Code prefix of `*-PERM-*` errors, e.g. `LMT`. */
  prefix: string;
  /** Codes to fail with. */
  codes: TransactionCodes;
  /** For an undo: the execution id it reverts. */
  undoOf?: string;
  /** How many finished journals to keep (older ones are pruned); default 100. */
  keepJournals?: number;
}

/**
 * Orders strings by UTF-16 code units, the same everywhere (unlike `localeCompare`), so output
 * never depends on the machine's locale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareText } from "./types.ts";
 * assert.deepEqual(["b", "B", "a"].sort(compareText), ["B", "a", "b"]);
 * ```
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
