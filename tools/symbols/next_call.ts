/**
 * The call that gets what a partial graph or map answer lacks when paging its list does not
 * (contract §9): a walk cut at its depth goes deeper, a path search cut at its paths lists the
 * next ones, an export cut at its edges takes more, a map cut at its tokens takes more tokens.
 * The MCP server names it as the answer's `next_page`.
 *
 * @module
 */
import type { NextCall } from "../../core/tool.ts";
import type { Envelope } from "../../schema/envelope.ts";
import { SYMBOLS_DEFAULTS } from "./defaults.ts";

/** The data of a partial query envelope, or undefined for any other. */
function partialData(envelope: Envelope): Record<string, unknown> | undefined {
  if (!("data" in envelope) || envelope.partial !== true) return undefined;
  return envelope.data as unknown as Record<string, unknown>;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

/**
 * `reachable` and `impact`: a list that is whole yet partial was cut at `depth`; the next call
 * walks twice as deep (a cut list is paged from the stored result instead).
 */
export const DEEPER_WALK: NextCall = {
  next(envelope, args) {
    const data = partialData(envelope);
    const depth = numberOr(args.depth, 0);
    if (!data || depth === 0 || numberOr(data.total, 0) > numberOr(data.count, 0)) return;
    return { ...args, depth: depth * 2 };
  },
};

/**
 * `paths`: a search that listed as many paths as its `limit` has more from there (`offset`);
 * one that listed fewer was cut at `depth` (or its step bound) and goes deeper, up to the
 * deepest depth accepted.
 */
export const MORE_PATHS: NextCall = {
  next(envelope, args) {
    const data = partialData(envelope);
    if (!data) return;
    const listed = Array.isArray(data.results) ? data.results.length : 0;
    const limit = numberOr(args.limit, SYMBOLS_DEFAULTS.paths);
    if (limit > 0 && listed >= limit) return { ...args, offset: listed };
    const depth = numberOr(args.depth, SYMBOLS_DEFAULTS.pathDepth);
    if (depth >= SYMBOLS_DEFAULTS.maxDepth) return;
    return { ...args, depth: Math.min(depth * 2, SYMBOLS_DEFAULTS.maxDepth) };
  },
};

/** `export` cut at its `limit` of edges: the next call lists every edge (`limit: 0`). */
export const ALL_EDGES: NextCall = {
  next(envelope, args) {
    return partialData(envelope) ? { ...args, limit: 0 } : undefined;
  },
};

/**
 * `repo_map` cut at its `tokens`: the next call takes twice as many, at most what one answer
 * holds; none when it had that many.
 */
export const WIDER_MAP: NextCall = {
  next(envelope, args, limits) {
    const data = partialData(envelope);
    const tokens = numberOr(args.tokens, SYMBOLS_DEFAULTS.mapTokens);
    if (!data || tokens >= limits.tokens) return;
    return { ...args, tokens: Math.min(tokens * 2, limits.tokens) };
  },
};
