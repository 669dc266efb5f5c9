/**
 * The code-graph questions of `llm-symbols`, answered from the index: `reachable`, `dead-code`,
 * `cycles`, `paths`, `impact`, `export` and the repository `map`. Each loads the graph of the
 * index (`graph_load.ts`: resolved calls, or every resolved reference for the map and dead
 * code), runs one of the pure algorithms of `core/graph.ts` or `map.ts`, and turns node numbers
 * back into the contract's records.
 *
 * A symbol argument is a name, a qualified name or a `symbol_id`; one that denotes several
 * definitions is refused with `MAG-REF-003` and its candidates (nothing is picked for you), an
 * unknown one is `MAG-REF-001` with close names.
 *
 * @module
 */
import { join, resolve } from "../../core/path_syntax.ts";
import { displayPath, isInside, realPathOf } from "../../core/paths.ts";
import { listingCut } from "../../core/listing.ts";
import { decodeText } from "../../core/utf8.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type {
  CyclesData,
  DeadCodeData,
  ExportData,
  GraphEdgeRecord,
  GraphNodeRecord,
  ImpactData,
  PathsData,
  ReachableData,
  RepoMapData,
  SymbolRecord,
} from "../../schema/symbols.ts";
import {
  boundedPaths,
  buildGraph,
  deadCode,
  impact,
  pageRank,
  reachable,
  stronglyConnected,
  toDot,
} from "../../core/graph.ts";
import { type CodeGraph, type GraphSymbol, loadCodeGraph } from "./graph_load.ts";
import { renderRepoMap } from "./map.ts";
import {
  askedDefinitions,
  askOf,
  askText,
  cut,
  type QueryOptions,
  type QueryOutcome,
  RowFilter,
  type SymbolAsk,
  unknownSymbol,
  withIndex,
} from "./queries.ts";
import { symbolRecord, symbolRef } from "../../core/symbol_index/records.ts";
import type { IndexStore, SymbolRow } from "../../core/symbol_index/store.ts";
import { SYMBOLS_DEFAULTS } from "./defaults.ts";

/** Kinds `dead-code` reports when no kind is asked: what can be called. */
const CALLABLE = ["function", "method"];

/** Most candidates a `MAG-REF-003` refusal lists. */
const CANDIDATES_SHOWN = 10;

/** The definitions `text` denotes: by `symbol_id` when it is one, else by (qualified) name. */
function definitionsOf(store: IndexStore, text: string): SymbolRow[] {
  return askedDefinitions(store, { name: text });
}

/** The first definition of each distinct `symbol_id` of `rows`. */
function distinctIds(rows: SymbolRow[]): SymbolRow[] {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.symbol_id) && seen.add(row.symbol_id));
}

/**
 * The one symbol `symbol` denotes (a name, qualified name or `symbol_id`, or a
 * {@linkcode SymbolAsk} with a `symbol_id`): `MAG-REF-001` (close names) when none,
 * `MAG-REF-003` (the candidates with their ids) when several.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denotedSymbol } from "./graph_queries.ts";
 * import { IndexStore, locateDb } from "../../core/symbol_index/store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * await assert.rejects(denotedSymbol(store, "main"), { code: "MAG-REF-001" }); // an empty index
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function denotedSymbol(
  store: IndexStore,
  symbol: string | SymbolAsk,
): Promise<SymbolRow> {
  const ask = askOf(symbol);
  const rows = distinctIds(askedDefinitions(store, ask));
  if (rows.length === 0) throw await unknownSymbol(store, askText(ask));
  if (rows.length === 1) return rows[0];
  const shown = rows.slice(0, CANDIDATES_SHOWN).map((row) =>
    `${row.symbol_id} ${row.kind} ${row.qualified_name} ${row.path}:${row.start_line}`
  );
  const more = rows.length > CANDIDATES_SHOWN ? `; ${rows.length - CANDIDATES_SHOWN} more` : "";
  throw new ToolError(
    "MAG-REF-003",
    `'${askText(ask)}' names ${rows.length} definitions; give a qualified name or a symbol_id`,
    { note: `candidates: ${shown.join("; ")}${more}` },
  );
}

/** The nodes of `ids` (ids the graph does not hold are skipped). */
function symbolsOf(code: CodeGraph, ids: readonly string[]): GraphSymbol[] {
  return ids.map((id) => code.graph.indexOf(id)).filter((n) => n >= 0).map((n) => code.nodes[n]);
}

