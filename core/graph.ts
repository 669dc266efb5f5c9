/**
 * The code graph of `llm-symbols` and its algorithms: reachability, strongly connected
 * components, bounded simple paths, dead code, the blast radius of a change and PageRank.
 *
 * Nodes are symbols named by their stable `symbol_id`; an edge `from → to` says `from` uses
 * `to` (calls it or refers to it). The graph is held as two compressed sparse rows (forward and
 * reverse adjacency) over integer node numbers, so that a walk over the Linux tree's million
 * symbols and millions of edges touches typed arrays only. Everything here is pure: no file
 * system, no database; the store hands the edges in and the tool prints what comes out.
 *
 * An id the graph does not hold is a symbol with no edges: it reaches nothing and nothing
 * reaches it, which is not an error (the tool checks that a symbol exists before asking).
 *
 * @module
 */

/** One edge as the store hands it: `from` uses (calls or refers to) `to`. */
export interface GraphEdge {
  /** The using symbol's id (the caller). */
  from: string;
  /** The used symbol's id (the callee). */
  to: string;
  /** How many uses the edge stands for (positive); 1 when absent. Parallel edges add up. */
  weight?: number;
}

/** Which way a walk follows the edges. */
export type Direction = "forward" | "reverse";

/** One direction's adjacency as compressed sparse rows. */
interface Rows {
  /** Row `u` is `target[start[u]] … target[start[u + 1] - 1]`. */
  start: Int32Array;
  /** Neighbour node numbers. */
  target: Int32Array;
  /** The edge's weight, aligned with `target`. */
  weight: Float64Array;
}

/** How many lookups of a graph built without an index scan its ids before it builds one. */
const LINEAR_LOOKUPS = 8;

/**
 * A directed graph over string ids, numbered `0 … size - 1` internally. Parallel edges are
 * merged into one whose weight is their sum; self-loops are kept (a recursive function).
 *
 * @example Build a graph and look a node up
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph } from "./graph.ts";
 * const graph = buildGraph([{ from: "a", to: "b" }, { from: "a", to: "b" }]);
 * assert.deepEqual([graph.size, graph.edgeCount, graph.indexOf("b")], [2, 1, 1]);
 * ```
 */
export class SymbolGraph {
  /** Node number → id. */
  readonly ids: readonly string[];
  #index: ReadonlyMap<string, number> | undefined;
  #scans = 0;
  readonly #forward: Rows;
  readonly #reverse: Rows;

  /**
   * Use {@linkcode buildGraph} or {@linkcode graphFromIndexed}. `index` maps each id to its
   * first position in `ids`; when absent it is built on demand (see `indexOf`).
   */
  constructor(ids: readonly string[], forward: Rows, index?: ReadonlyMap<string, number>) {
    this.ids = ids;
    this.#index = index;
    this.#forward = forward;
    this.#reverse = transpose(forward, ids.length);
  }

  /** Number of nodes. */
  get size(): number {
    return this.ids.length;
  }

  /** Number of distinct edges (parallel edges merged). */
  get edgeCount(): number {
    return this.#forward.target.length;
  }

  /**
   * The node number of `id` (its first position in `ids`), or -1 when the graph does not hold
   * it. The first few lookups scan `ids`: a query names one or two symbols, and hashing a
   * million ids into a map costs more than scanning them a few times; past that, the map is
   * built once.
   */
  indexOf(id: string): number {
    if (this.#index === undefined && ++this.#scans > LINEAR_LOOKUPS) {
      const index = new Map<string, number>();
      for (let n = this.ids.length - 1; n >= 0; n--) index.set(this.ids[n], n);
      this.#index = index;
    }
    return this.#index === undefined ? this.ids.indexOf(id) : this.#index.get(id) ?? -1;
  }

  /** The adjacency rows of one direction (read-only by convention: the algorithms share it). */
  rows(direction: Direction): Readonly<Rows> {
    return direction === "forward" ? this.#forward : this.#reverse;
  }
}

