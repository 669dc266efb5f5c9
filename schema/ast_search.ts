/**
 * Output shapes of `llm-ast-search`: tree-sitter query matches and symbol definitions.
 *
 * @module
 */
import { z } from "zod";
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
}

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
}).meta({ id: "AstSearchData" });
