/**
 * The compact form of query results (contract §9): what an agent reads by default (the MCP
 * answer, and `--format compact` on the command line). Results come first, as rows under a
 * `columns` header, grouped by file; ids, checksums, captures and whole node text are left out
 * (the full envelope has them). Diagnostics follow, summarised by code: a count and up to three
 * examples each. One builder per tool family turns a full envelope into its compact form.
 *
 * @module
 */
import { z } from "zod";
import type { AstMatch, AstSearchData } from "./ast_search.ts";
import {
  type CompactGateRefusal,
  type Diagnostic,
  type DiagnosticLevel,
  isGateRefusal,
  type MutationError,
  refusalDiagnostic,
} from "./diagnostic.ts";
import { CompactGateRefusalSchema, DiagnosticSchema } from "./diagnostic_schema.ts";
import type { DiscoverData, DiscoverResult } from "./discover.ts";
import type {
  Envelope,
  MutationEnvelope,
  MutationStatus,
  QueryEnvelope,
  QueryStatus,
} from "./envelope.ts";
import { type RecoverResult, RecoverResultSchema, type UndoResult } from "./journal.ts";
import {
  type FileCount,
  FileCountSchema,
  type SearchData,
  type SearchIndexUse,
  SearchIndexUseSchema,
  type SearchMatch,
} from "./search.ts";
import type { Span } from "./span.ts";
import type { EditOutcome, EditStatus, FileStatus, TransformResult } from "./transform.ts";
import type { WriteFileStatus, WriteOutput, WriteResult } from "./write.ts";

/** How much an answer shows: `compact` (the default of agents) or `full` (the whole envelope). */
export type Detail = "compact" | "full";

/** The values of {@linkcode Detail}. */
export const DETAILS: readonly Detail[] = ["compact", "full"];

/** Longest line text or first line a compact row carries, in characters (then `…`). */
export const COMPACT_TEXT_CHARS = 160;

/** Examples a {@linkcode DiagnosticSummary} keeps. */
export const SUMMARY_EXAMPLES = 3;

/** One diagnostic shown as an example of its code. */
export interface DiagnosticExample {
  /** Its message. */
  message: string;
  /** The file concerned. */
  file?: string;
  /** 1-based line concerned. */
  line?: number;
}

/** Every diagnostic of one code and level, counted, with a few examples. */
export interface DiagnosticSummary {
  /** Registry code (`--explain CODE` says what it means and what to do). */
  code: string;
  /** Severity. */
  level: DiagnosticLevel;
  /** How many diagnostics had this code and level. */
  count: number;
  /** The first {@linkcode SUMMARY_EXAMPLES} of them. */
  examples: DiagnosticExample[];
}

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

/** Where the next page of a cut answer is: call `tool` with `arguments` (no re-run). */
export interface NextPage {
  /** Always `get_execution`: it pages the stored result. */
  tool: "get_execution";
  /** Its arguments. */
  arguments: { execution_id: string; offset: number };
}

/** A query envelope in compact form. */
export interface CompactEnvelope<D = unknown> {
  /** Contract version. */
  schema_version: string;
  /** UUID v4 of the run: `get_execution` returns its full result. */
  execution_id: string;
  /** Tool name. */
  tool: string;
  /** Always `compact`; `detail: "full"` (`--format json`) gives the whole envelope. */
  form: "compact";
  /** `partial` when a limit, timeout or the output budget cut the results. */
  status: QueryStatus;
  /** Present and true when results were cut. */
  partial?: true;
  /** The results. */
  data: D;
  /** Where the next page is, when the output budget cut the list. */
  next_page?: NextPage;
  /** Diagnostics summarised by code, after the results. */
  diagnostics: DiagnosticSummary[];
}

function compactEnvelopeSchema<D>(data: z.ZodType<D>): z.ZodType<CompactEnvelope<D>> {
  return z.object({
    schema_version: z.string(),
    execution_id: z.string(),
    tool: z.string(),
    form: z.literal("compact"),
    status: z.enum(["ok", "error", "partial"]),
    partial: z.literal(true).optional(),
    data,
    next_page: z.object({
      tool: z.literal("get_execution"),
      arguments: z.object({ execution_id: z.string(), offset: count }),
    }).optional(),
    diagnostics: z.array(DiagnosticSummarySchema),
  });
}