/**
 * Builds the graph of `edges`; `nodes` adds symbols that may have no edge (so that PageRank
 * and the map see them). Node numbers follow first appearance, nodes first.
 *
 * @example Graph of two calls
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph } from "./graph.ts";
 * const graph = buildGraph([{ from: "main", to: "parse" }, { from: "parse", to: "lex" }], ["unused"]);
 * assert.equal(graph.size, 4);
 * ```
 */
export function buildGraph(edges: Iterable<GraphEdge>, nodes: Iterable<string> = []): SymbolGraph {
  const index = new Map<string, number>();
  const ids: string[] = [];
  const number = (id: string): number => {
    let n = index.get(id);
    if (n === undefined) {
      n = ids.length;
      index.set(id, n);
      ids.push(id);
    }
    return n;
  };
  for (const id of nodes) number(id);
  const sources: number[] = [];
  const targets: number[] = [];
  const weights: number[] = [];
  for (const edge of edges) {
    sources.push(number(edge.from));
    targets.push(number(edge.to));
    weights.push(edge.weight ?? 1);
  }
  return fromNumbered(
    ids,
    Int32Array.from(sources),
    Int32Array.from(targets),
    Float64Array.from(weights),
    index,
  );
}

/**
 * Builds the graph from edges already numbered: edge `e` goes from `ids[sources[e]]` to
 * `ids[targets[e]]` with weight `weights?.[e] ?? 1`. The fast path for a store that keeps
 * integer keys: no map of the ids is built unless many are looked up. The ids should be
 * distinct (a repeated one is found at its first position). Throws a `RangeError` on a number
 * outside `ids` or a weight that is not a positive finite number.
 *
 * @example Numbered edges
 * ```ts
 * import assert from "node:assert/strict";
 * import { graphFromIndexed } from "./graph.ts";
 * const graph = graphFromIndexed(["a", "b", "c"], Int32Array.of(0, 1), Int32Array.of(1, 2));
 * assert.equal(graph.edgeCount, 2);
 * ```
 */
export function graphFromIndexed(
  ids: readonly string[],
  sources: Int32Array,
  targets: Int32Array,
  weights?: Float64Array,
): SymbolGraph {
  const ones = new Float64Array(sources.length).fill(1);
  return fromNumbered(ids, sources, targets, weights ?? ones);
}

function fromNumbered(
  ids: readonly string[],
  sources: Int32Array,
  targets: Int32Array,
  weights: Float64Array,
  index?: ReadonlyMap<string, number>,
): SymbolGraph {
  const n = ids.length;
  if (targets.length !== sources.length || weights.length !== sources.length) {
    throw new RangeError("graph: sources, targets and weights differ in length");
  }
  for (let e = 0; e < sources.length; e++) {
    const u = sources[e];
    const v = targets[e];
    const w = weights[e];
    if (!(u >= 0 && u < n && v >= 0 && v < n)) {
      throw new RangeError(`graph: edge ${e} names a node outside 0…${n - 1}`);
    }
    if (!(w > 0 && Number.isFinite(w))) throw new RangeError(`graph: edge ${e} has weight ${w}`);
  }
  return new SymbolGraph(ids, mergeParallel(toRows(n, sources, targets, weights), n), index);
}

/** Counting sort of the edges by source into rows. */
function toRows(n: number, sources: Int32Array, targets: Int32Array, weights: Float64Array): Rows {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < sources.length; e++) start[sources[e] + 1]++;
  for (let u = 0; u < n; u++) start[u + 1] += start[u];
  const next = start.slice(0, n);
  const target = new Int32Array(sources.length);
  const weight = new Float64Array(sources.length);
  for (let e = 0; e < sources.length; e++) {
    const slot = next[sources[e]]++;
    target[slot] = targets[e];
    weight[slot] = weights[e];
  }
  return { start, target, weight };
}

