/**
 * Results of `llm-transform`: checksummed span edits and guarded replacements, in full and in
 * compact form (contract §9).
 *
 * @module
 */
import { z } from "zod";
import type { CompactMutationEnvelope, CompactUndoResult, FileRows } from "./compact.ts";
import {
  columnsSchema,
  compactMutationEnvelopeSchema,
  CompactUndoResultSchema,
  fileRowsSchema,
  rowSchema,
} from "./compact_schema.ts";
import { type Span, SpanSchema } from "./span.ts";
import {
  type RecoverResult,
  RecoverResultSchema,
  type UndoResult,
  UndoResultSchema,
} from "./journal.ts";

/**
 * What happened to one edit. `applied`: written. `pending`: would be written (`--dry-run`).
 * `unchanged`: its new text equals the bytes it replaces, so there was nothing to do.
 * `skipped`: not applied because another edit of the operation failed (all or nothing).
 * `error`: this edit is wrong; `code` and `message` say why.
 */
export type EditStatus = "applied" | "pending" | "unchanged" | "skipped" | "error";

/** The outcome of one edit (or, for a replacement, of one occurrence). */
export interface EditOutcome {
  /** Position of the edit in the plan (for a replacement: the occurrence's number), from 0. */
  index: number;
  /** The file, relative to the root with `/` separators. */
  file_path: string;
  /** What happened. */
  status: EditStatus;
  /** Start of the replaced bytes in the file as it was. */
  byte_start: number;
  /** End of the replaced bytes in the file as it was. */
  byte_end: number;
  /** The replaced region in the file as it was (absent when the offsets are not valid). */
  old_span?: Span;
  /** Where the new text lies in the file as it is after the operation. */
  new_span?: Span;
  /** `sha256:` of the replaced bytes. */
  checksum_before?: string;
  /** `sha256:` of the new text. */
  checksum_after?: string;
  /** Error code when `status` is `error` (or the code that stopped the operation, for `skipped`). */
  code?: string;
  /** Why the edit failed or was skipped. */
  message?: string;
}

/** Status of a file: `changed`, `pending` (dry run), `unchanged`, `skipped` or `error`. */
export type FileStatus = "changed" | "pending" | "unchanged" | "skipped" | "error";

/** The outcome for one file. */
export interface FileOutcome {
  /** The file, relative to the root. */
  file_path: string;
  /** What happened to it. */
  status: FileStatus;
  /** Number of edits aimed at it. */
  edit_count: number;
  /** `sha256:` of the whole file before (absent when it could not be read). */
  file_checksum_before?: string;
  /** `sha256:` of the whole file after the operation (or after it, for a dry run). */
  final_checksum?: string;
  /** Length after minus length before, in bytes. */
  total_byte_shift: number;
}

/** Result of a span edit or a guarded replacement. */
export interface TransformResult {
  /** Nothing was written: the result says what would be. */
  dry_run: boolean;
  /** Edits written. */
  applied_count: number;
  /** Edits that would be written (`--dry-run`). */
  pending_count: number;
  /** Edits not applied: no-ops, and every edit of an operation that failed. */
  skipped_count: number;
  /** Edits that failed. */
  error_count: number;
  /** One entry per file, sorted by path. */
  files: FileOutcome[];
  /** One entry per edit, sorted by `(file_path, byte_start, index)`. */
  edits: EditOutcome[];
  /** Unified diff of every change (`--dry-run`). */
  diff?: string;
  /** Journal directory of the operation, relative to the root; `--undo <execution_id>` reverts it. */
  journal?: string;
  /** For a replacement whose text occurs a wrong number of times: every occurrence. */
  candidates?: Span[];
}

const checksum = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const offset = z.number().int().nonnegative();

/** zod schema of {@linkcode EditOutcome}. */
export const EditOutcomeSchema: z.ZodType<EditOutcome> = z.object({
  index: offset,
  file_path: z.string(),
  status: z.enum(["applied", "pending", "unchanged", "skipped", "error"]),
  byte_start: z.number().int(),
  byte_end: z.number().int(),
  old_span: SpanSchema.optional(),
  new_span: SpanSchema.optional(),
  checksum_before: checksum.optional(),
  checksum_after: checksum.optional(),
  code: z.string().optional(),
  message: z.string().optional(),
}).meta({ id: "EditOutcome" });

/** zod schema of {@linkcode FileOutcome}. */
export const FileOutcomeSchema: z.ZodType<FileOutcome> = z.object({
  file_path: z.string(),
  status: z.enum(["changed", "pending", "unchanged", "skipped", "error"]),
  edit_count: offset,
  file_checksum_before: checksum.optional(),
  final_checksum: checksum.optional(),
  total_byte_shift: z.number().int(),
}).meta({ id: "FileOutcome" });