/** A mutation envelope in compact form (no timestamp, workspace or journal path). */
export interface CompactMutationEnvelope<R = unknown> {
  /** Contract version. */
  schema_version: string;
  /** UUID v4 of the run: `get_execution` returns its full result; `undo` takes it. */
  execution_id: string;
  /** Tool name. */
  tool: string;
  /** Always `compact`; `detail: "full"` (`--format json`) gives the whole envelope. */
  form: "compact";
  /** What kind of mutation, e.g. `edit`, `replace`, `undo`. */
  operation_type: string;
  /** Outcome. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** The result, in compact form. */
  result?: R;
  /**
   * The error that stopped the run, in full (its note and remediation or hint say what to do);
   * a gate's refusal without its gate errors, which are among the summarised diagnostics.
   */
  error?: Diagnostic | CompactGateRefusal;
  /** The other diagnostics, summarised by code. */
  diagnostics: DiagnosticSummary[];
}

/** Any answer in compact form. */
export type CompactAnswer = CompactEnvelope | CompactMutationEnvelope;

function compactMutationEnvelopeSchema<R>(
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

/** A file's rows. */
export interface FileRows<R> {
  /** The file. */
  file_path: string;
  /** Its results in file order, one row each, laid out as `columns` says. */
  rows: R[];
}

function fileRowsSchema<R>(row: z.ZodType<R>): z.ZodType<FileRows<R>> {
  return z.object({ file_path: z.string(), rows: z.array(row) });
}

/** Any value of a row; each cell's own schema checks its position. */
const ROW_VALUE = z.union([z.number(), z.string(), z.null()]);

/**
 * The schema of a row: an array of exactly `cells.length` values, each checked against its
 * cell. (Not a zod tuple: its JSON Schema, `prefixItems` with `items: false`, reads as "no
 * items" to the draft-07 validators MCP clients use.)
 */
function rowSchema<R extends unknown[]>(cells: z.ZodType[]): z.ZodType<R> {
  return z.array(ROW_VALUE).length(cells.length).refine(
    (row) => cells.every((cell, i) => cell.safeParse(row[i]).success),
    "a value does not fit its column",
  ) as unknown as z.ZodType<R>;
}

/** The schema of a `columns` header: exactly `names`, in order. */
function columnsSchema<C extends readonly [string, ...string[]]>(names: C): z.ZodType<C> {
  return z.array(z.enum(names)).refine(
    (given) => given.length === names.length && given.every((name, i) => name === names[i]),
    `expected ${names.join(", ")}`,
  ) as unknown as z.ZodType<C>;
}

/** Columns of a compact search row. */
export const SEARCH_COLUMNS = [
  "start_line",
  "start_col",
  "byte_start",
  "byte_end",
  "line_text",
] as const;

/** A search match: `[start_line, start_col, byte_start, byte_end, line_text]`. */
export type SearchRow = [number, number, number, number, string];

/** Compact `data` of `llm-search`. */
export interface CompactSearchData {
  /** Results in this answer. */
  count: number;
  /** The patterns as given. */
  patterns: string[];
  /** What `count` counts. */
  mode: SearchData["mode"];
  /** Every match found (also those not shown). */
  match_count: number;
  /** Files searched. */
  files_searched: number;
  /** Files with at least one match. */
  files_matched: number;
  /** Results before `limit` cut them; present only when cut. */
  total?: number;
  /** Names of the row fields. */
  columns: typeof SEARCH_COLUMNS;
  /** Matches grouped by file (mode `matches`). */
  by_file: FileRows<SearchRow>[];
  /** Files with matches (mode `files`). */
  files?: string[];
  /** Per-file counts (mode `counts`). */
  counts?: FileCount[];
  /** How the repository index was used (as in the full form). */
  index?: SearchIndexUse;
}

/** zod schema of {@linkcode CompactSearchData}. */
export const CompactSearchDataSchema: z.ZodType<CompactSearchData> = z.object({
  count,
  patterns: z.array(z.string()),
  mode: z.enum(["matches", "files", "counts"]),
  match_count: count,
  files_searched: count,
  files_matched: count,
  total: count.optional(),
  columns: columnsSchema(SEARCH_COLUMNS),
  by_file: z.array(fileRowsSchema(rowSchema<SearchRow>([line, count, count, count, z.string()]))),
  files: z.array(z.string()).optional(),
  counts: z.array(FileCountSchema).optional(),
  index: SearchIndexUseSchema.optional(),
}).meta({ id: "CompactSearchData" });

/** The columns of a compact ast-search row after its name and kind. */
const AST_SPAN_COLUMNS = [
  "start_line",
  "end_line",
  "byte_start",
  "byte_end",
  "first_line",
] as const;

/** Columns of a compact ast-search row whose matches differ in kind. */
export const AST_COLUMNS = ["name", "kind", ...AST_SPAN_COLUMNS] as const;

/** Columns of a compact ast-search row when every match has one kind (`data.kind` names it). */
export const AST_ONE_KIND_COLUMNS = ["name", ...AST_SPAN_COLUMNS] as const;

/**
 * An ast-search match: `[name, kind, start_line, end_line, byte_start, byte_end, first_line]`;
 * for a query match, `name` and `kind` are those of its first capture (its capture name as kind).
 */
export type AstRow = [string, string, number, number, number, number, string];

/** An ast-search match of an answer whose matches share one kind: {@linkcode AstRow} without it. */
export type AstOneKindRow = [string, number, number, number, number, string];

/** Compact `data` of `llm-ast-search`. */
export interface CompactAstSearchData {
  /** Matches in this answer. */
  count: number;
  /** `query` or `kind`. */
  mode: AstSearchData["mode"];
  /** Every match found (also those not shown). */
  match_count: number;
  /** Files parsed and searched. */
  files_searched: number;
  /** Files with at least one match. */
  files_matched: number;
  /** Languages of the files searched. */
  languages: string[];
  /** Matches before `limit` cut them; present only when cut. */
  total?: number;
  /**
   * The kind of every match shown, when they share one (a `kind: ["function"]` search): the
   * rows then leave the kind out, which would repeat it on every row.
   */
  kind?: string;
  /** Names of the row fields: {@linkcode AST_ONE_KIND_COLUMNS} when `kind` is given. */
  columns: typeof AST_COLUMNS | typeof AST_ONE_KIND_COLUMNS;
  /** Matches grouped by file. */
  by_file: FileRows<AstRow | AstOneKindRow>[];
}

const astCells = [z.string(), z.string(), line, line, count, count, z.string()];

/** zod schema of {@linkcode CompactAstSearchData}. */
export const CompactAstSearchDataSchema: z.ZodType<CompactAstSearchData> = z.object({
  count,
  mode: z.enum(["query", "kind"]),
  match_count: count,
  files_searched: count,
  files_matched: count,
  languages: z.array(z.string()),
  total: count.optional(),
  kind: z.string().optional(),
  columns: z.union([columnsSchema(AST_COLUMNS), columnsSchema(AST_ONE_KIND_COLUMNS)]),
  by_file: z.array(
    fileRowsSchema(
      z.union([rowSchema<AstRow>(astCells), rowSchema<AstOneKindRow>(astCells.slice(1))]),
    ),
  ),
}).refine(
  (data) => data.columns.length === (data.kind === undefined ? 7 : 6),
  "the columns leave the kind out exactly when data.kind is given",
).refine(
  (data) =>
    data.by_file.every((file) => file.rows.every((row) => row.length === data.columns.length)),
  "every row has one value per column",
).meta({ id: "CompactAstSearchData" });

/** Columns of a compact discover row. */
export const DISCOVER_COLUMNS = ["path", "kind", "size", "score", "reason"] as const;

/** A found path: `[path, kind, size, score, reason]`. */
export type DiscoverRow = [string, DiscoverResult["kind"], number | null, number, string];

/** Compact `data` of `llm-discover`. */
export interface CompactDiscoverData {
  /** Results in this answer. */
  count: number;
  /** The query as given. */
  query: string;
  /** Paths that matched. */
  total: number;
  /** Entries the query was tried on. */
  scanned: number;
  /** Names of the row fields. */
  columns: typeof DISCOVER_COLUMNS;
  /** Best first. */
  rows: DiscoverRow[];
}

/** zod schema of {@linkcode CompactDiscoverData}. */
export const CompactDiscoverDataSchema: z.ZodType<CompactDiscoverData> = z.object({
  count,
  query: z.string(),
  total: count,
  scanned: count,
  columns: columnsSchema(DISCOVER_COLUMNS),
  rows: z.array(
    rowSchema<DiscoverRow>([
      z.string(),
      z.enum(["file", "dir"]),
      count.nullable(),
      z.number(),
      z.string(),
    ]),
  ),
}).meta({ id: "CompactDiscoverData" });

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

/** Compact result of an undo: the operation undone and the files restored. */
export interface CompactUndoResult {
  /** Nothing was changed: this is what the undo would do. */
  dry_run: boolean;
  /** Execution id of the operation undone. */
  undone_execution_id: string;
  /** Number of files restored (or to restore). */
  count: number;
  /** The files, sorted by path. */
  files: string[];
  /** Unified diff of the undo (dry run). */
  diff?: string;
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

/** zod schema of {@linkcode CompactUndoResult}. */
export const CompactUndoResultSchema: z.ZodType<CompactUndoResult> = z.object({
  dry_run: z.boolean(),
  undone_execution_id: z.string(),
  count,
  files: z.array(z.string()),
  diff: z.string().optional(),
}).meta({ id: "CompactUndoResult" });

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
 * import { compactTransformResult } from "@llm/search/schema";
 * compactTransformResult({
 *   dry_run: true, applied_count: 0, pending_count: 0, skipped_count: 0, error_count: 0,
 *   files: [], edits: [],
 * }).by_file; // []
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
    columns: EDIT_COLUMNS,
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

/**
 * The compact result of an undo: the files restored, without their checksums.
 *
 * @example
 * ```ts
 * import { compactUndoResult } from "@llm/search/schema";
 * compactUndoResult({ dry_run: false, undone_execution_id: "x", count: 0, files: [] }).files; // []
 * ```
 */
export function compactUndoResult(result: UndoResult): CompactUndoResult {
  const compact: CompactUndoResult = {
    dry_run: result.dry_run,
    undone_execution_id: result.undone_execution_id,
    count: result.count,
    files: result.files.map((file) => file.file_path),
  };
  if (result.diff !== undefined) compact.diff = result.diff;
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

/**
 * Summarises diagnostics by code and level, in order of first appearance: a count and the
 * first {@linkcode SUMMARY_EXAMPLES} messages each.
 *
 * @example
 * ```ts
 * import { makeDiagnostic, summariseDiagnostics } from "@llm/search/schema";
 * const skipped = makeDiagnostic("llm-ast-search", "LAS-IO-001", "cannot parse a.c", { level: "warning" });
 * summariseDiagnostics([skipped, skipped])[0].count; // 2
 * ```
 */
export function summariseDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticSummary[] {
  const byKey = new Map<string, DiagnosticSummary>();
  for (const diagnostic of diagnostics) {
    const key = `${diagnostic.level} ${diagnostic.code}`;
    let summary = byKey.get(key);
    if (!summary) {
      summary = { code: diagnostic.code, level: diagnostic.level, count: 0, examples: [] };
      byKey.set(key, summary);
    }
    summary.count++;
    if (summary.examples.length < SUMMARY_EXAMPLES) summary.examples.push(exampleOf(diagnostic));
  }
  return [...byKey.values()];
}

function exampleOf(diagnostic: Diagnostic): DiagnosticExample {
  const example: DiagnosticExample = { message: diagnostic.message };
  const file = diagnostic.file ?? diagnostic.span?.file_path;
  const at = diagnostic.line ?? diagnostic.span?.start_line;
  if (file !== undefined) example.file = file;
  if (at !== undefined) example.line = at;
  return example;
}

/** `text` cut to {@linkcode COMPACT_TEXT_CHARS} characters, with `…` when cut. */
function cut(text: string): string {
  if (text.length <= COMPACT_TEXT_CHARS) return text;
  let end = COMPACT_TEXT_CHARS;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
  return text.slice(0, end) + "…";
}

/** The first line of `text`, trailing blanks removed, cut. */
function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return cut((end < 0 ? text : text.slice(0, end)).trimEnd());
}

/** Groups items by file, keeping their order (the lists are in file order). */
function groupByFile<T, R>(
  items: readonly T[],
  fileOf: (item: T) => string,
  rowOf: (item: T) => R,
): FileRows<R>[] {
  const groups: FileRows<R>[] = [];
  for (const item of items) {
    const file = fileOf(item);
    const last = groups.at(-1);
    if (last?.file_path === file) last.rows.push(rowOf(item));
    else groups.push({ file_path: file, rows: [rowOf(item)] });
  }
  return groups;
}

function searchRow(match: SearchMatch): SearchRow {
  const span = match.span;
  return [span.start_line, span.start_col, span.byte_start, span.byte_end, cut(match.line_text)];
}

/**
 * The compact data of an `llm-search` result: matches as rows grouped by file, without ids,
 * matched text or context.
 *
 * @example
 * ```ts
 * import { compactSearchData } from "@llm/search/schema";
 * const data = compactSearchData({
 *   count: 0, patterns: ["x"], mode: "matches", match_count: 0, files_searched: 1,
 *   files_matched: 0, matches: [],
 * });
 * data.by_file; // []
 * ```
 */
export function compactSearchData(data: SearchData): CompactSearchData {
  const { matches, ...summary } = data; // every field but the matches is already compact
  const by_file = groupByFile(matches, (match) => match.span.file_path, searchRow);
  return { ...summary, columns: SEARCH_COLUMNS, by_file };
}

function astRow(match: AstMatch): AstRow {
  const span = match.span;
  return [
    match.name ?? match.captures[0]?.text ?? "",
    astKind(match),
    span.start_line,
    span.end_line,
    span.byte_start,
    span.byte_end,
    firstLine(match.text),
  ];
}

/** A match's kind: its own, or for a query match its first capture's name. */
function astKind(match: AstMatch): string {
  return match.kind ?? match.captures[0]?.name ?? "";
}

/**
 * The compact data of an `llm-ast-search` result: name, kind, span and first line (a
 * definition's signature) of each match, grouped by file; no bodies, captures or ids. When
 * every match has the same kind, `data.kind` names it once and the rows leave it out.
 *
 * @example
 * ```ts
 * import { compactAstSearchData } from "@llm/search/schema";
 * const data = compactAstSearchData({
 *   count: 0, mode: "kind", match_count: 0, files_searched: 1, files_matched: 0,
 *   languages: ["c"], matches: [],
 * });
 * data.columns[0]; // "name"
 * ```
 */
export function compactAstSearchData(data: AstSearchData): CompactAstSearchData {
  const { matches, ...summary } = data; // every field but the matches is already compact
  const kinds = new Set(matches.map(astKind));
  if (kinds.size !== 1) {
    const by_file = groupByFile(matches, (match) => match.span.file_path, astRow);
    return { ...summary, columns: AST_COLUMNS, by_file };
  }
  const oneKindRow = (match: AstMatch): AstOneKindRow => {
    const [name, _kind, ...rest] = astRow(match);
    return [name, ...rest];
  };
  const by_file = groupByFile(matches, (match) => match.span.file_path, oneKindRow);
  return { ...summary, kind: [...kinds][0], columns: AST_ONE_KIND_COLUMNS, by_file };
}

/**
 * The compact data of an `llm-discover` result: path, kind, size, score and reason per row,
 * without the raw score and match positions.
 *
 * @example
 * ```ts
 * import { compactDiscoverData } from "@llm/search/schema";
 * compactDiscoverData({ count: 0, query: "x", total: 0, scanned: 3, results: [] }).rows; // []
 * ```
 */
export function compactDiscoverData(data: DiscoverData): CompactDiscoverData {
  return {
    count: data.count,
    query: data.query,
    total: data.total,
    scanned: data.scanned,
    columns: DISCOVER_COLUMNS,
    rows: data.results.map((
      result,
    ) => [result.path, result.kind, result.size, result.score, result.reason]),
  };
}

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

/** Whether `diagnostic` is the envelope's copy of `error` (a gate's refusal: without its errors). */
function isErrorCopy(diagnostic: Diagnostic, error: MutationError): boolean {
  const copy = isGateRefusal(error) ? refusalDiagnostic(error) : error;
  return diagnostic === copy || JSON.stringify(diagnostic) === JSON.stringify(copy);
}

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
 * import { compactWriteResult } from "@llm/search/schema";
 * const compact = compactWriteResult(
 *   { validate_only: true, approved_count: 0, rejected_count: 0, files: [] },
 *   [],
 * );
 * compact.columns[0]; // "level"
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
    columns: WRITE_DIAGNOSTIC_COLUMNS,
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

/** A query tool family's compact form: its data schema and the builder from the full data. */
interface CompactForm {
  /** Field of the full data the builder needs (absent in the `{ count: 0 }` of a failed run). */
  listKey: string;
  /** zod schema of the compact data. */
  data: z.ZodType;
  /** Builds the compact data from the full data. */
  build(data: unknown): unknown;
}

/** A mutation tool's compact form: its result schema and the builder from the full result. */
interface CompactMutationForm {
  /** zod schema of the compact result. */
  result: z.ZodType;
  /** Builds the compact result from the full result (the envelope gives its diagnostics). */
  build(result: unknown, envelope: MutationEnvelope): unknown;
  /**
   * Whether the compact result lists the diagnostics of its files itself: the envelope then
   * summarises only the others, and leaves out an error that is one of them.
   */
  listsFileDiagnostics?: boolean;
}

/** The compact form of each query tool, by tool name (the `tool` of its envelope). */
const COMPACT_FORMS: Readonly<Record<string, CompactForm>> = {
  "llm-search": {
    listKey: "matches",
    data: CompactSearchDataSchema,
    build: (data) => compactSearchData(data as SearchData),
  },
  "llm-ast-search": {
    listKey: "matches",
    data: CompactAstSearchDataSchema,
    build: (data) => compactAstSearchData(data as AstSearchData),
  },
  "llm-discover": {
    listKey: "results",
    data: CompactDiscoverDataSchema,
    build: (data) => compactDiscoverData(data as DiscoverData),
  },
};

/** The compact form of each mutation tool, by tool name. */
const COMPACT_MUTATION_FORMS: Readonly<Record<string, CompactMutationForm>> = {
  "llm-transform": {
    result: z.union([CompactTransformResultSchema, CompactUndoResultSchema, RecoverResultSchema]),
    build: (result) => compactTransformOutput(result as TransformResult | UndoResult),
  },
  "llm-write": {
    result: z.union([CompactWriteResultSchema, CompactUndoResultSchema]),
    build: (result, envelope) => {
      const output = result as WriteOutput;
      return "validate_only" in output
        ? compactWriteResult(output, envelope.diagnostics, envelope.error)
        : compactUndoResult(output);
    },
    listsFileDiagnostics: true,
  },
};

/** Names of the query tools that have a compact form. */
export const COMPACT_QUERY_TOOLS: readonly string[] = Object.keys(COMPACT_FORMS);

/** Names of the tools that have a compact form. */
export const COMPACT_TOOLS: readonly string[] = [
  ...COMPACT_QUERY_TOOLS,
  ...Object.keys(COMPACT_MUTATION_FORMS),
];

/**
 * Any mutation envelope in compact form, its result unchecked: for a page that may hold any
 * tool's answer (`get_execution`), where each tool's own result schema would only repeat the
 * tool's listed output schema.
 */
export const AnyCompactMutationEnvelopeSchema: z.ZodType<CompactMutationEnvelope> =
  compactMutationEnvelopeSchema(z.unknown());

/**
 * The schema of a tool's compact envelope, or undefined when the tool has no compact form (its
 * full envelope is its only form).
 *
 * @example
 * ```ts
 * import { compactEnvelopeSchemaOf } from "@llm/search/schema";
 * compactEnvelopeSchemaOf("llm-search") !== undefined; // true
 * ```
 */
export function compactEnvelopeSchemaOf(tool: string): z.ZodType<CompactAnswer> | undefined {
  const form = COMPACT_FORMS[tool];
  if (form) return compactEnvelopeSchema(form.data);
  const mutation = COMPACT_MUTATION_FORMS[tool];
  return mutation ? compactMutationEnvelopeSchema(mutation.result) : undefined;
}

/** Whether `envelope` is in compact form. */
export function isCompact(envelope: object): envelope is CompactAnswer {
  return (envelope as { form?: unknown }).form === "compact";
}

/**
 * The compact form of an envelope: its results as rows, its diagnostics summarised. An
 * envelope of a tool without a compact form, or of a query run that produced no result list (a
 * failure), is returned unchanged, in full.
 *
 * @example
 * ```ts
 * import { compactEnvelope, queryEnvelope } from "@llm/search/schema";
 * const full = queryEnvelope("llm-discover", { count: 0, query: "x", total: 0, scanned: 0, results: [] }, []);
 * "form" in compactEnvelope(full); // true
 * ```
 */
export function compactEnvelope(envelope: Envelope): Envelope | CompactAnswer {
  if (!("data" in envelope)) return compactMutation(envelope);
  const form = COMPACT_FORMS[envelope.tool];
  if (!form) return envelope;
  const query = envelope as QueryEnvelope;
  const data = query.data as unknown as Record<string, unknown>;
  if (!Array.isArray(data[form.listKey])) return envelope;
  const compact: CompactEnvelope = {
    schema_version: query.schema_version,
    execution_id: query.execution_id,
    tool: query.tool,
    form: "compact",
    status: query.status,
    ...(query.partial ? { partial: true as const } : {}),
    data: form.build(data),
    diagnostics: summariseDiagnostics(query.diagnostics),
  };
  return compact;
}

/**
 * The compact form of a mutation envelope: no timestamp, workspace or journal path, its result
 * compacted, the error that stopped it in full and the other diagnostics summarised (the
 * error's own copy among them left out).
 */
function compactMutation(envelope: MutationEnvelope): MutationEnvelope | CompactMutationEnvelope {
  const form = COMPACT_MUTATION_FORMS[envelope.tool];
  if (!form) return envelope;
  const result = envelope.result === undefined ? undefined : form.build(envelope.result, envelope);
  const listed = new Set(form.listsFileDiagnostics ? filesOf(result) : []);
  const error = envelope.error;
  const errorListed = error?.file !== undefined && listed.has(error.file);
  const others = envelope.diagnostics.filter((diagnostic) =>
    !(error && isErrorCopy(diagnostic, error)) &&
    (diagnostic.file === undefined || !listed.has(diagnostic.file))
  );
  return {
    schema_version: envelope.schema_version,
    execution_id: envelope.execution_id,
    tool: envelope.tool,
    form: "compact",
    operation_type: envelope.operation_type,
    status: envelope.status,
    message: envelope.message,
    ...(result !== undefined ? { result } : {}),
    ...(error && !errorListed ? { error: compactError(error) } : {}),
    diagnostics: summariseDiagnostics(others),
  };
}

/** The error in compact form: a gate's refusal without its errors, summarised with the others. */
function compactError(error: MutationError): Diagnostic | CompactGateRefusal {
  if (!isGateRefusal(error)) return error;
  const { diagnostics: _errors, ...refusal } = error;
  return refusal;
}

/** The files a compact result lists with their diagnostics. */
function filesOf(result: unknown): string[] {
  const files = (result as { files?: unknown } | undefined)?.files;
  if (!Array.isArray(files)) return [];
  return files.flatMap((file) =>
    typeof file === "object" && file !== null && "diagnostics" in file && "file_path" in file
      ? [String(file.file_path)]
      : []
  );
}