/** Merges parallel edges in place (first occurrence kept, weights summed): O(edges). */
function mergeParallel(rows: Rows, n: number): Rows {
  const { start, target, weight } = rows;
  const seenIn = new Int32Array(n).fill(-1);
  const slotOf = new Int32Array(n);
  const merged = new Int32Array(n + 1);
  let write = 0;
  for (let u = 0; u < n; u++) {
    merged[u] = write;
    for (let k = start[u]; k < start[u + 1]; k++) {
      const v = target[k];
      if (seenIn[v] === u) {
        weight[slotOf[v]] += weight[k];
        continue;
      }
      seenIn[v] = u;
      slotOf[v] = write;
      target[write] = v;
      weight[write] = weight[k];
      write++;
    }
  }
  merged[n] = write;
  return { start: merged, target: target.slice(0, write), weight: weight.slice(0, write) };
}

/** The reverse adjacency of `rows`: the edges sorted again, by target. */
function transpose(rows: Rows, n: number): Rows {
  const sources = new Int32Array(rows.target.length);
  for (let u = 0; u < n; u++) sources.fill(u, rows.start[u], rows.start[u + 1]);
  return toRows(n, rows.target, sources, rows.weight);
}

// --- Reachability -------------------------------------------------------------------------------

/** The outcome of a breadth-first walk over node numbers. */
interface Walk {
  /** Depth of every node, -1 where the walk did not reach. */
  depth: Int32Array;
  /** Reached nodes in visiting order (depth ascending), sources first. */
  order: Int32Array;
  /** Whether `maxDepth` stopped the walk before some edge was followed. */
  cut: boolean;
}

function numbers(graph: SymbolGraph, ids: readonly string[]): number[] {
  return ids.map((id) => graph.indexOf(id)).filter((n) => n >= 0);
}

/** Breadth-first walk from `sources` (depth 0) up to `maxDepth` edges away. */
function walk(graph: SymbolGraph, sources: number[], direction: Direction, maxDepth: number): Walk {
  const { start, target } = graph.rows(direction);
  const depth = new Int32Array(graph.size).fill(-1);
  const queue = new Int32Array(graph.size);
  let tail = 0;
  for (const s of sources) {
    if (depth[s] === -1) {
      depth[s] = 0;
      queue[tail++] = s;
    }
  }
  let cut = false;
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    const d = depth[u];
    for (let k = start[u]; k < start[u + 1]; k++) {
      const v = target[k];
      if (depth[v] !== -1) continue;
      if (d >= maxDepth) {
        cut = true;
        break;
      }
      depth[v] = d + 1;
      queue[tail++] = v;
    }
  }
  return { depth, order: queue.subarray(0, tail), cut };
}

/** A node reached by a walk. */
export interface ReachedNode {
  /** Its id. */
  id: string;
  /** Fewest edges from the nearest start (1 for a direct callee or caller). */
  depth: number;
}

/** What {@linkcode reachable} found. */
export interface Reachability {
  /** Reached nodes, nearest first (breadth-first order); the starts themselves are left out. */
  nodes: ReachedNode[];
  /** True when `maxDepth` stopped the walk while an edge still led to an unseen node. */
  partial: boolean;
}

/** Options of {@linkcode reachable}. */
export interface ReachableOptions {
  /** `forward` follows uses (callees), `reverse` goes to the users (callers). */
  direction: Direction;
  /** Most edges from a start; unbounded when absent. */
  maxDepth?: number;
}

/**
 * Every node reachable from `from` (one id or several), with its depth. The starts are not
 * listed, even when a cycle leads back to them.
 *
 * @example Transitive callees and callers
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph, reachable } from "./graph.ts";
 * const graph = buildGraph([{ from: "main", to: "parse" }, { from: "parse", to: "lex" }]);
 * assert.deepEqual(reachable(graph, "main", { direction: "forward" }).nodes.map((n) => n.id), ["parse", "lex"]);
 * assert.equal(reachable(graph, "lex", { direction: "reverse", maxDepth: 1 }).partial, true);
 * ```
 */
