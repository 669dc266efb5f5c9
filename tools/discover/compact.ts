/**
 * The compact form of `llm-discover` (contract §9), which its definition declares (`tool.ts`):
 * one row per path found, best first. It loads no zod, like the run (`run.ts`), so the command
 * line can build it without the schemas.
 *
 * @module
 */
import { type CompactForm, compactQuery } from "../../schema/compact.ts";
import type { CompactDiscoverData, DISCOVER_COLUMNS, DiscoverData } from "../../schema/discover.ts";
import type { EmptyData, QueryEnvelope } from "../../schema/envelope.ts";

/** The contract's `DISCOVER_COLUMNS`, whose module loads zod; the type holds the two equal. */
const COLUMNS: typeof DISCOVER_COLUMNS = ["path", "kind", "size", "score", "reason"];

/**
 * The compact data of an `llm-discover` result: path, kind, size, score and reason per row,
 * without the raw score and match positions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactDiscoverData } from "./compact.ts";
 * const data = compactDiscoverData({ count: 0, query: "x", total: 0, scanned: 3, results: [] });
 * assert.deepEqual(data.columns, ["path", "kind", "size", "score", "reason"]);
 * assert.deepEqual(data.rows, []);
 * ```
 */
export function compactDiscoverData(data: DiscoverData): CompactDiscoverData {
  return {
    count: data.count,
    query: data.query,
    total: data.total,
    scanned: data.scanned,
    columns: COLUMNS,
    rows: data.results.map((
      result,
    ) => [result.path, result.kind, result.size, result.score, result.reason]),
  };
}

/** The compact form of `llm-discover`: rows of the paths found; a failed run (none) in full. */
export const discoverCompact: CompactForm<QueryEnvelope<DiscoverData | EmptyData>> = {
  compact: (envelope) =>
    "results" in envelope.data
      ? compactQuery(envelope, compactDiscoverData(envelope.data))
      : undefined,
};