/** zod schema of {@linkcode TransformResult}. */
export const TransformResultSchema: z.ZodType<TransformResult> = z.object({
  dry_run: z.boolean(),
  applied_count: offset,
  pending_count: offset,
  skipped_count: offset,
  error_count: offset,
  files: z.array(FileOutcomeSchema),
  edits: z.array(EditOutcomeSchema),
  diff: z.string().optional(),
  journal: z.string().optional(),
  candidates: z.array(SpanSchema).optional(),
}).meta({ id: "TransformResult", title: "TransformResult" });

/** What an `llm-transform` envelope carries: an edit result, a recovery or an undo. */
export type TransformOutput = TransformResult | RecoverResult | UndoResult;

/** zod schema of {@linkcode TransformOutput}. */
export const TransformOutputSchema: z.ZodType<TransformOutput> = z.union([
  TransformResultSchema,
  RecoverResultSchema,
  UndoResultSchema,
]);

const count = z.number().int().nonnegative();
const line = z.number().int().positive();

/** Columns of a compact transform edit row. */
export const EDIT_COLUMNS = [
  "status",
  "start_line",
  "end_line",
  "byte_start",
  "byte_end",
  "code",
] as const;

/**
 * An edit: `[status, start_line, end_line, byte_start, byte_end, code]`. The span is where the
 * new text lies in the file after the operation (would lie, in a dry run); for an edit not
 * applied, the bytes it aimed at (lines `null` when those bytes are not in the file). `code` is
 * the error that failed or stopped it, else `null`.
 */
export type EditRow = [EditStatus, number | null, number | null, number, number, string | null];

/** A file a transform changed (or would change, or refused to), with its edits as rows. */
export interface EditFileRows extends FileRows<EditRow> {
  /** What happened to it. */
  status: FileStatus;
  /** Length after minus length before, in bytes. */
  total_byte_shift: number;
}

/** Columns of a compact candidate row (an occurrence of a replacement's text). */
export const CANDIDATE_COLUMNS = ["start_line", "start_col", "byte_start", "byte_end"] as const;

/** An occurrence: `[start_line, start_col, byte_start, byte_end]`. */
export type CandidateRow = [number, number, number, number];

/**
 * Compact result of a transform edit or replacement: counts, each file's status, byte shift and
 * edits as rows; no checksums, spans' ids or journal path (`detail: "full"` has them).
 */
export interface CompactTransformResult {
  /** Nothing was written: the result says what would be. */
  dry_run: boolean;
  /** Edits written. */
  applied_count: number;
  /** Edits that would be written (dry run). */
  pending_count: number;
  /** Edits not applied: no-ops, and every edit of an operation that failed. */
  skipped_count: number;
  /** Edits that failed. */
  error_count: number;
  /** Names of the edit row fields. */
  columns: typeof EDIT_COLUMNS;
  /** One entry per file, sorted by path. */
  by_file: EditFileRows[];
  /** Unified diff of every change (dry run). */
  diff?: string;
  /** Every occurrence of a replacement's text that occurs a wrong number of times, by file. */
  candidates?: FileRows<CandidateRow>[];
}

/** What a compact transform envelope carries (a recovery, rare and for people, stays in full). */
export type CompactTransformOutput = CompactTransformResult | CompactUndoResult | RecoverResult;

const nullableLine = line.nullable();

/** zod schema of {@linkcode CompactTransformResult}. */
export const CompactTransformResultSchema: z.ZodType<CompactTransformResult> = z.object({
  dry_run: z.boolean(),
  applied_count: count,
  pending_count: count,
  skipped_count: count,
  error_count: count,
  columns: columnsSchema(EDIT_COLUMNS),
  by_file: z.array(z.object({
    file_path: z.string(),
    status: z.enum(["changed", "pending", "unchanged", "skipped", "error"]),
    total_byte_shift: z.number().int(),
    rows: z.array(rowSchema<EditRow>([
      z.enum(["applied", "pending", "unchanged", "skipped", "error"]),
      nullableLine,
      nullableLine,
      z.number().int(),
      z.number().int(),
      z.string().nullable(),
    ])),
  })),
  diff: z.string().optional(),
  candidates: z.array(fileRowsSchema(rowSchema<CandidateRow>([line, count, count, count])))
    .optional(),
}).meta({ id: "CompactTransformResult" });

/** zod schema of an `llm-transform` answer in compact form (contract §9). */
export const CompactTransformEnvelopeSchema: z.ZodType<
  CompactMutationEnvelope<CompactTransformOutput>
> = compactMutationEnvelopeSchema(
  z.union([CompactTransformResultSchema, CompactUndoResultSchema, RecoverResultSchema]),
);