export function reachable(
  graph: SymbolGraph,
  from: string | readonly string[],
  options: ReachableOptions,
): Reachability {
  const starts = numbers(graph, typeof from === "string" ? [from] : from);
  const { depth, order, cut } = walk(
    graph,
    starts,
    options.direction,
    options.maxDepth ?? Infinity,
  );
  const nodes: ReachedNode[] = [];
  for (const n of order) {
    if (depth[n] > 0) nodes.push({ id: graph.ids[n], depth: depth[n] });
  }
  return { nodes, partial: cut };
}

/**
 * The ids of `allIds` that no entry reaches by forward edges (the entries themselves are live).
 * `allIds` lists every symbol, with or without edges; the answer keeps its order.
 *
 * @example Dead code from `main`
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph, deadCode } from "./graph.ts";
 * const graph = buildGraph([{ from: "main", to: "parse" }, { from: "old", to: "parse" }]);
 * assert.deepEqual(deadCode(graph, ["main"], ["main", "parse", "old", "lonely"]), ["old", "lonely"]);
 * ```
 */
export function deadCode(
  graph: SymbolGraph,
  entries: readonly string[],
  allIds: Iterable<string>,
): string[] {
  const live = new Set(entries);
  const { depth } = walk(graph, numbers(graph, entries), "forward", Infinity);
  const dead: string[] = [];
  for (const id of allIds) {
    if (live.has(id)) continue;
    const n = graph.indexOf(id);
    if (n === -1 || depth[n] === -1) dead.push(id);
  }
  return dead;
}

// --- Strongly connected components --------------------------------------------------------------

/**
 * The strongly connected components that form cycles: those of two nodes or more, and single
 * nodes with a self-loop (direct recursion). Tarjan's algorithm with explicit stacks, so a call
 * chain a million deep does not overflow the JavaScript stack. Members are listed in node order
 * and components largest first, then by their first node: hand the graph its ids in a stable
 * order (by file and line, say) and the answer is stable too. Node order rather than id order
 * because sorting a million strings takes seconds where sorting their numbers takes
 * milliseconds.
 *
 * @example Mutual and direct recursion
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph, stronglyConnected } from "./graph.ts";
 * const graph = buildGraph([
 *   { from: "even", to: "odd" }, { from: "odd", to: "even" },
 *   { from: "fact", to: "fact" }, { from: "main", to: "even" },
 * ]);
 * assert.deepEqual(stronglyConnected(graph), [["even", "odd"], ["fact"]]);
 * ```
 */
export function stronglyConnected(graph: SymbolGraph): string[][] {
  const components: Int32Array[] = [];
  tarjan(graph, (stack, bottom, top) => {
    if (top - bottom > 1 || hasSelfLoop(graph, stack[bottom])) {
      components.push(stack.slice(bottom, top).sort());
    }
  });
  components.sort((a, b) => b.length - a.length || a[0] - b[0]);
  return components.map((members) => idsOf(graph, members));
}

function idsOf(graph: SymbolGraph, nodes: ArrayLike<number>): string[] {
  return Array.from(nodes, (n) => graph.ids[n]);
}

function hasSelfLoop(graph: SymbolGraph, u: number): boolean {
  const { start, target } = graph.rows("forward");
  for (let k = start[u]; k < start[u + 1]; k++) if (target[k] === u) return true;
  return false;
}

/**
 * Iterative Tarjan: calls `emit` for every component, sinks first, with the component stack
 * whose slots `bottom … top - 1` hold its node numbers during the call.
 */
