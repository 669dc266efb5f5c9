/**
 * The compact form of `llm-write` (contract §9), which its definition declares (`tool.ts`): per
 * file its status, checksum and diagnostics as rows, or the files of an undo. It loads no zod.
 *
 * @module
 */
import {
  type CompactForm,
  compactMutation,
  compactUndoResult,
  isErrorCopy,
} from "../../schema/compact.ts";
import type { Diagnostic, MutationError } from "../../schema/diagnostic.ts";
import type { MutationEnvelope } from "../../schema/envelope.ts";
import type {
  CompactWriteResult,
  WRITE_DIAGNOSTIC_COLUMNS,
  WriteDiagnosticRow,
  WriteOutput,
  WriteResult,
} from "../../schema/write.ts";

/** The contract's `WRITE_DIAGNOSTIC_COLUMNS`, whose module loads zod; the type holds the two equal. */
const COLUMNS: typeof WRITE_DIAGNOSTIC_COLUMNS = [
  "level",
  "code",
  "line",
  "column",
  "tool",
  "native_code",
  "message",
  "note",
];

function diagnosticRow(diagnostic: Diagnostic): WriteDiagnosticRow {
  return [
    diagnostic.level,
    diagnostic.code,
    diagnostic.line ?? null,
    diagnostic.column ?? null,
    diagnostic.tool,
    diagnostic.native_code ?? null,
    diagnostic.message,
    diagnostic.note ?? null,
  ];
}

/**
 * The compact result of a write: each file with its status, checksum and its diagnostics (those
 * naming it) as rows. The refusal `error` is left out of its file's rows when others explain it
 * (a gate's errors under "fails validation"): the envelope's message says it already.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactWriteResult } from "./compact.ts";
 * const compact = compactWriteResult(
 *   { validate_only: true, approved_count: 0, rejected_count: 0, files: [] },
 *   [],
 * );
 * assert.equal(compact.columns[0], "level");
 * ```
 */
export function compactWriteResult(
  result: WriteResult,
  diagnostics: readonly Diagnostic[],
  error?: MutationError,
): CompactWriteResult {
  const byFile = Map.groupBy(diagnostics, (diagnostic) => diagnostic.file);
  const rowsOf = (file: string) => {
    const listed = byFile.get(file) ?? [];
    const copy = (d: Diagnostic) => error !== undefined && isErrorCopy(d, error);
    const explained = listed.some((d) => !copy(d) && d.level === "error");
    return listed.filter((d) => !(explained && copy(d)));
  };
  return {
    validate_only: result.validate_only,
    approved_count: result.approved_count,
    rejected_count: result.rejected_count,
    columns: COLUMNS,
    files: result.files.map((file) => ({
      file_path: file.file_path,
      status: file.status,
      action: file.action,
      checksum: file.checksum,
      written: file.written,
      diagnostics: rowsOf(file.file_path).map(diagnosticRow),
    })),
  };
}

/**
 * The compact form of `llm-write`: a write's files with their own diagnostics as rows (which the
 * envelope then does not summarise again), or an undo's files.
 */
export const writeCompact: CompactForm<MutationEnvelope<WriteOutput>> = {
  compact(envelope) {
    const output = envelope.result;
    if (output === undefined) return compactMutation(envelope, undefined);
    if (!("validate_only" in output)) return compactMutation(envelope, compactUndoResult(output));
    const result = compactWriteResult(output, envelope.diagnostics, envelope.error);
    return compactMutation(envelope, result, result.files.map((file) => file.file_path));
  },
};
