/**
 * The compact form of `llm-transform` (contract §9), which its definition declares (`tool.ts`):
 * per file its status, byte shift and edits as rows, the files of an undo, a recovery as it is.
 * It loads no zod, like the run (`run.ts`), so the command line can build it without the schemas.
 *
 * @module
 */
import {
  type CompactForm,
  compactMutation,
  compactUndoResult,
  groupByFile,
} from "../../schema/compact.ts";
import type { MutationEnvelope } from "../../schema/envelope.ts";
import type { RecoverResult, UndoResult } from "../../schema/journal.ts";
import type { Span } from "../../schema/span.ts";
import type {
  CandidateRow,
  CompactTransformOutput,
  CompactTransformResult,
  EDIT_COLUMNS,
  EditOutcome,
  EditRow,
  TransformOutput,
  TransformResult,
} from "../../schema/transform.ts";

/** The contract's `EDIT_COLUMNS`, whose module loads zod; the type holds the two equal. */
const COLUMNS: typeof EDIT_COLUMNS = [
  "status",
  "start_line",
  "end_line",
  "byte_start",
  "byte_end",
  "code",
];

function editRow(edit: EditOutcome): EditRow {
  const written = edit.status === "applied" || edit.status === "pending" ||
    edit.status === "unchanged";
  const span = (written ? edit.new_span : undefined) ?? edit.old_span;
  return [
    edit.status,
    span?.start_line ?? null,
    span?.end_line ?? null,
    span?.byte_start ?? edit.byte_start,
    span?.byte_end ?? edit.byte_end,
    edit.code ?? null,
  ];
}

function candidateRow(span: Span): CandidateRow {
  return [span.start_line, span.start_col, span.byte_start, span.byte_end];
}

/**
 * The compact result of a transform edit or replacement: for each file its status, byte shift
 * and edits (status, where the new text lies, error code), plus the diff of a dry run; the
 * checksums, full spans and journal path are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactTransformResult } from "./compact.ts";
 * const result = compactTransformResult({
 *   dry_run: true, applied_count: 0, pending_count: 0, skipped_count: 0, error_count: 0,
 *   files: [], edits: [],
 * });
 * assert.deepEqual(result.by_file, []);
 * ```
 */
export function compactTransformResult(result: TransformResult): CompactTransformResult {
  const rowsOf = Map.groupBy(result.edits, (edit) => edit.file_path);
  const compact: CompactTransformResult = {
    dry_run: result.dry_run,
    applied_count: result.applied_count,
    pending_count: result.pending_count,
    skipped_count: result.skipped_count,
    error_count: result.error_count,
    columns: COLUMNS,
    by_file: result.files.map((file) => ({
      file_path: file.file_path,
      status: file.status,
      total_byte_shift: file.total_byte_shift,
      rows: (rowsOf.get(file.file_path) ?? []).map(editRow),
    })),
  };
  if (result.diff !== undefined) compact.diff = result.diff;
  if (result.candidates) {
    compact.candidates = groupByFile(result.candidates, (span) => span.file_path, candidateRow);
  }
  return compact;
}

/** The compact form of any transform output: edits and undos compacted, a recovery as it is. */
function compactTransformOutput(
  result: TransformResult | UndoResult | RecoverResult,
): CompactTransformOutput {
  if ("edits" in result) return compactTransformResult(result);
  if ("undone_execution_id" in result) return compactUndoResult(result);
  return result;
}

/** The compact form of `llm-transform`: its result compacted, the diagnostics summarised. */
export const transformCompact: CompactForm<MutationEnvelope<TransformOutput>> = {
  compact: (envelope) =>
    compactMutation(
      envelope,
      envelope.result === undefined ? undefined : compactTransformOutput(envelope.result),
    ),
};