function tarjan(
  graph: SymbolGraph,
  emit: (stack: Int32Array, bottom: number, top: number) => void,
): void {
  const n = graph.size;
  const { start, target } = graph.rows("forward");
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const callEdge = new Int32Array(n);
  let sp = 0;
  let depth = 0;
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    order[root] = low[root] = counter++;
    stack[sp++] = root;
    onStack[root] = 1;
    callNode[0] = root;
    callEdge[0] = start[root];
    depth = 1;
    while (depth > 0) {
      const v = callNode[depth - 1];
      const k = callEdge[depth - 1];
      if (k < start[v + 1]) {
        callEdge[depth - 1] = k + 1;
        const w = target[k];
        if (order[w] === -1) {
          order[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callNode[depth] = w;
          callEdge[depth] = start[w];
          depth++;
        } else if (onStack[w] && order[w] < low[v]) low[v] = order[w];
        continue;
      }
      depth--;
      if (depth > 0 && low[v] < low[callNode[depth - 1]]) low[callNode[depth - 1]] = low[v];
      if (low[v] !== order[v]) continue;
      // v is the root of a component: the stack holds it and its members above it.
      let bottom = sp - 1;
      while (stack[bottom] !== v) bottom--;
      for (let i = bottom; i < sp; i++) onStack[stack[i]] = 0;
      emit(stack, bottom, sp);
      sp = bottom;
    }
  }
}

// --- Bounded simple paths -----------------------------------------------------------------------

/** Bounds of {@linkcode boundedPaths}. */
export interface PathOptions {
  /** Most edges on a path. */
  maxDepth: number;
  /** Most paths returned. */
  maxPaths: number;
  /** Most search steps (edges tried) before giving up, 1,000,000 when absent. */
  maxSteps?: number;
}

/** What {@linkcode boundedPaths} found. */
export interface PathsFound {
  /** Simple paths as ids from `from` to `to`, shortest first. */
  paths: string[][];
  /**
   * True when a bound may have hidden a path: `maxPaths` was reached with another path found,
   * `maxSteps` ran out, or a branch that still leads to `to` was cut at `maxDepth`.
   */
  partial: boolean;
}

/**
 * Simple paths (no node twice) from `from` to `to` of at most `maxDepth` edges, shortest first,
 * so that when `maxPaths` cuts the list the shortest ones stay. A reverse walk from `to` first
 * gives every node its distance to `to`, and the search only enters a node from which `to` can
 * still be reached within the edges left; lengths are enumerated one after the other. Throws a
 * `RangeError` on a negative or NaN bound (`Infinity` is allowed).
 *
 * @example Two routes
 * ```ts
 * import assert from "node:assert/strict";
 * import { boundedPaths, buildGraph } from "./graph.ts";
 * const graph = buildGraph([
 *   { from: "a", to: "b" }, { from: "b", to: "d" }, { from: "a", to: "c" },
 *   { from: "c", to: "b" }, { from: "a", to: "d" },
 * ]);
 * assert.deepEqual(boundedPaths(graph, "a", "d", { maxDepth: 3, maxPaths: 10 }).paths, [
 *   ["a", "d"],
 *   ["a", "b", "d"],
 *   ["a", "c", "b", "d"],
 * ]);
 * ```
 */
export function boundedPaths(
  graph: SymbolGraph,
  from: string,
  to: string,
  options: PathOptions,
): PathsFound {
  for (const bound of [options.maxDepth, options.maxPaths, options.maxSteps ?? 0]) {
    if (!(bound >= 0)) throw new RangeError(`boundedPaths: bound ${bound}`);
  }
  const source = graph.indexOf(from);
  const sink = graph.indexOf(to);
  if (source === -1 || sink === -1) return { paths: from === to ? [[from]] : [], partial: false };
  if (source === sink) return { paths: [[from]], partial: false };
  // No simple path has more edges than the graph has nodes but one.
  const maxDepth = Math.min(options.maxDepth, graph.size - 1);
  const distance = walk(graph, [sink], "reverse", Infinity).depth;
  const search = new PathSearch(graph, distance, sink, { ...options, maxDepth });
  const shortest = distance[source];
  if (shortest === -1) return { paths: [], partial: false };
  for (let length = shortest; length <= maxDepth && !search.stopped; length++) {
    search.run(source, length);
  }
  if (shortest > maxDepth) search.partial = true;
  return {
    paths: search.paths.map((path) => path.map((n) => graph.ids[n])),
    partial: search.partial,
  };
}

