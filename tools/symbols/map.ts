/**
 * The repository map of `llm-symbols`: ranked symbols rendered as file headers followed by the
 * signature lines of their top symbols, fitted to a token budget, the way Aider's repo map
 * shows a repository to a model. Pure: the ranks come in (PageRank over the reference graph,
 * `core/graph.ts`), text and a structured form go out.
 *
 * The text looks like this (line numbers right-aligned within a file, `│` before the
 * signature):
 *
 * ```text
 * src/store.ts:
 *   12│export function openStore(path: string): Store
 *  140│export class Store {
 * src/ids.ts:
 *    3│export function symbolId(key: SymbolKey): string
 * ```
 *
 * @module
 */
import type { MapFile, MapSymbol } from "../../schema/symbols.ts";

export type { MapFile, MapSymbol } from "../../schema/symbols.ts";

/** One ranked symbol offered to the map: a shown symbol's fields and its file. */
export interface MapEntry extends MapSymbol {
  /** Path of its file, as reported in spans. */
  path: string;
}

/** A rendered repository map. */
export interface RepoMap {
  /** The map as text, `""` when nothing fits. */
  text: string;
  /** Its size in tokens, by {@linkcode estimateTokens}: never above the budget. */
  tokens: number;
  /** The same content, structured: files in map order. */
  files: MapFile[];
  /** How many symbols are shown. */
  shown: number;
  /** How many were offered. */
  total: number;
  /** True when the budget left some symbols out. */
  partial: boolean;
}

/** Options of {@linkcode renderRepoMap}. */
export interface RepoMapOptions {
  /** The budget in tokens (see {@linkcode estimateTokens}). Default 2,000. */
  tokens?: number;
}

/**
 * The token estimate of the map: characters (UTF-16 code units) / 4, rounded up.
 *
 * @example Eight characters
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateTokens } from "./map.ts";
 * assert.equal(estimateTokens("a.ts:\n1│"), 2);
 * ```
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Highest rank first; ties by path, line, then id, so the order is total. */
function byRank(a: MapEntry, b: MapEntry): number {
  return b.rank - a.rank || compare(a.path, b.path) || a.line - b.line ||
    compare(a.symbol_id, b.symbol_id);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The first `limit` entries in rank order. The rank of the limit-th best is found by a native
 * sort of the ranks alone, so that only the entries at or above it go through the comparator:
 * the map shows a few thousand symbols of a million.
 */
function bestRanked(entries: readonly MapEntry[], limit: number): MapEntry[] {
  const ranks = Float64Array.from(entries, (entry) => entry.rank);
  if (!ranks.every(Number.isFinite)) throw new RangeError("renderRepoMap: a rank is not finite");
  if (limit >= entries.length) return [...entries].sort(byRank);
  if (limit === 0) return [];
  const threshold = ranks.sort()[entries.length - limit];
  return entries.filter((entry) => entry.rank >= threshold).sort(byRank).slice(0, limit);
}

/** The first line of a signature without trailing blanks. */
function signatureLine(signature: string): string {
  return signature.split(/\r\n|\r|\n/, 1)[0].trimEnd();
}

/** Groups ranked entries by file: files by their best entry, symbols by line. */
function group(ranked: readonly MapEntry[]): MapFile[] {
  const files = new Map<string, MapFile>();
  for (const { path, symbol_id, name, kind, line, signature, rank } of ranked) {
    let file = files.get(path);
    if (!file) {
      file = { path, rank, symbols: [] };
      files.set(path, file);
    }
    file.symbols.push({ symbol_id, name, kind, line, signature: signatureLine(signature), rank });
  }
  for (const file of files.values()) {
    file.symbols.sort((a, b) => a.line - b.line || compare(a.symbol_id, b.symbol_id));
  }
  return [...files.values()];
}

function render(files: readonly MapFile[]): string {
  const lines: string[] = [];
  for (const file of files) {
    lines.push(`${file.path}:`);
    const width = String(file.symbols.reduce((most, s) => Math.max(most, s.line), 0)).length;
    for (const symbol of file.symbols) {
      lines.push(`${String(symbol.line).padStart(width)}│${symbol.signature}`);
    }
  }
  return lines.length === 0 ? "" : lines.join("\n") + "\n";
}

/**
 * Renders the best-ranked symbols of `entries` as a map within `tokens`. The symbols shown are
 * always a prefix of the rank order (the most important ones; none is skipped to squeeze a
 * smaller one in), the longest prefix whose text fits, found by binary search: the text only
 * grows as the prefix grows, so the map never exceeds the budget and a larger budget shows a
 * superset. Files are listed by their best shown symbol, symbols by line, so adding symbols
 * never reorders what was shown. Throws a `RangeError` when `tokens` is negative or not an
 * integer, or a rank is not a finite number.
 *
 * @example A map of two files
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderRepoMap } from "./map.ts";
 * const map = renderRepoMap([
 *   { symbol_id: "1", path: "a.ts", name: "f", kind: "function", line: 3, signature: "function f()", rank: 0.5 },
 *   { symbol_id: "2", path: "b.ts", name: "g", kind: "function", line: 9, signature: "function g()", rank: 0.3 },
 * ], { tokens: 100 });
 * assert.equal(map.text, "a.ts:\n3│function f()\nb.ts:\n9│function g()\n");
 * ```
 */
export function renderRepoMap(entries: readonly MapEntry[], options: RepoMapOptions = {}): RepoMap {
  const budget = options.tokens ?? 2000;
  if (!Number.isSafeInteger(budget) || budget < 0) {
    throw new RangeError(`renderRepoMap: tokens must be a non-negative integer, not ${budget}`);
  }
  // Every shown symbol costs at least 3 characters ("1│" and a line break).
  const ranked = bestRanked(entries, Math.floor(budget * 4 / 3));
  const mapOf = (count: number) => {
    const files = group(ranked.slice(0, count));
    return { files, text: render(files) };
  };
  let fits = 0;
  let over = ranked.length + 1;
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (estimateTokens(mapOf(middle).text) <= budget) fits = middle;
    else over = middle;
  }
  const { files, text } = mapOf(fits);
  return {
    text,
    tokens: estimateTokens(text),
    files,
    shown: fits,
    total: entries.length,
    partial: fits < entries.length,
  };
}
