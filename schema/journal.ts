/**
 * The transaction journal that every mutating tool writes under
 * `<root>/.llm/journal/<execution_id>/`, and the results of `--recover` and `--undo`.
 *
 * A journal directory holds `manifest.json` (a {@linkcode JournalManifest}), one backup of the
 * prior bytes of every changed file (`backup-<n>`), a `lock` file that the running operation
 * holds locked for its lifetime, and `progress`, an append-only audit trail with one JSON line
 * per file renamed into place.
 *
 * @module
 */
import { z } from "zod";

/**
 * Where an operation stands. `prepared`: backups and temporary files written, no original
 * touched. `committing`: originals are being replaced. `committed`: every file landed.
 * `rolled_back`: the operation was abandoned and every original is as before. `undone`: a
 * later `--undo` restored the prior bytes.
 */
export type JournalState = "prepared" | "committing" | "committed" | "rolled_back" | "undone";

/** One file of a journaled operation. */
export interface JournalFile {
  /** The file as reported: relative to the root with `/` separators. */
  file_path: string;
  /**
   * Absolute path of the file written (symbolic links resolved). Read back, it must be normal,
   * inside the root and free of links, or `--recover` and `--undo` refuse the journal.
   */
  path: string;
  /** Absolute path of the temporary file renamed over it (always `.llm-tmp.<id>.<n>` beside it). */
  temp: string;
  /**
   * Name of the backup of the prior bytes inside the journal directory, `backup-<n>` (no other
   * name is accepted on reading); absent for a created file.
   */
  backup?: string;
  /** `sha256:` of the prior bytes; `null` when the file did not exist. */
  checksum_before: string | null;
  /** `sha256:` of the new bytes; `null` when the operation deletes the file. */
  checksum_after: string | null;
  /** Permission bits of the prior file, restored on rollback. */
  mode?: number;
}

/** `manifest.json` of a journal directory. */
export interface JournalManifest {
  /** Version of this layout. */
  format: 1;
  /** The operation's execution id (also the directory name). */
  execution_id: string;
  /** Tool that ran it, e.g. `llm-transform`. */
  tool: string;
  /** Its `operation_type`, e.g. `edit`. */
  operation_type: string;
  /** Absolute workspace root. */
  root: string;
  /** ISO 8601 UTC time the journal was created. */
  created_at: string;
  /** ISO 8601 UTC time of the last state change. */
  updated_at: string;
  /** Current state. */
  state: JournalState;
  /** Execution id of the `--undo` that reverted this operation. */
  undone_by?: string;
  /** For an undo, the execution id it reverted. */
  undo_of?: string;
  /** The files, in the order they are renamed. */
  files: JournalFile[];
}

const checksum = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const journalState = z.enum(["prepared", "committing", "committed", "rolled_back", "undone"]);

/** zod schema of {@linkcode JournalFile}. */
export const JournalFileSchema: z.ZodType<JournalFile> = z.object({
  file_path: z.string().min(1),
  path: z.string().min(1),
  temp: z.string().min(1),
  backup: z.string().optional(),
  checksum_before: checksum.nullable(),
  checksum_after: checksum.nullable(),
  mode: z.number().int().nonnegative().optional(),
}).meta({ id: "JournalFile" });

/** zod schema of {@linkcode JournalManifest}. */
export const JournalManifestSchema: z.ZodType<JournalManifest> = z.object({
  format: z.literal(1),
  execution_id: z.string().min(1),
  tool: z.string(),
  operation_type: z.string(),
  root: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  state: journalState,
  undone_by: z.string().optional(),
  undo_of: z.string().optional(),
  files: z.array(JournalFileSchema),
}).meta({ id: "JournalManifest", title: "JournalManifest" });

/**
 * What recovery did to one file. `restored`: the prior bytes were put back. `kept`: the new
 * bytes stay (the operation was finished). `unchanged`: the file was never touched.
 * `conflict`: the file holds neither the prior nor the new bytes, so it was left alone.
 */
export type RecoveredFileAction = "restored" | "kept" | "unchanged" | "conflict";