/** The depth-first enumeration of simple paths of one exact length, with explicit stacks. */
class PathSearch {
  readonly paths: number[][] = [];
  partial = false;
  stopped = false;
  #steps = 0;
  readonly #onPath: Uint8Array;

  constructor(
    private readonly graph: SymbolGraph,
    private readonly distance: Int32Array,
    private readonly sink: number,
    private readonly options: PathOptions,
  ) {
    this.#onPath = new Uint8Array(graph.size);
  }

  /** Adds every simple path of exactly `length` edges from `source` to the sink. */
  run(source: number, length: number): void {
    const { start, target } = this.graph.rows("forward");
    const maxSteps = this.options.maxSteps ?? 1_000_000;
    const path = new Int32Array(length + 1);
    const edge = new Int32Array(length + 1);
    path[0] = source;
    edge[0] = start[source];
    this.#onPath[source] = 1;
    let top = 0;
    while (top >= 0) {
      const u = path[top];
      if (edge[top] >= start[u + 1] || this.stopped) {
        this.#onPath[u] = 0;
        top--;
        continue;
      }
      const v = target[edge[top]++];
      if (++this.#steps > maxSteps) this.#stop();
      if (this.#onPath[v] || this.distance[v] === -1) continue;
      const left = length - top - 1;
      if (this.distance[v] > left) {
        if (top + 1 + this.distance[v] > this.options.maxDepth) this.partial = true;
        continue;
      }
      if (v === this.sink) {
        if (left === 0) this.#found(path.subarray(0, top + 1), v);
        continue;
      }
      top++;
      path[top] = v;
      edge[top] = start[v];
      this.#onPath[v] = 1;
    }
  }

  #found(prefix: Int32Array, last: number): void {
    if (this.paths.length === this.options.maxPaths) return this.#stop();
    this.paths.push([...prefix, last]);
  }

  #stop(): void {
    this.partial = true;
    this.stopped = true;
  }
}

// --- Impact -------------------------------------------------------------------------------------

/** The callers found at one depth. */
export interface ImpactLevel {
  /** Edges from the changed symbol (1 = direct callers). */
  depth: number;
  /** Their ids, in node order (see {@linkcode stronglyConnected} on why not by id). */
  symbol_ids: string[];
}

/** The blast radius of changing one symbol. */
export interface Impact {
  /** The changed symbol. */
  symbol_id: string;
  /** Transitive callers grouped by depth, nearest first. */
  levels: ImpactLevel[];
  /** How many transitive callers (the changed symbol excluded). */
  callers: number;
  /** The files holding them, sorted (from `fileOf`; callers it does not know are left out). */
  files: string[];
  /** Σ over the transitive callers of 1 / depth: see {@linkcode impact}. */
  score: number;
  /** True when `maxDepth` cut the walk while callers lay further out. */
  partial: boolean;
}

/** Options of {@linkcode impact}. */
export interface ImpactOptions {
  /** Most edges from the changed symbol; unbounded when absent. */
  maxDepth?: number;
  /** The file of a symbol, for the files touched. */
  fileOf?: (id: string) => string | undefined;
}

/**
 * What changing `id` may break: its transitive callers (reverse edges) by depth, the files
 * they live in, and a score.
 *
 * **Score** = Σ over the transitive callers `c` of `1 / depth(c)`. A direct caller counts 1,
 * a caller's caller ½, the next ⅓, …: a change's signature or behaviour reaches a direct
 * caller for sure and farther callers only when each caller in between passes it on, so
 * nearness weighs more; the decay is harmonic rather than geometric so that a wide fan-in a
 * few levels up (a helper under a syscall layer) still shows. With `maxDepth: 1` the score is
 * the number of direct callers, which keeps it easy to read.
 *
 * @example Blast radius of `lex`
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph, impact } from "./graph.ts";
 * const graph = buildGraph([
 *   { from: "parse", to: "lex" }, { from: "main", to: "parse" }, { from: "test", to: "parse" },
 * ]);
 * const files = new Map([["parse", "parse.c"], ["main", "main.c"], ["test", "main.c"]]);
 * const result = impact(graph, "lex", { fileOf: (id) => files.get(id) });
 * assert.deepEqual([result.callers, result.files, result.score], [3, ["main.c", "parse.c"], 2]);
 * ```
 */
