/**
 * The code graph of an index (`core/graph.ts`) as the graph subcommands walk it: one node per
 * distinct `symbol_id`, numbered in index order (file by file, each in source order), and one
 * edge per (using definition, used definition) with the number of uses as its weight. Uses are
 * resolved by the same {@linkcode Resolver} the `callers` and `callees` queries use, once per
 * group of uses that share a file, an enclosing definition, a name and call-or-not (their
 * resolution is the same), so the Linux tree's millions of uses cost far fewer resolutions.
 *
 * A node keeps only what resolution, filters and ranking read ({@linkcode GraphSymbol}: the
 * Linux tree has millions of definitions); the subcommands read the full rows of the few they
 * print. Only resolved uses make edges. A use at file scope (top-level code) has no using node:
 * its target is marked `topLevel` instead (dead code counts it as used); the candidates of an
 * ambiguous use are marked `maybeUsed`.
 *
 * @module
 */
import type { Resolution } from "../../schema/symbols.ts";
import { graphFromIndexed, type SymbolGraph } from "../../core/graph.ts";
import { type Definition, Resolver, type UseSite } from "../../core/symbol_index/resolve.ts";
import type { FileRow, IndexStore, SymbolBriefRow } from "../../core/symbol_index/store.ts";

/** Which uses make edges: calls only, or every reference (calls included). */
export type EdgeKind = "calls" | "references";

/** A definition as the graph holds it, with its node number; path and language are its file's. */
export class GraphSymbol implements Definition {
  /** Its node (shared by definitions of one `symbol_id`). */
  readonly node: number;
  /** Stable id. */
  readonly symbol_id: string;
  /** Name. */
  readonly name: string;
  /** Qualified name. */
  readonly qualified_name: string;
  /** Kind. */
  readonly kind: string;
  /** Qualified name of its parent, or null. */
  readonly parent: string | null;
  /** 1-based line. */
  readonly start_line: number;
  /** 0-based byte column. */
  readonly start_col: number;
  /** Its file. */
  readonly file: FileRow;

  /** The graph form of `row`, in `file`, as node `node`. */
  constructor(row: SymbolBriefRow, file: FileRow, node: number) {
    this.node = node;
    this.symbol_id = row.symbol_id;
    this.name = row.name;
    // Most qualified names are the name itself: share the string.
    this.qualified_name = row.qualified_name === row.name ? row.name : row.qualified_name;
    this.kind = row.kind;
    this.parent = row.parent;
    this.start_line = row.start_line;
    this.start_col = row.start_col;
    this.file = file;
  }

  /** Its file's row id. */
  get file_id(): number {
    return this.file.id;
  }

  /** Its file's root-relative path. */
  get path(): string {
    return this.file.path;
  }

  /** Its file's language. */
  get language(): string {
    return this.file.language;
  }
}

/** The graph of an index and what the subcommands need to report on its nodes. */
export interface CodeGraph {
  /** The graph over `symbol_id`s. */
  graph: SymbolGraph;
  /** The definition of each node number (the first of its `symbol_id`). */
  nodes: GraphSymbol[];
  /** Every definition, in the index's row order (as `IndexStore.everySymbol` reads them). */
  definitions: readonly GraphSymbol[];
  /** Nodes some use at file scope resolves to (1) or not (0). */
  topLevel: Uint8Array;
  /** Nodes some ambiguous use lists among its candidates. */
  maybeUsed: Uint8Array;
  /** Uses by resolution. */
  resolutions: Record<Resolution, number>;
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

/** Every definition of the index, numbered, with its definitions by name and by file. */
class Definitions {
  readonly nodes: GraphSymbol[] = [];
  readonly byName = new Map<string, GraphSymbol[]>();
  /** The `[first, end)` range of each file's definitions in `all`. */
  readonly #files = new Map<number, [number, number]>();
  readonly all: GraphSymbol[] = [];
  #enclosingFile = -1;
  #enclosing = new Map<string, number>();

