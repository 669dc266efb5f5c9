/**
 * Output shapes of `llm-discover`, in full and in compact form (contract §9).
 *
 * @module
 */
import { z } from "zod";
import type { CompactEnvelope } from "./compact.ts";
import { columnsSchema, compactEnvelopeSchema, rowSchema } from "./compact_schema.ts";

/** Why a path matched the query, strongest first. */
export type DiscoverReason =
  | "exact path"
  | "exact basename"
  | "basename prefix"
  | "filename match"
  | "path match"
  | "listed";

/** The reasons, strongest first. */
export const DISCOVER_REASONS: readonly DiscoverReason[] = [
  "exact path",
  "exact basename",
  "basename prefix",
  "filename match",
  "path match",
  "listed",
];

/** One found file or directory. */
export interface DiscoverResult {
  /** Root-relative path with `/` separators (absolute when outside the root). */
  path: string;
  /** What the path is. */
  kind: "file" | "dir";
  /** Size in bytes of a file; `null` for a directory or when it could not be read. */
  size: number | null;
  /** `raw_score` over the best score the query can reach, in [0, 1] (0 when only listing). */
  score: number;
  /** fzf's V2 score (path scheme) with the basename and exact-name bonuses: the ranking key. */
  raw_score: number;
  /**
   * Why it matched: `exact path` (a term is the whole path below the walked root, directories
   * included), `exact basename` (a term is the basename, or the basename without its extension),
   * `basename prefix` (the basename starts with the matched text), `filename match` (every
   * matched character is in the basename), `path match` (the match spans directories), `listed`
   * (an empty query or only negated terms).
   */
  reason: DiscoverReason;
  /** UTF-8 byte offset, in `path`, of the first byte of each matched character, ascending. */
  positions: number[];
}

const count = z.number().int().nonnegative();

/** zod schema of {@linkcode DiscoverResult}. */
export const DiscoverResultSchema: z.ZodType<DiscoverResult> = z.object({
  path: z.string().min(1),
  kind: z.enum(["file", "dir"]),
  size: count.nullable(),
  score: z.number().min(0).max(1),
  raw_score: z.number().int().nonnegative(),
  reason: z.enum(DISCOVER_REASONS as [DiscoverReason, ...DiscoverReason[]]),
  positions: z.array(count),
}).meta({ id: "DiscoverResult" });

/** `data` of an `llm-discover` envelope. */
export interface DiscoverData {
  /** Results listed in this document. */
  count: number;
  /** The query as given. */
  query: string;
  /** Paths that matched, listed or not (more than `count` when the limit cut the list). */
  total: number;
  /** Entries of the requested kind that the walk produced and the query was tried on. */
  scanned: number;
  /** The best matches: score descending, then path ascending. */
  results: DiscoverResult[];
}

/** zod schema of {@linkcode DiscoverData}. */
export const DiscoverDataSchema: z.ZodType<DiscoverData> = z.object({
  count,
  query: z.string(),
  total: count,
  scanned: count,
  results: z.array(DiscoverResultSchema),
});

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

/** zod schema of an `llm-discover` answer in compact form (contract §9). */
export const CompactDiscoverEnvelopeSchema: z.ZodType<CompactEnvelope<CompactDiscoverData>> =
  compactEnvelopeSchema(CompactDiscoverDataSchema);
