/**
 * Output shapes of `llm-ast-search`: tree-sitter query matches and symbol definitions, in full
 * and in compact form (contract §9).
 *
 * @module
 */
import { z } from "zod";
import type { CompactEnvelope, FileRows } from "./compact.ts";
import {
  columnsSchema,
  compactEnvelopeSchema,
  fileRowsSchema,
  rowSchema,
} from "./compact_schema.ts";
import { type SpanExtensions, spanExtensionShape } from "./extensions.ts";
import type { Span } from "./span_build.ts";
import { SpanSchema } from "./span.ts";

/**
 * The normalised symbol kinds of `--kind`, the same for every language. Each language's
 * definition query maps its own node types onto these (a Rust `impl` method and a Java method
 * are both `method`; a C `#define` is a `macro`; a C enumerator is a `constant`).
 */
export const SYMBOL_KINDS = [
  "function",
  "method",
  "class",
  "struct",
  "union",
  "enum",
  "interface",
  "trait",
  "type",
  "module",
  "constant",
  "variable",
  "macro",
] as const;

/** One of {@linkcode SYMBOL_KINDS}. */
export type SymbolKind = typeof SYMBOL_KINDS[number];

/** A node a query captured. */
export interface AstCapture {
  /** The capture's name in the query, without `@`. */
  name: string;
  /** Where the captured node is. */
  span: Span;
  /** The node's text, cut at `--max-columns` bytes. */
  text: string;
  /** Present and true when `text` was cut. */
  text_truncated?: true;
}

/** zod schema of {@linkcode AstCapture}. */
export const AstCaptureSchema: z.ZodType<AstCapture> = z.object({
  name: z.string(),
  span: SpanSchema,
  text: z.string(),
  text_truncated: z.literal(true).optional(),
}).meta({ id: "AstCapture" });

/** One match: of the query's pattern, or (with `--kind`) one symbol definition. */
export interface AstMatch extends SpanExtensions {
  /** UUID v4 of this match. */
  match_id: string;
  /** The whole match: from its first captured byte to its last (a definition's node). */
  span: Span;
  /** Index of the pattern that matched, in the query (or the language's definition query). */
  pattern_index: number;
  /** The matched text, cut at `--max-columns` bytes. */
  text: string;
  /** Present and true when `text` was cut. */
  text_truncated?: true;
  /** Name of the symbol (from the `@name` capture), for definitions. */
  name?: string;
  /** Normalised kind of the symbol (from a `@definition.<kind>` capture), for definitions. */
  kind?: string;
  /** Captured nodes in query order (with `--kind`: the `name` capture only). */
  captures: AstCapture[];
}

/** zod schema of {@linkcode AstMatch}. */
export const AstMatchSchema: z.ZodType<AstMatch> = z.object({
  match_id: z.uuid(),
  span: SpanSchema,
  pattern_index: z.number().int().nonnegative(),
  text: z.string(),
  text_truncated: z.literal(true).optional(),
  name: z.string().optional(),
  kind: z.string().optional(),
  captures: z.array(AstCaptureSchema),
  ...spanExtensionShape,
}).meta({ id: "AstMatch" });

/** `data` of an `llm-ast-search` envelope. */
export interface AstSearchData {
  /** Matches listed here. */
  count: number;
  /** `query` for a tree-sitter query, `kind` for `--kind`/`--name` symbol searches. */
  mode: "query" | "kind";
  /** Every match found (also those cut by `--limit`). */
  match_count: number;
  /** Files parsed and searched. */
  files_searched: number;
  /** Files with at least one match. */
  files_matched: number;
  /** Languages of the files searched, sorted. */
  languages: string[];
  /** Matches before `--limit` cut them; present only when cut. */
  total?: number;
  /** Matches in (file_path, byte_start) order. */
  matches: AstMatch[];
  /**
   * Files a parse limit stopped, and the limits that let them through: the same query over
   * `paths` with these limits searches them (an MCP answer names that call as its next page).
   * Present only when a limit stopped a file that a higher limit lets through.
   */
  limited?: LimitedFiles;
}

/** Files a parse limit stopped, and the limits that let them through. */
export interface LimitedFiles {
  /** The files, in walk order. */
  paths: string[];
  /** Bytes of the largest file stopped by `max_parse_bytes`. */
  max_parse_bytes?: number;
  /** MiB of parser heap to allow (twice the limit that stopped a file, at most 1536). */
  max_parse_memory?: number;
  /** Milliseconds to allow one file (four times the limit that stopped a file). */
  file_timeout?: number;
}

/** zod schema of {@linkcode LimitedFiles}. */
export const LimitedFilesSchema: z.ZodType<LimitedFiles> = z.object({
  paths: z.array(z.string()),
  max_parse_bytes: z.number().int().positive().optional(),
  max_parse_memory: z.number().int().positive().optional(),
  file_timeout: z.number().int().positive().optional(),
});

/** zod schema of {@linkcode AstSearchData}. */
export const AstSearchDataSchema: z.ZodType<AstSearchData> = z.object({
  count: z.number().int().nonnegative(),
  mode: z.enum(["query", "kind"]),
  match_count: z.number().int().nonnegative(),
  files_searched: z.number().int().nonnegative(),
  files_matched: z.number().int().nonnegative(),
  languages: z.array(z.string()),
  total: z.number().int().nonnegative().optional(),
  matches: z.array(AstMatchSchema),
  limited: LimitedFilesSchema.optional(),
}).meta({ id: "AstSearchData" });

const count = z.number().int().nonnegative();
const line = z.number().int().positive();

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

/** zod schema of an `llm-ast-search` answer in compact form (contract §9). */
export const CompactAstSearchEnvelopeSchema: z.ZodType<CompactEnvelope<CompactAstSearchData>> =
  compactEnvelopeSchema(CompactAstSearchDataSchema);
