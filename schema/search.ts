/**
 * Output shapes of `llm-search`, in full and in compact form (contract §9).
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

/** One match of a text search. */
export interface SearchMatch extends SpanExtensions {
  /** UUID v4 of this match. */
  match_id: string;
  /** Where the match is, to the byte. */
  span: Span;
  /** The matched text (lossy where the bytes are not UTF-8). */
  matched_text: string;
  /** The line holding the match start, without its `\n`, cut at `--max-columns`. */
  line_text: string;
  /** Present and true when `line_text` is a window of a longer line. */
  line_truncated?: true;
  /** Byte column in the line where a cut `line_text` starts. */
  line_text_start_col?: number;
}

/** zod schema of {@linkcode SearchMatch}. */
export const SearchMatchSchema: z.ZodType<SearchMatch> = z.object({
  match_id: z.uuid(),
  span: SpanSchema,
  matched_text: z.string(),
  line_text: z.string(),
  line_truncated: z.literal(true).optional(),
  line_text_start_col: z.number().int().nonnegative().optional(),
  ...spanExtensionShape,
}).meta({ id: "SearchMatch" });

/** Per-file counts of `--count`. */
export interface FileCount {
  /** The file. */
  file_path: string;
  /** Matching lines (ripgrep's `-c`). */
  lines: number;
  /** Matches. */
  matches: number;
}

/** zod schema of {@linkcode FileCount}. */
export const FileCountSchema: z.ZodType<FileCount> = z.object({
  file_path: z.string(),
  lines: z.number().int().nonnegative(),
  matches: z.number().int().nonnegative(),
});

/** How a search used the repository index (`<root>/.llm/trigram.idx`); present when one exists. */
export interface SearchIndexUse {
  /** The index served the walk or ruled files out. */
  used: boolean;
  /** Its recorded walk replaced the directory walk (every directory stamp held). */
  walk: boolean;
  /** Its trigram postings ruled files out (the patterns have a literal of 3 bytes or more). */
  postings: boolean;
  /** Files read and matched: candidates, files changed since indexing, new files. */
  files_verified: number;
  /** Unchanged files the postings ruled out without reading them. */
  files_ruled_out: number;
  /** Indexed files whose size or mtime changed since indexing (searched directly). */
  files_changed: number;
  /**
   * How unchanged files were told from changed ones: a stat of each file (`stamps`), or the
   * file watcher of a long-lived host (`watcher`: the MCP server stats only what it reported).
   */
  freshness: "stamps" | "watcher";
}

/** zod schema of {@linkcode SearchIndexUse}. */
export const SearchIndexUseSchema: z.ZodType<SearchIndexUse> = z.object({
  used: z.boolean(),
  walk: z.boolean(),
  postings: z.boolean(),
  files_verified: z.number().int().nonnegative(),
  files_ruled_out: z.number().int().nonnegative(),
  files_changed: z.number().int().nonnegative(),
  freshness: z.enum(["stamps", "watcher"]),
});

/** `data` of an `llm-search` envelope. */
export interface SearchData {
  /** Results listed here: matches, or files with `-l`, or per-file counts with `--count`. */
  count: number;
  /** The patterns as given. */
  patterns: string[];
  /** What `count` counts. */
  mode: "matches" | "files" | "counts";
  /** Every match found (also those cut by `--limit`). */
  match_count: number;
  /** Files read and searched (binary files are skipped, not searched). */
  files_searched: number;
  /** Files with at least one match. */
  files_matched: number;
  /** Results before `--limit` cut them; present only when cut. */
  total?: number;
  /** Matches in (file_path, byte_start) order (mode `matches`). */
  matches: SearchMatch[];
  /** Files with matches (mode `files`). */
  files?: string[];
  /** Per-file counts (mode `counts`). */
  counts?: FileCount[];
  /** How the repository index was used; present when the root has one and it was not refused. */
  index?: SearchIndexUse;
  /**
   * The first file the answer lacks when the time budget cut the search after at least one file:
   * the same search with `resume_at` set to it answers the rest, repeating nothing.
   */
  resume_at?: string;
}

/** zod schema of {@linkcode SearchData}. */
export const SearchDataSchema: z.ZodType<SearchData> = z.object({
  count: z.number().int().nonnegative(),
  patterns: z.array(z.string()),
  mode: z.enum(["matches", "files", "counts"]),
  match_count: z.number().int().nonnegative(),
  files_searched: z.number().int().nonnegative(),
  files_matched: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().optional(),
  matches: z.array(SearchMatchSchema),
  files: z.array(z.string()).optional(),
  counts: z.array(FileCountSchema).optional(),
  index: SearchIndexUseSchema.optional(),
  resume_at: z.string().optional(),
}).meta({ id: "SearchData" });

const count = z.number().int().nonnegative();
const line = z.number().int().positive();

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

/** zod schema of an `llm-search` answer in compact form (contract §9). */
export const CompactSearchEnvelopeSchema: z.ZodType<CompactEnvelope<CompactSearchData>> =
  compactEnvelopeSchema(CompactSearchDataSchema);
