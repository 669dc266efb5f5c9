/**
 * The compact form of `llm-search` (contract §9), which its definition declares (`tool.ts`):
 * matches as rows grouped by file, without ids, matched text or context. It loads no zod, like
 * the run (`run.ts`), so the command line can build it without the schemas.
 *
 * @module
 */
import { type CompactForm, compactQuery, cut, groupByFile } from "../../schema/compact.ts";
import type { EmptyData, QueryEnvelope } from "../../schema/envelope.ts";
import type {
  CompactSearchData,
  SEARCH_COLUMNS,
  SearchData,
  SearchMatch,
  SearchRow,
} from "../../schema/search.ts";

/** The contract's `SEARCH_COLUMNS`, whose module loads zod; the type holds the two equal. */
const COLUMNS: typeof SEARCH_COLUMNS = [
  "start_line",
  "start_col",
  "byte_start",
  "byte_end",
  "line_text",
];

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
 * import assert from "node:assert/strict";
 * import { compactSearchData } from "./compact.ts";
 * const data = compactSearchData({
 *   count: 0, patterns: ["x"], mode: "matches", match_count: 0, files_searched: 1,
 *   files_matched: 0, matches: [],
 * });
 * assert.deepEqual(data.by_file, []);
 * ```
 */
export function compactSearchData(data: SearchData): CompactSearchData {
  const { matches, ...summary } = data; // every field but the matches is already compact
  const by_file = groupByFile(matches, (match) => match.span.file_path, searchRow);
  return { ...summary, columns: COLUMNS, by_file };
}

/** The compact form of `llm-search`: rows of its matches; a failed run (no matches) in full. */
export const searchCompact: CompactForm<QueryEnvelope<SearchData | EmptyData>> = {
  compact: (envelope) =>
    "matches" in envelope.data
      ? compactQuery(envelope, compactSearchData(envelope.data))
      : undefined,
};
