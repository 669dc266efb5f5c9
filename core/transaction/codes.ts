/**
 * The registry codes of the tools that write through a transaction, in one table keyed by the
 * tool's code prefix: `LMT` (`llm-transform`), `LFW` (`llm-write`), `SPL` (`llm-refactor`).
 * Each tool reports in its own prefix, and the numbers are the registry's
 * (`schema/error_codes.ts`), which is why they are listed rather than derived.
 *
 * @module
 */
import type { CodePrefix } from "../../schema/error_codes.ts";
import type { TransactionCodes } from "./types.ts";

/** The code prefixes of the tools that open a workspace and write through a transaction. */
export type WriterPrefix = Extract<CodePrefix, "LMT" | "LFW" | "SPL">;

/** Every code a writer's prefix decides: its transaction codes, and the workspace's. */
export interface WriterCodes extends TransactionCodes {
  /** A path a request names lies outside the root (e.g. `LMT-PERM-010`). */
  pathOutsideRoot: string;
  /**
   * The codes a recovery reports its findings with (a damaged journal it skipped is
   * `journalUnusable`); a tool that registers none reports no finding of a recovery.
   */
  recoverFindings?: {
    /** A file left alone: it changed after its operation was interrupted (`LMT-V-012`). */
    conflict: string;
    /** An operation still running in another process, or one left interrupted (`LMT-REF-003`). */
    interrupted: string;
  };
}

const WRITER_CODES: Readonly<Record<WriterPrefix, Readonly<WriterCodes>>> = {
  LMT: {
    writeFailed: "LMT-IO-011",
    concurrentChange: "LMT-V-009",
    noJournal: "LMT-REF-001",
    journalUnusable: "LMT-REF-002",
    undoConflict: "LMT-V-010",
    idInUse: "LMT-ARG-002",
    outsideRoot: "LMT-PERM-012",
    unsafeState: "LMT-PERM-011",
    stateFolder: "LMT-PERM-013",
    pathOutsideRoot: "LMT-PERM-010",
    recoverFindings: { conflict: "LMT-V-012", interrupted: "LMT-REF-003" },
  },
  LFW: {
    writeFailed: "LFW-IO-011",
    concurrentChange: "LFW-V-005",
    noJournal: "LFW-REF-001",
    journalUnusable: "LFW-REF-002",
    undoConflict: "LFW-V-006",
    idInUse: "LFW-ARG-002",
    outsideRoot: "LFW-PERM-012",
    unsafeState: "LFW-PERM-011",
    stateFolder: "LFW-PERM-013",
    pathOutsideRoot: "LFW-PERM-010",
  },
  SPL: {
    writeFailed: "SPL-IO-010",
    concurrentChange: "SPL-V-005",
    noJournal: "SPL-REF-003",
    journalUnusable: "SPL-REF-004",
    undoConflict: "SPL-V-006",
    idInUse: "SPL-ARG-002",
    outsideRoot: "SPL-PERM-012",
    unsafeState: "SPL-PERM-011",
    stateFolder: "SPL-PERM-013",
    pathOutsideRoot: "SPL-PERM-010",
  },
};

/**
 * The codes of the writer with code prefix `prefix`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { transactionCodes } from "./codes.ts";
 * assert.equal(transactionCodes("LFW").concurrentChange, "LFW-V-005");
 * assert.equal(transactionCodes("SPL").noJournal, "SPL-REF-003");
 * ```
 */
export function transactionCodes(prefix: WriterPrefix): Readonly<WriterCodes> {
  return WRITER_CODES[prefix];
}
