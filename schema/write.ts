/**
 * The contract of `llm-write`: the write plan it takes (`--plan FILE`, MCP `files`) and the
 * result it reports per file, approved (with the checksum written) or rejected (with the gate
 * diagnostics that refused it), in full and in compact form (contract §9).
 *
 * @module
 */
import { z } from "zod";
import { normalizeAliases } from "./aliases.ts";
import type { CompactMutationEnvelope, CompactUndoResult } from "./compact.ts";
import {
  columnsSchema,
  compactMutationEnvelopeSchema,
  CompactUndoResultSchema,
  rowSchema,
} from "./compact_schema.ts";
import type { DiagnosticLevel } from "./diagnostic.ts";
import { type UndoResult, UndoResultSchema } from "./journal.ts";

/** One file to write. */
export interface WriteFile {
  /** File to create (or overwrite), relative to the root. */
  file_path: string;
  /** Its whole new content, UTF-8. */
  content: string;
  /** Replace the file when it exists (needs `expected_checksum`). */
  overwrite?: boolean;
  /** `sha256:` of the existing file an overwrite replaces. */
  expected_checksum?: string;
}

/** A set of files written all or nothing. */
export interface WritePlan {
  /** Contract version the plan was written for. */
  schema_version?: string;
  /** Id to give the operation (else a fresh one). */
  execution_id?: string;
  /** The files. */
  files: WriteFile[];
}

const CHECKSUM = /^(sha256:)?[0-9a-fA-F]{64}$/;

/** zod schema of {@linkcode WriteFile}. */
export const WriteFileSchema: z.ZodType<WriteFile> = z.object({
  file_path: z.string().min(1).describe("File to write, relative to the root (alias: path)"),
  content: z.string().describe("The file's whole new content (alias: text)"),
  overwrite: z.boolean().optional().describe("Replace an existing file (with expected_checksum)"),
  expected_checksum: z.string().regex(CHECKSUM, "expected sha256:<64 hex digits>").optional()
    .describe("sha256: of the existing file an overwrite replaces"),
}).meta({ id: "WriteFile" });

/** zod schema of {@linkcode WritePlan}. */
export const WritePlanSchema: z.ZodType<WritePlan> = z.object({
  schema_version: z.string().optional(),
  execution_id: z.string().optional(),
  files: z.array(WriteFileSchema).min(1),
}).meta({ id: "WritePlan", title: "WritePlan" });

/** Names agents give a write's fields, beyond the contract's legacy names. */
const WRITE_ALIASES: Readonly<Record<string, string>> = {
  path: "file_path",
  text: "content",
  contents: "content",
};

function renameWriteAliases(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameWriteAliases);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (!(key in WRITE_ALIASES)) out[key] = renameWriteAliases(child);
  }
  for (const [key, child] of Object.entries(value)) {
    const canonical = WRITE_ALIASES[key];
    if (canonical !== undefined) out[canonical] ??= child;
  }
  return out;
}

/**
 * Parses a write plan written with canonical or alias field names (`path`, `text`, `file`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseWritePlan } from "@llm/search/schema";
 * const result = parseWritePlan({ files: [{ path: "a.py", content: "x = 1\n" }] });
 * assert.ok(result.success);
 * assert.equal(result.data.files[0].file_path, "a.py");
 * ```
 */
export function parseWritePlan(input: unknown): z.ZodSafeParseResult<WritePlan> {
  return WritePlanSchema.safeParse(renameWriteAliases(normalizeAliases(input)));
}

/** What became of one file. */
export type WriteFileStatus = "approved" | "rejected" | "skipped";

/** One file's outcome. */
export interface WrittenFile {
  /** The file, relative to the root. */
  file_path: string;
  /**
   * `approved`: it passed every gate (and was written unless `validate_only`); `rejected`: a gate
   * or a check refused it; `skipped`: it passed, but another file of the run was rejected.
   */
  status: WriteFileStatus;
  /** `create` for a new file, `overwrite` for a replaced one. */
  action: "create" | "overwrite";
  /** `sha256:` of the new content. */
  checksum: string;
  /** `sha256:` of the file replaced (overwrite only). */
  checksum_before?: string;
  /** Size of the new content in bytes. */
  bytes: number;
  /** Language the gates checked it as, when known. */
  language?: string;
  /** Whether the file now holds the new content. */
  written: boolean;
}

/** The result of a write. */
export interface WriteResult {
  /** Nothing was written: only the gates ran. */
  validate_only: boolean;
  /** Files approved. */
  approved_count: number;
  /** Files rejected. */
  rejected_count: number;
  /** Every file, sorted by path. */
  files: WrittenFile[];
  /** Journal of the write, relative to the root (what undo takes is the execution_id). */
  journal?: string;
}