export function impact(graph: SymbolGraph, id: string, options: ImpactOptions = {}): Impact {
  const { depth, order, cut } = walk(
    graph,
    numbers(graph, [id]),
    "reverse",
    options.maxDepth ?? Infinity,
  );
  const byDepth: number[][] = [];
  const files = new Set<string>();
  let score = 0;
  let callers = 0;
  for (const n of order) {
    const d = depth[n];
    if (d === 0) continue;
    callers++;
    (byDepth[d - 1] ??= []).push(n);
    const file = options.fileOf?.(graph.ids[n]);
    if (file !== undefined) files.add(file);
    score += 1 / d;
  }
  const levels = byDepth.map((nodes, i) => ({
    depth: i + 1,
    symbol_ids: idsOf(graph, Int32Array.from(nodes).sort()),
  }));
  return {
    symbol_id: id,
    levels,
    callers,
    files: [...files].sort(),
    score,
    partial: cut,
  };
}

// --- PageRank -----------------------------------------------------------------------------------

/** Options of {@linkcode pageRank}. */
export interface PageRankOptions {
  /**
   * Where a random surfer restarts, by id, with non-negative weights (normalised to sum 1):
   * the symbols of the files or the symbols an agent is working on. Ids the graph does not
   * hold are ignored; uniform when absent or when no weight lands on the graph.
   */
  personalization?: ReadonlyMap<string, number>;
  /** Probability of following an edge rather than restarting, in [0, 1). Default 0.85. */
  damping?: number;
  /** Most iterations. Default 100. */
  maxIterations?: number;
  /** Stop when the ranks move less than this in total (L1). Default 1e-6. */
  tolerance?: number;
}

/** What {@linkcode pageRank} computed. */
export interface PageRanks {
  /** Rank of every node by node number (`graph.ids[n]`); they sum to 1. */
  ranks: Float64Array;
  /** Iterations run. */
  iterations: number;
  /** Whether the tolerance was reached within `maxIterations`. */
  converged: boolean;
  /** Whether the restart distribution came from `personalization` (false: uniform). */
  personalized: boolean;
}

/**
 * Weighted PageRank by power iteration: rank flows along each edge from a user to what it
 * uses, in proportion to the edge's weight (its number of uses) among the user's edges, so a
 * definition used by many, or by important users, ranks high; this is how Aider's repository
 * map picks what to show. With `personalization` the surfer restarts only at the focus, which
 * ranks what the focus uses, directly or not, above the rest. A node with no outgoing edge
 * (dangling) hands its rank to the restart distribution, so the ranks keep summing to 1.
 *
 * @example Most-used symbol first
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph, pageRank } from "./graph.ts";
 * const graph = buildGraph([
 *   { from: "a", to: "log" }, { from: "b", to: "log" }, { from: "c", to: "log" },
 * ]);
 * const { ranks } = pageRank(graph);
 * assert.ok(ranks[graph.indexOf("log")] > ranks[graph.indexOf("a")]);
 * ```
 */