/** One file of a recovered operation. */
export interface RecoveredFile {
  /** The file, relative to the root. */
  file_path: string;
  /** What recovery did (or, with `--dry-run`, would do). */
  action: RecoveredFileAction;
  /** Whether the journal's progress log records the file as renamed before the interruption. */
  renamed: boolean;
  /** `sha256:` of the file as found (`null`: it does not exist). */
  checksum_found: string | null;
  /** Whether a leftover temporary file was removed. */
  temp_removed: boolean;
}

/**
 * How recovery ended an interrupted operation. `rolled_back`: every touched file got its prior
 * bytes. `finished`: every file already held its new bytes, so the operation was marked done.
 * `conflicted`: some file was changed by someone else; it was left alone and the journal kept
 * for a later recovery. `in_progress`: a live process still holds the operation; not touched.
 */
export type RecoveryOutcome = "rolled_back" | "finished" | "conflicted" | "in_progress";

/** One interrupted operation found by `--recover`. */
export interface RecoveredJournal {
  /** Its execution id. */
  execution_id: string;
  /** Tool that ran it. */
  tool: string;
  /** Its operation type. */
  operation_type: string;
  /** The state it was left in. */
  state_found: JournalState;
  /** What recovery did. */
  outcome: RecoveryOutcome;
  /** Its files, sorted by path. */
  files: RecoveredFile[];
}

/** Result of `--recover`. */
export interface RecoverResult {
  /** Nothing was changed: this is what recovery would do. */
  dry_run: boolean;
  /** Number of interrupted operations found. */
  count: number;
  /** The operations, newest first (the order they are rolled back in). */
  journals: RecoveredJournal[];
}

/** zod schema of {@linkcode RecoveredFile}. */
export const RecoveredFileSchema: z.ZodType<RecoveredFile> = z.object({
  file_path: z.string(),
  action: z.enum(["restored", "kept", "unchanged", "conflict"]),
  renamed: z.boolean(),
  checksum_found: checksum.nullable(),
  temp_removed: z.boolean(),
}).meta({ id: "RecoveredFile" });

/** zod schema of {@linkcode RecoveredJournal}. */
export const RecoveredJournalSchema: z.ZodType<RecoveredJournal> = z.object({
  execution_id: z.string(),
  tool: z.string(),
  operation_type: z.string(),
  state_found: journalState,
  outcome: z.enum(["rolled_back", "finished", "conflicted", "in_progress"]),
  files: z.array(RecoveredFileSchema),
}).meta({ id: "RecoveredJournal" });

/** zod schema of {@linkcode RecoverResult}. */
export const RecoverResultSchema: z.ZodType<RecoverResult> = z.object({
  dry_run: z.boolean(),
  count: z.number().int().nonnegative(),
  journals: z.array(RecoveredJournalSchema),
}).meta({ id: "RecoverResult", title: "RecoverResult" });

/** One file put back by `--undo`. */
export interface UndoneFile {
  /** The file, relative to the root. */
  file_path: string;
  /** `sha256:` of the bytes the operation had written (what the file held before the undo). */
  checksum_before: string | null;
  /** `sha256:` of the restored bytes (`null`: the operation had created the file, now removed). */
  final_checksum: string | null;
}

/** Result of `--undo`. */
export interface UndoResult {
  /** Nothing was changed: this is what the undo would do. */
  dry_run: boolean;
  /** Execution id of the operation undone. */
  undone_execution_id: string;
  /** Number of files restored (or to restore). */
  count: number;
  /** The files, sorted by path. */
  files: UndoneFile[];
  /** Unified diff of the undo (with `--dry-run`). */
  diff?: string;
  /** Journal of the undo itself, relative to the root (an undo can be undone too). */
  journal?: string;
}

/** zod schema of {@linkcode UndoneFile}. */
export const UndoneFileSchema: z.ZodType<UndoneFile> = z.object({
  file_path: z.string(),
  checksum_before: checksum.nullable(),
  final_checksum: checksum.nullable(),
}).meta({ id: "UndoneFile" });

/** zod schema of {@linkcode UndoResult}. */
export const UndoResultSchema: z.ZodType<UndoResult> = z.object({
  dry_run: z.boolean(),
  undone_execution_id: z.string(),
  count: z.number().int().nonnegative(),
  files: z.array(UndoneFileSchema),
  diff: z.string().optional(),
  journal: z.string().optional(),
}).meta({ id: "UndoResult", title: "UndoResult" });