/** The full row of a node's definition (the graph keeps only what it walks with). */
function rowOf(store: IndexStore, symbol: GraphSymbol): SymbolRow {
  const rows = store.symbolsWithId(symbol.symbol_id);
  return rows.find((row) => row.file_id === symbol.file_id) ?? rows[0];
}

function withDepth(store: IndexStore, symbol: GraphSymbol, depth: number): SymbolRecord {
  return { ...symbolRecord(rowOf(store, symbol)), depth };
}

/** By file, then line: the order listed definitions are printed in. */
function byPosition(a: GraphSymbol, b: GraphSymbol): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.start_line - b.start_line;
}

/** A depth bound as the algorithms take it: 0 is no bound. */
function bound(depth: number | undefined): number {
  return depth ? depth : Infinity;
}

/**
 * What a symbol reaches through resolved calls (`forward`: its transitive callees), or what
 * reaches it (`reverse`: its transitive callers), nearest first, up to `depth` calls (0: all).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reachableSymbols } from "./graph_queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(reachableSymbols({ root }, "main", "forward", 0), { code: "MAG-IO-013" }); // no index
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function reachableSymbols(
  options: QueryOptions,
  name: string | SymbolAsk,
  direction: ReachableData["direction"],
  depth: number,
): Promise<QueryOutcome<ReachableData>> {
  return withIndex(options, async (store) => {
    const symbol = await denotedSymbol(store, name);
    const code = loadCodeGraph(store, "calls");
    const found = reachable(code.graph, symbol.symbol_id, { direction, maxDepth: bound(depth) });
    const filter = new RowFilter(options);
    const reached = found.nodes.map((node) => ({
      symbol: code.nodes[code.graph.indexOf(node.id)],
      depth: node.depth,
    })).filter(({ symbol }) => filter.definition(symbol));
    const results = cut(reached, options.limit ?? SYMBOLS_DEFAULTS.limit)
      .map(({ symbol, depth }) => withDepth(store, symbol, depth));
    return {
      data: {
        count: results.length,
        query: askText(askOf(name)),
        symbol: symbolRef(symbol),
        direction,
        total: reached.length,
        results,
      },
      diagnostics: [],
      partial: found.partial || listingCut(results.length, reached.length),
    };
  });
}

/** Languages whose definitions are exported by an `export` before them on their line. */
const EXPORT_KEYWORD = new Set(["javascript", "typescript", "tsx"]);

/**
 * The text before each top-level JavaScript or TypeScript definition on its line (where
 * `export` is: the definition's span and signature start after it), read once per file.
 */
class LinePrefixes {
  readonly #root: string;
  readonly #files = new Map<string, LineIndex>();

  constructor(root: string) {
    this.#root = root;
  }

