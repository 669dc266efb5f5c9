/**
 * The code graph of an index (`graph.ts`) as the graph subcommands walk it: one node per
 * distinct `symbol_id`, numbered in file and position order, and one edge per (using
 * definition, used definition) with the number of uses as its weight. Uses are resolved by the
 * same {@linkcode Resolver} the `callers` and `callees` queries use, once per group of uses
 * that share a file, an enclosing definition, a name and call-or-not (their resolution is the
 * same), so the Linux tree's millions of uses cost a few hundred thousand resolutions.
 *
 * Only resolved uses make edges. A use at file scope (top-level code) has no using node: its
 * target is marked `topLevel` instead (dead code counts it as used); the candidates of an
 * ambiguous use are marked `maybeUsed`.
 *
 * @module
 */
import type { Resolution } from "../../schema/symbols.ts";
import { graphFromIndexed, type SymbolGraph } from "./graph.ts";
import { Resolver, type UseSite } from "./resolve.ts";
import type { IndexStore, SymbolRow } from "./store.ts";

/** Which uses make edges: calls only, or every reference (calls included). */
export type EdgeKind = "calls" | "references";

/** The graph of an index and what the subcommands need to report on its nodes. */
export interface CodeGraph {
  /** The graph over `symbol_id`s. */
  graph: SymbolGraph;
  /** The definition of each node number (the first of its `symbol_id`). */
  nodes: SymbolRow[];
  /** Nodes some use at file scope resolves to (1) or not (0). */
  topLevel: Uint8Array;
  /** Nodes some ambiguous use lists among its candidates. */
  maybeUsed: Uint8Array;
  /** Uses by resolution. */
  resolutions: Record<Resolution, number>;
}

/** Node numbers of the definitions: by `symbol_id`, and by (file, qualified name) for callers. */
class NodeNumbers {
  readonly nodes: SymbolRow[] = [];
  readonly #byId = new Map<string, number>();
  readonly #enclosing = new Map<string, number>();

  add(row: SymbolRow): void {
    let n = this.#byId.get(row.symbol_id);
    if (n === undefined) {
      n = this.nodes.length;
      this.#byId.set(row.symbol_id, n);
      this.nodes.push(row);
    }
    // The first definition of a qualified name in a file encloses its uses, as for `callers`.
    const key = `${row.file_id}\0${row.qualified_name}`;
    if (!this.#enclosing.has(key)) this.#enclosing.set(key, n);
  }

  of(row: SymbolRow): number {
    return this.#byId.get(row.symbol_id)!;
  }

  enclosing(fileId: number, qualifiedName: string): number | undefined {
    return this.#enclosing.get(`${fileId}\0${qualifiedName}`);
  }
}

/** Growable typed columns of the edges. */
class EdgeColumns {
  sources = new Int32Array(1024);
  targets = new Int32Array(1024);
  weights = new Float64Array(1024);
  length = 0;

  push(from: number, to: number, weight: number): void {
    if (this.length === this.sources.length) {
      const grow = <A extends Int32Array | Float64Array>(old: A, fresh: A): A => {
        fresh.set(old);
        return fresh;
      };
      this.sources = grow(this.sources, new Int32Array(this.length * 2));
      this.targets = grow(this.targets, new Int32Array(this.length * 2));
      this.weights = grow(this.weights, new Float64Array(this.length * 2));
    }
    this.sources[this.length] = from;
    this.targets[this.length] = to;
    this.weights[this.length] = weight;
    this.length++;
  }
}

/**
 * Loads the graph of `store`: `calls` for the call graph (reachable, dead code's walk, cycles,
 * paths, impact, export), `references` for the map's reference graph.
 *
 * @example The call graph of an empty index
 * ```ts
 * import { loadCodeGraph } from "./graph_load.ts";
 * import { IndexStore, locateDb } from "./store.ts";
 * const store = IndexStore.open(locateDb(Deno.makeTempDirSync(), undefined, true), "write");
 * loadCodeGraph(store, "calls").graph.size; // 0
 * store.close();
 * ```
 */
export function loadCodeGraph(store: IndexStore, kind: EdgeKind): CodeGraph {
  const files = new Map(store.files().map((file) => [file.id, file]));
  const numbers = new NodeNumbers();
  const definitions = store.everySymbol();
  for (const row of definitions) numbers.add(row);
  const resolver = new Resolver(store);
  resolver.preload(definitions);
  const size = numbers.nodes.length;
  const topLevel = new Uint8Array(size);
  const maybeUsed = new Uint8Array(size);
  const resolutions = { resolved: 0, ambiguous: 0, unresolved: 0 };
  const edges = new EdgeColumns();
  for (const group of store.useGroups(kind === "calls")) {
    const file = files.get(group.file_id);
    if (!file) continue;
    const site: UseSite = { ...group, path: file.path, language: file.language };
    const resolved = resolver.resolve(site);
    resolutions[resolved.resolution] += group.uses;
    if (resolved.resolution === "ambiguous") {
      for (const row of resolved.definitions) maybeUsed[numbers.of(row)] = 1;
    }
    if (resolved.resolution !== "resolved") continue;
    const target = numbers.of(resolved.definitions[0]);
    const from = group.enclosing === null
      ? undefined
      : numbers.enclosing(group.file_id, group.enclosing);
    if (from === undefined) topLevel[target] = 1;
    else edges.push(from, target, group.uses);
  }
  const graph = graphFromIndexed(
    numbers.nodes.map((row) => row.symbol_id),
    edges.sources.subarray(0, edges.length),
    edges.targets.subarray(0, edges.length),
    edges.weights.subarray(0, edges.length),
  );
  return { graph, nodes: numbers.nodes, topLevel, maybeUsed, resolutions };
}
