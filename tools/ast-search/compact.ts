/**
 * The compact form of `llm-ast-search` (contract §9), which its definition declares
 * (`tool.ts`): name, kind, span and first line of each match, grouped by file. It loads no zod.
 *
 * @module
 */
import type {
  AST_COLUMNS,
  AST_ONE_KIND_COLUMNS,
  AstMatch,
  AstOneKindRow,
  AstRow,
  AstSearchData,
  CompactAstSearchData,
} from "../../schema/ast_search.ts";
import { type CompactForm, compactQuery, firstLine, groupByFile } from "../../schema/compact.ts";
import type { EmptyData, QueryEnvelope } from "../../schema/envelope.ts";

/** The columns after a row's name and kind. */
const SPAN_COLUMNS = ["start_line", "end_line", "byte_start", "byte_end", "first_line"] as const;

/** The contract's `AST_COLUMNS`, whose module loads zod; the type holds the two equal. */
const COLUMNS: typeof AST_COLUMNS = ["name", "kind", ...SPAN_COLUMNS];

/** The contract's `AST_ONE_KIND_COLUMNS`; the type holds the two equal. */
const ONE_KIND_COLUMNS: typeof AST_ONE_KIND_COLUMNS = ["name", ...SPAN_COLUMNS];

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
 * import assert from "node:assert/strict";
 * import { compactAstSearchData } from "./compact.ts";
 * const data = compactAstSearchData({
 *   count: 0, mode: "kind", match_count: 0, files_searched: 1, files_matched: 0,
 *   languages: ["c"], matches: [],
 * });
 * assert.equal(data.columns[0], "name");
 * assert.deepEqual(data.by_file, []);
 * ```
 */
export function compactAstSearchData(data: AstSearchData): CompactAstSearchData {
  const { matches, ...summary } = data; // every field but the matches is already compact
  const kinds = new Set(matches.map(astKind));
  if (kinds.size !== 1) {
    const by_file = groupByFile(matches, (match) => match.span.file_path, astRow);
    return { ...summary, columns: COLUMNS, by_file };
  }
  const oneKindRow = (match: AstMatch): AstOneKindRow => {
    const [name, _kind, ...rest] = astRow(match);
    return [name, ...rest];
  };
  const by_file = groupByFile(matches, (match) => match.span.file_path, oneKindRow);
  return { ...summary, kind: [...kinds][0], columns: ONE_KIND_COLUMNS, by_file };
}

/** The compact form of `llm-ast-search`: rows of its matches; a failed run (no matches) in full. */
export const astSearchCompact: CompactForm<QueryEnvelope<AstSearchData | EmptyData>> = {
  compact: (envelope) =>
    "matches" in envelope.data
      ? compactQuery(envelope, compactAstSearchData(envelope.data))
      : undefined,
};