  of(row: GraphSymbol): string {
    let file = this.#files.get(row.path);
    if (!file) {
      file = new LineIndex(this.#read(row.path));
      this.#files.set(row.path, file);
    }
    if (row.start_line > file.lineCount) return "";
    // The column counts bytes: the prefix is the line's bytes before it, decoded.
    const [start, end] = file.lineRange(row.start_line);
    return decodeText(file.bytes.subarray(start, Math.min(start + row.start_col, end)));
  }

  /** The file's bytes; none when it is gone since indexing or resolves outside the root. */
  #read(path: string): Uint8Array {
    const real = realPathOf(join(this.#root, path));
    if (!isInside(this.#root, real)) return new Uint8Array();
    try {
      return Deno.readFileSync(real);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return new Uint8Array();
      throw error;
    }
  }
}

/** Whether a definition is visible outside its file or module by its language's rule. */
function exported(row: GraphSymbol, signature: string, prefixes: LinePrefixes): boolean {
  if (EXPORT_KEYWORD.has(row.language)) return /\bexport\b/.test(prefixes.of(row));
  switch (row.language) {
    case "go":
      return /^[A-Z]/.test(row.name);
    case "python":
      return !row.name.startsWith("_") || /^__\w+__$/.test(row.name);
    case "c":
    case "cpp":
      return !/\bstatic\b/.test(signature);
    case "rust":
      return /^pub\b/.test(signature);
    case "java":
    case "kotlin":
    case "c_sharp":
    case "scala":
      return /\b(public|protected)\b/.test(signature);
    default:
      return /^export\b/.test(signature) || /^(public|pub)\b/.test(signature);
  }
}

/**
 * The default entries of `dead-code`: every `main`, every definition exported or public by its
 * language's rule (a member counts when its parent does and it is not private), and every
 * definition used at file scope (top-level code runs when its module loads). Signatures are
 * read alongside the graph's definitions, in the same row order, and not kept.
 */
function defaultEntries(store: IndexStore, code: CodeGraph, root: string): string[] {
  const prefixes = new LinePrefixes(root);
  const entry = new Uint8Array(code.nodes.length);
  const entryIn = new Map<string, boolean>();
  let index = 0;
  let fileId = -1;
  for (const { symbol_id, signature } of store.everySignature()) {
    const row = code.definitions[index++];
    if (row === undefined || row.symbol_id !== symbol_id) break;
    if (row.file_id !== fileId) {
      fileId = row.file_id;
      entryIn.clear();
    }
    const parent = row.parent === null ? undefined : entryIn.get(row.parent);
    const member = parent === true && !/^[_#]/.test(row.name) && !/\bprivate\b/.test(signature);
    const isEntry = row.name === "main" || code.topLevel[row.node] === 1 || member ||
      (parent === undefined && exported(row, signature.trimStart(), prefixes));
    if (isEntry) entry[row.node] = 1;
    if (!entryIn.has(row.qualified_name)) entryIn.set(row.qualified_name, isEntry);
  }
  return code.nodes.filter((row) => entry[row.node] === 1).map((row) => row.symbol_id);
}

/**
 * The functions and methods (or the asked `kinds`) that no entry reaches through resolved calls
 * or other references (a function passed as a callback is used). `entries` are names, qualified
 * names or `symbol_id`s, every definition of each counting; with none the default entries are
 * taken: `main`, exported or public definitions, and what top-level code uses. A definition
 * some ambiguous use may denote is left out and counted in `maybe_used`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deadCodeSymbols } from "./graph_queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(deadCodeSymbols({ root }, []), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function deadCodeSymbols(
  options: QueryOptions,
  entries: readonly string[],
): Promise<QueryOutcome<DeadCodeData>> {
  return withIndex(options, async (store) => {
    const entryIds: string[] = [];
    for (const entry of entries) {
      const rows = definitionsOf(store, entry);
      if (rows.length === 0) throw await unknownSymbol(store, entry);
      entryIds.push(...rows.map((row) => row.symbol_id));
    }
    const code = loadCodeGraph(store, "references");
    const starts = entries.length > 0
      ? entryIds
      : defaultEntries(store, code, Deno.realPathSync(options.root));
    const filter = new RowFilter({
      ...options,
      kinds: options.kinds?.length ? options.kinds : CALLABLE,
    });
    const candidates = code.nodes.filter((symbol) => filter.definition(symbol));
    const unreached = symbolsOf(
      code,
      deadCode(code.graph, starts, candidates.map((symbol) => symbol.symbol_id)),
    );
    const dead = unreached.filter((symbol) => !code.maybeUsed[symbol.node]).sort(byPosition);
    const results = cut(dead, options.limit ?? SYMBOLS_DEFAULTS.limit)
      .map((symbol) => symbolRecord(rowOf(store, symbol)));
    return {
      data: {
        count: results.length,
        entry_rule: entries.length > 0 ? "given" : "default",
        entries: new Set(starts).size,
        total: dead.length,
        maybe_used: unreached.length - dead.length,
        results,
      },
      diagnostics: [],
      partial: listingCut(results.length, dead.length),
    };
  });
}

/**
 * The cycles of the call graph: strongly connected components of two symbols or more, and
 * directly recursive symbols, largest first; with `paths`, those with a member there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cycleList } from "./graph_queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(cycleList({ root }), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function cycleList(options: QueryOptions): Promise<QueryOutcome<CyclesData>> {
  return withIndex(options, (store) => {
    const code = loadCodeGraph(store, "calls");
    const filter = new RowFilter({ ...options, kinds: [] });
    const cycles = stronglyConnected(code.graph).map((ids) => symbolsOf(code, ids))
      .filter((members) => members.some((symbol) => filter.inScope(symbol.path)));
    const results = cut(cycles, options.limit ?? SYMBOLS_DEFAULTS.limit).map((members) => ({
      size: members.length,
      symbols: members.sort(byPosition).map((symbol) => symbolRef(rowOf(store, symbol))),
    }));
    return {
      data: { count: results.length, total: cycles.length, results },
      diagnostics: [],
      partial: listingCut(results.length, cycles.length),
    };
  });
}

/**
 * The simple call paths from one symbol to another, shortest first, of at most `depth` calls
 * and at most `limit` paths (0: no bound on their number); partial when a bound may hide one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathList } from "./graph_queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(pathList({ root }, "main", "exit", 8), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function pathList(
  options: QueryOptions,
  from: string,
  to: string,
  depth: number,
): Promise<QueryOutcome<PathsData>> {
  return withIndex(options, async (store) => {
    const start = await denotedSymbol(store, from);
    const end = await denotedSymbol(store, to);
    const code = loadCodeGraph(store, "calls");
    const limit = options.limit ?? SYMBOLS_DEFAULTS.limit;
    const found = boundedPaths(code.graph, start.symbol_id, end.symbol_id, {
      maxDepth: depth,
      maxPaths: limit > 0 ? limit : Infinity,
    });
    const results = found.paths.map((ids) => ({
      length: ids.length - 1,
      symbols: symbolsOf(code, ids).map((symbol) => symbolRef(rowOf(store, symbol))),
    }));
    return {
      data: { count: results.length, from: symbolRef(start), to: symbolRef(end), results },
      diagnostics: [],
      partial: found.partial,
    };
  });
}

/**
 * The blast radius of changing a symbol: its transitive callers by depth (up to `depth`, 0:
 * all), the files they are in, and the score of `IMPACT_SCORE_FORMULA`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { impactOf } from "./graph_queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(impactOf({ root }, "main", 0), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function impactOf(
  options: QueryOptions,
  name: string | SymbolAsk,
  depth: number,
): Promise<QueryOutcome<ImpactData>> {
  return withIndex(options, async (store) => {
    const symbol = await denotedSymbol(store, name);
    const code = loadCodeGraph(store, "calls");
    const fileOf = (id: string) => code.nodes[code.graph.indexOf(id)]?.path;
    const blast = impact(code.graph, symbol.symbol_id, { maxDepth: bound(depth), fileOf });
    const callers = blast.levels.flatMap((level) =>
      symbolsOf(code, level.symbol_ids).sort(byPosition).map((symbol) => ({
        symbol,
        depth: level.depth,
      }))
    );
    const results = cut(callers, options.limit ?? SYMBOLS_DEFAULTS.limit)
      .map(({ symbol, depth }) => withDepth(store, symbol, depth));
    return {
      data: {
        count: results.length,
        query: askText(askOf(name)),
        symbol: symbolRef(symbol),
        total: blast.callers,
        levels: blast.levels.map((level) => ({
          depth: level.depth,
          callers: level.symbol_ids.length,
        })),
        files: blast.files,
        score: blast.score,
        results,
      },
      diagnostics: [],
      partial: blast.partial || listingCut(results.length, blast.callers),
    };
  });
}

/** The forms `export` writes. */
export type ExportFormat = ExportData["format"];

function nodeRecord(row: GraphSymbol): GraphNodeRecord {
  return {
    symbol_id: row.symbol_id,
    name: row.qualified_name,
    kind: row.kind,
    file_path: row.path,
    line: row.start_line,
  };
}

/** The call graph's edges with both ends in scope, in caller order. */
function edgesInScope(code: CodeGraph, filter: RowFilter): GraphEdgeRecord[] {
  const { start, target, weight } = code.graph.rows("forward");
  const edges: GraphEdgeRecord[] = [];
  for (let u = 0; u < code.graph.size; u++) {
    if (start[u] === start[u + 1] || !filter.inScope(code.nodes[u].path)) continue;
    for (let k = start[u]; k < start[u + 1]; k++) {
      const v = target[k];
      if (!filter.inScope(code.nodes[v].path)) continue;
      edges.push({ from: code.nodes[u].symbol_id, to: code.nodes[v].symbol_id, weight: weight[k] });
    }
  }
  return edges;
}

/** The text of a `jsonl` or `dot` export of `edges` and their `nodes`. */
function exportText(
  format: "jsonl" | "dot",
  nodes: GraphNodeRecord[],
  edges: GraphEdgeRecord[],
): string {
  if (format === "dot") {
    const labels = new Map(nodes.map((node) => [node.symbol_id, node.name]));
    return toDot(buildGraph(edges, labels.keys()), (id) => labels.get(id));
  }
  return [
    ...nodes.map((node) => JSON.stringify({ type: "node", ...node })),
    ...edges.map((edge) => JSON.stringify({ type: "edge", ...edge })),
  ].map((line) => line + "\n").join("");
}

/**
 * The call graph as JSON (nodes and edges), JSON lines or Graphviz DOT: the first `limit`
 * edges (0: all) whose two ends lie in `paths`, and their nodes. When every edge is listed the
 * nodes are every definition in `paths`, those no resolved call reaches or leaves included (a
 * graph of the code, not of its calls only); when the edges are cut (`partial`), the listed
 * edges' ends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportGraph } from "./graph_queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(exportGraph({ root }, "dot"), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function exportGraph(
  options: QueryOptions,
  format: ExportFormat,
): Promise<QueryOutcome<ExportData>> {
  return withIndex(options, (store) => {
    const code = loadCodeGraph(store, "calls");
    const filter = new RowFilter({ ...options, kinds: [] });
    const all = edgesInScope(code, filter);
    const edges = cut(all, options.limit ?? SYMBOLS_DEFAULTS.limit);
    const ends = new Set(edges.flatMap((edge) => [edge.from, edge.to]));
    const complete = edges.length === all.length;
    const nodes = code.nodes.filter((row) =>
      ends.has(row.symbol_id) || (complete && filter.inScope(row.path))
    ).map(nodeRecord);
    const data: ExportData = format === "json"
      ? { count: edges.length, format, total: all.length, nodes, results: edges }
      : { count: edges.length, format, total: all.length, text: exportText(format, nodes, edges) };
    return { data, diagnostics: [], partial: listingCut(edges.length, all.length) };
  });
}

/** The restart weights of the map's focus: every symbol of a focus file, or a focus symbol. */
async function focusWeights(
  store: IndexStore,
  options: QueryOptions,
  focus: readonly string[],
): Promise<Map<string, number>> {
  const weights = new Map<string, number>();
  const realRoot = Deno.realPathSync(options.root);
  for (const item of focus) {
    const file = store.file(displayPath(realRoot, resolve(options.cwd ?? options.root, item)));
    const rows = file ? store.symbolsOfFile(file.id) : definitionsOf(store, item);
    if (rows.length === 0 && !file) throw await unknownSymbol(store, item);
    for (const row of rows) weights.set(row.symbol_id, 1);
  }
  return weights;
}

/**
 * The `limit` best-ranked of `symbols` (every shown symbol of a map costs at least 3 characters,
 * so a budget of N tokens shows at most 4N/3): only these have their signatures read.
 */
function bestRanked(symbols: GraphSymbol[], ranks: Float64Array, limit: number): GraphSymbol[] {
  if (limit === 0) return [];
  const order = (a: GraphSymbol, b: GraphSymbol) =>
    ranks[b.node] - ranks[a.node] || byPosition(a, b);
  if (limit >= symbols.length) return symbols.sort(order);
  const sorted = Float64Array.from(symbols, (symbol) => ranks[symbol.node]).sort();
  const threshold = sorted[symbols.length - limit];
  return symbols.filter((symbol) => ranks[symbol.node] >= threshold).sort(order).slice(0, limit);
}

/**
 * The repository map: PageRank over the reference graph (restarting at the `focus` files and
 * symbols when given), its best-ranked definitions rendered as file headers and signature
 * lines within `tokens` (characters / 4).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repoMap } from "./graph_queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(repoMap({ root }, [], 2000), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function repoMap(
  options: QueryOptions,
  focus: readonly string[],
  tokens: number,
): Promise<QueryOutcome<RepoMapData>> {
  return withIndex(options, async (store) => {
    const personalization = await focusWeights(store, options, focus);
    const code = loadCodeGraph(store, "references");
    const ranked = pageRank(code.graph, { personalization });
    const filter = new RowFilter(options);
    const ranks = ranked.ranks;
    const candidates = code.nodes.filter((symbol) => filter.definition(symbol));
    const entries = bestRanked(candidates, ranks, Math.floor(tokens * 4 / 3)).map((symbol) => ({
      symbol_id: symbol.symbol_id,
      path: symbol.path,
      name: symbol.name,
      kind: symbol.kind,
      line: symbol.start_line,
      signature: rowOf(store, symbol).signature,
      rank: ranks[symbol.node],
    }));
    const map = renderRepoMap(entries, { tokens });
    return {
      data: {
        count: map.files.length,
        budget: tokens,
        tokens: map.tokens,
        shown: map.shown,
        total: candidates.length,
        personalized: ranked.personalized,
        text: map.text,
        files: map.files,
      },
      diagnostics: [],
      partial: map.shown < candidates.length,
    };
  });
}
