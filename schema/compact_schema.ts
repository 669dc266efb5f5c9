/**
 * The zod schemas of the compact form (contract §9), apart from `compact.ts` so that the
 * builders, which a command line runs, do not load zod: the diagnostic summary, the compact
 * envelopes around any tool's data or result, and the row and column helpers each tool's compact
 * schema (in its own `schema/<tool>.ts`) is made of.
 *
 * @module
 */
import { z } from "zod";
import type {
  CompactEnvelope,
  CompactMutationEnvelope,
  CompactUndoResult,
  DiagnosticSummary,
  FileRows,
} from "./compact.ts";
import { CompactGateRefusalSchema, DiagnosticSchema } from "./diagnostic_schema.ts";

const count = z.number().int().nonnegative();
const line = z.number().int().positive();

/** zod schema of {@linkcode DiagnosticSummary}. */
export const DiagnosticSummarySchema: z.ZodType<DiagnosticSummary> = z.object({
  code: z.string(),
  level: z.enum(["error", "warning", "note"]),
  count: z.number().int().positive(),
  examples: z.array(z.object({
    message: z.string(),
    file: z.string().optional(),
    line: line.optional(),
  })),
}).meta({ id: "DiagnosticSummary" });

/** The schema of a query envelope in compact form whose `data` is `data`. */
export function compactEnvelopeSchema<D>(data: z.ZodType<D>): z.ZodType<CompactEnvelope<D>> {
  return z.object({
    schema_version: z.string(),
    execution_id: z.string(),
    tool: z.string(),
    form: z.literal("compact"),
    status: z.enum(["ok", "error", "partial"]),
    partial: z.literal(true).optional(),
    data,
    next_page: z.object({
      tool: z.string(),
      arguments: z.record(z.string(), z.unknown()),
    }).optional(),
    diagnostics: z.array(DiagnosticSummarySchema),
  });
}

/** The schema of a mutation envelope in compact form whose `result` is `result`. */
export function compactMutationEnvelopeSchema<R>(
  result: z.ZodType<R>,
): z.ZodType<CompactMutationEnvelope<R>> {
  return z.object({
    schema_version: z.string(),
    execution_id: z.string(),
    tool: z.string(),
    form: z.literal("compact"),
    operation_type: z.string(),
    status: z.enum(["ok", "error", "partial", "approved", "rejected"]),
    message: z.string(),
    result: result.optional(),
    error: z.union([CompactGateRefusalSchema, DiagnosticSchema]).optional(),
    diagnostics: z.array(DiagnosticSummarySchema),
  });
}

/** The schema of a file's rows, each row checked by `row`. */
export function fileRowsSchema<R>(row: z.ZodType<R>): z.ZodType<FileRows<R>> {
  return z.object({ file_path: z.string(), rows: z.array(row) });
}

/** Any value of a row; each cell's own schema checks its position. */
const ROW_VALUE = z.union([z.number(), z.string(), z.null()]);

/**
 * The schema of a row: an array of exactly `cells.length` values, each checked against its
 * cell. (Not a zod tuple: its JSON Schema, `prefixItems` with `items: false`, reads as "no
 * items" to the draft-07 validators MCP clients use.)
 */
export function rowSchema<R extends unknown[]>(cells: z.ZodType[]): z.ZodType<R> {
  return z.array(ROW_VALUE).length(cells.length).refine(
    (row) => cells.every((cell, i) => cell.safeParse(row[i]).success),
    "a value does not fit its column",
  ) as unknown as z.ZodType<R>;
}

/** The schema of a `columns` header: exactly `names`, in order. */
export function columnsSchema<C extends readonly [string, ...string[]]>(names: C): z.ZodType<C> {
  return z.array(z.enum(names)).refine(
    (given) => given.length === names.length && given.every((name, i) => name === names[i]),
    `expected ${names.join(", ")}`,
  ) as unknown as z.ZodType<C>;
}

/** zod schema of {@linkcode CompactUndoResult}. */
export const CompactUndoResultSchema: z.ZodType<CompactUndoResult> = z.object({
  dry_run: z.boolean(),
  undone_execution_id: z.string(),
  count,
  files: z.array(z.string()),
  diff: z.string().optional(),
}).meta({ id: "CompactUndoResult" });

/**
 * Any mutation envelope in compact form, its result unchecked: for a page that may hold any
 * tool's answer (`get_execution`), where each tool's own result schema would only repeat the
 * tool's listed output schema.
 */
export const AnyCompactMutationEnvelopeSchema: z.ZodType<CompactMutationEnvelope> =
  compactMutationEnvelopeSchema(z.unknown());