export function pageRank(graph: SymbolGraph, options: PageRankOptions = {}): PageRanks {
  const n = graph.size;
  const damping = options.damping ?? 0.85;
  if (!(damping >= 0 && damping < 1)) throw new RangeError(`pageRank: damping ${damping}`);
  const teleport = restartDistribution(graph, options.personalization);
  if (n === 0) {
    return { ranks: new Float64Array(), iterations: 0, converged: true, personalized: false };
  }
  const { start, target: users } = graph.rows("reverse");
  const share = edgeShares(graph);
  const dangling = danglingNodes(graph);
  let rank = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-6;
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    let lost = 0;
    for (const u of dangling) lost += rank[u];
    const restart = 1 - damping + damping * lost;
    let moved = 0;
    for (let v = 0; v < n; v++) {
      let inflow = 0;
      for (let k = start[v]; k < start[v + 1]; k++) inflow += rank[users[k]] * share[k];
      const value = restart * teleport.weights[v] + damping * inflow;
      moved += Math.abs(value - rank[v]);
      next[v] = value;
    }
    [rank, next] = [next, rank];
    iterations++;
    converged = moved < tolerance;
  }
  return { ranks: rank, iterations, converged, personalized: teleport.personalized };
}

/** The nodes with no outgoing edge. */
function danglingNodes(graph: SymbolGraph): Int32Array {
  const { start } = graph.rows("forward");
  const dangling: number[] = [];
  for (let u = 0; u < graph.size; u++) if (start[u + 1] === start[u]) dangling.push(u);
  return Int32Array.from(dangling);
}

/** For every reverse edge `user → v`, the share of the user's outgoing weight it carries. */
function edgeShares(graph: SymbolGraph): Float64Array {
  const forward = graph.rows("forward");
  const outWeight = new Float64Array(graph.size);
  for (let u = 0; u < graph.size; u++) {
    for (let k = forward.start[u]; k < forward.start[u + 1]; k++) outWeight[u] += forward.weight[k];
  }
  const { target: users, weight } = graph.rows("reverse");
  const share = new Float64Array(weight.length);
  for (let k = 0; k < share.length; k++) share[k] = weight[k] / outWeight[users[k]];
  return share;
}

/** The restart distribution: the personalization normalised, or uniform. */
function restartDistribution(
  graph: SymbolGraph,
  personalization: ReadonlyMap<string, number> | undefined,
): { weights: Float64Array; personalized: boolean } {
  const weights = new Float64Array(graph.size);
  let total = 0;
  for (const [id, w] of personalization ?? []) {
    if (!(w >= 0 && Number.isFinite(w))) throw new RangeError(`pageRank: weight ${w} of ${id}`);
    const n = graph.indexOf(id);
    if (n === -1) continue;
    weights[n] += w;
    total += w;
  }
  if (total > 0) {
    for (let v = 0; v < weights.length; v++) weights[v] /= total;
    return { weights, personalized: true };
  }
  return { weights: weights.fill(1 / graph.size), personalized: false };
}

// --- Export -------------------------------------------------------------------------------------

/** A DOT quoted string: backslash, double quote and line breaks escaped. */
function dotString(text: string): string {
  const escaped = text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll(
    /\r\n|\r|\n/g,
    "\\n",
  );
  return `"${escaped}"`;
}

/**
 * The graph in Graphviz DOT: one node per id (labelled by `label` when it gives a text), one
 * edge per distinct use, with its weight as `weight` when above 1. Every id and label is a
 * quoted string, escaped, so any name is safe.
 *
 * @example DOT of one call
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildGraph, toDot } from "./graph.ts";
 * const dot = toDot(buildGraph([{ from: "a", to: "b" }]), (id) => `fn ${id}`);
 * assert.ok(dot.includes('"a" -> "b";'));
 * ```
 */
export function toDot(graph: SymbolGraph, label?: (id: string) => string | undefined): string {
  const lines = ["digraph symbols {"];
  for (const id of graph.ids) {
    const text = label?.(id);
    lines.push(`  ${dotString(id)}${text === undefined ? "" : ` [label=${dotString(text)}]`};`);
  }
  const { start, target, weight } = graph.rows("forward");
  for (let u = 0; u < graph.size; u++) {
    for (let k = start[u]; k < start[u + 1]; k++) {
      const attributes = weight[k] > 1 ? ` [weight=${weight[k]}]` : "";
      lines.push(
        `  ${dotString(graph.ids[u])} -> ${dotString(graph.ids[target[k]])}${attributes};`,
      );
    }
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}