/** What an `llm-write` envelope carries: a write's result, or an undo's. */
export type WriteOutput = WriteResult | UndoResult;

const checksum = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** zod schema of {@linkcode WrittenFile}. */
export const WrittenFileSchema: z.ZodType<WrittenFile> = z.object({
  file_path: z.string(),
  status: z.enum(["approved", "rejected", "skipped"]),
  action: z.enum(["create", "overwrite"]),
  checksum,
  checksum_before: checksum.optional(),
  bytes: z.number().int().nonnegative(),
  language: z.string().optional(),
  written: z.boolean(),
}).meta({ id: "WrittenFile" });

/** zod schema of {@linkcode WriteResult}. */
export const WriteResultSchema: z.ZodType<WriteResult> = z.object({
  validate_only: z.boolean(),
  approved_count: z.number().int().nonnegative(),
  rejected_count: z.number().int().nonnegative(),
  files: z.array(WrittenFileSchema),
  journal: z.string().optional(),
}).meta({ id: "WriteResult", title: "WriteResult" });

/** zod schema of {@linkcode WriteOutput}. */
export const WriteOutputSchema: z.ZodType<WriteOutput> = z.union([
  WriteResultSchema,
  UndoResultSchema,
]);

const count = z.number().int().nonnegative();
const nullableLine = z.number().int().positive().nullable();

/** Columns of a compact write diagnostic row. */
export const WRITE_DIAGNOSTIC_COLUMNS = [
  "level",
  "code",
  "line",
  "column",
  "tool",
  "native_code",
  "message",
  "note",
] as const;

/**
 * A diagnostic of a file: `[level, code, line, column, tool, native_code, message, note]`
 * (1-based line, 0-based byte column; `null` where the diagnostic has none).
 */
export type WriteDiagnosticRow = [
  DiagnosticLevel,
  string,
  number | null,
  number | null,
  string,
  string | null,
  string,
  string | null,
];

/** One file's outcome in compact form, its diagnostics as rows. */
export interface CompactWrittenFile {
  /** The file, relative to the root. */
  file_path: string;
  /** `approved`, `rejected`, or `skipped` (it passed; another file was rejected). */
  status: WriteFileStatus;
  /** `create` or `overwrite`. */
  action: "create" | "overwrite";
  /** `sha256:` of the new content (what `expected_checksum` of a later overwrite takes). */
  checksum: string;
  /** Whether the file now holds the new content. */
  written: boolean;
  /** Its diagnostics (gates, refusals), laid out as `columns` says, in file order. */
  diagnostics: WriteDiagnosticRow[];
}

/**
 * The compact result of a write: per file its status, checksum and diagnostics as rows; no
 * spans, remediations, tool paths or journal path (`detail: "full"` has them).
 */
export interface CompactWriteResult {
  /** Nothing was written: only the gates ran. */
  validate_only: boolean;
  /** Files approved. */
  approved_count: number;
  /** Files rejected. */
  rejected_count: number;
  /** Names of the diagnostic row fields. */
  columns: typeof WRITE_DIAGNOSTIC_COLUMNS;
  /** Every file, sorted by path. */
  files: CompactWrittenFile[];
}

/** zod schema of {@linkcode CompactWriteResult}. */
export const CompactWriteResultSchema: z.ZodType<CompactWriteResult> = z.object({
  validate_only: z.boolean(),
  approved_count: z.number().int().nonnegative(),
  rejected_count: z.number().int().nonnegative(),
  columns: columnsSchema(WRITE_DIAGNOSTIC_COLUMNS),
  files: z.array(z.object({
    file_path: z.string(),
    status: z.enum(["approved", "rejected", "skipped"]),
    action: z.enum(["create", "overwrite"]),
    checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    written: z.boolean(),
    diagnostics: z.array(rowSchema<WriteDiagnosticRow>([
      z.enum(["error", "warning", "note"]),
      z.string(),
      nullableLine,
      count.nullable(),
      z.string(),
      z.string().nullable(),
      z.string(),
      z.string().nullable(),
    ])),
  })),
}).meta({ id: "CompactWriteResult" });

/** zod schema of an `llm-write` answer in compact form (contract §9). */
export const CompactWriteEnvelopeSchema: z.ZodType<
  CompactMutationEnvelope<CompactWriteResult | CompactUndoResult>
> = compactMutationEnvelopeSchema(z.union([CompactWriteResultSchema, CompactUndoResultSchema]));