  constructor(store: IndexStore, files: ReadonlyMap<number, FileRow>) {
    let fileId = -1;
    let ids = new Map<string, number>();
    for (const row of store.everySymbol()) {
      const file = files.get(row.file_id);
      if (!file) continue;
      if (row.file_id !== fileId) {
        // A file's definitions are stored together, and a symbol_id names one file: the ids
        // seen need only be remembered within it.
        this.#files.set(row.file_id, [this.all.length, this.all.length]);
        fileId = row.file_id;
        ids = new Map();
      }
      let node = ids.get(row.symbol_id);
      const fresh = node === undefined;
      node ??= this.nodes.length;
      const symbol = new GraphSymbol(row, file, node);
      if (fresh) {
        ids.set(row.symbol_id, node);
        this.nodes.push(symbol);
      }
      this.all.push(symbol);
      this.#files.get(fileId)![1] = this.all.length;
      const named = this.byName.get(symbol.name);
      if (named) named.push(symbol);
      else this.byName.set(symbol.name, [symbol]);
    }
  }

  /**
   * The node of the first definition of `fileId` qualified as `qualifiedName` (the definition
   * its uses sit in, as for `callers`). Asked file by file, so one file's map is kept.
   */
  enclosing(fileId: number, qualifiedName: string): number | undefined {
    if (fileId !== this.#enclosingFile) {
      this.#enclosingFile = fileId;
      this.#enclosing = new Map();
      const [first, end] = this.#files.get(fileId) ?? [0, 0];
      for (let i = first; i < end; i++) {
        const symbol = this.all[i];
        if (!this.#enclosing.has(symbol.qualified_name)) {
          this.#enclosing.set(symbol.qualified_name, symbol.node);
        }
      }
    }
    return this.#enclosing.get(qualifiedName);
  }
}

/**
 * Loads the graph of `store`: `calls` for the call graph (reachable, cycles, paths, impact,
 * export), `references` for the reference graph (the map and dead code).
 *
 * @example The call graph of an empty index
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCodeGraph } from "./graph_load.ts";
 * import { IndexStore, locateDb } from "../../core/symbol_index/store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * assert.equal(loadCodeGraph(store, "calls").graph.size, 0);
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function loadCodeGraph(store: IndexStore, kind: EdgeKind): CodeGraph {
  const files = new Map(store.files().map((file) => [file.id, file]));
  const definitions = new Definitions(store, files);
  const { nodes } = definitions;
  const resolver = new Resolver(store, (name) => definitions.byName.get(name) ?? []);
  const topLevel = new Uint8Array(nodes.length);
  const maybeUsed = new Uint8Array(nodes.length);
  const resolutions = { resolved: 0, ambiguous: 0, unresolved: 0 };
  const edges = new EdgeColumns();
  for (const group of store.useGroups(kind === "calls")) {
    const file = files.get(group.file_id);
    if (!file) continue;
    const site: UseSite = { ...group, path: file.path, language: file.language };
    const resolved = resolver.resolve(site);
    resolutions[resolved.resolution] += group.uses;
    if (resolved.resolution === "ambiguous") {
      for (const symbol of resolved.definitions) maybeUsed[symbol.node] = 1;
    }
    if (resolved.resolution !== "resolved") continue;
    const target = resolved.definitions[0].node;
    const from = group.enclosing === null
      ? undefined
      : definitions.enclosing(group.file_id, group.enclosing);
    if (from === undefined) topLevel[target] = 1;
    else edges.push(from, target, group.uses);
  }
  const graph = graphFromIndexed(
    nodes.map((symbol) => symbol.symbol_id),
    edges.sources.subarray(0, edges.length),
    edges.targets.subarray(0, edges.length),
    edges.weights.subarray(0, edges.length),
  );
  return { graph, nodes, definitions: definitions.all, topLevel, maybeUsed, resolutions };
}
