/**
 * The read-only questions of `llm-symbols`, answered from the index: `find` (exact, prefix or
 * fuzzy names), `refs`, `callers`, `callees` (transitively with `depth`), `outline`, `imports`
 * and `importers`. Every use keeps its resolution (resolved, ambiguous, unresolved); an exact
 * name with several definitions lists them all and says it is ambiguous.
 *
 * @module
 */
import { basename, resolve } from "../../core/path_syntax.ts";
import type { RunCache } from "../../core/cache.ts";
import { displayPath } from "../../core/paths.ts";
import { listingCut } from "../../core/listing.ts";
import { type Diagnostic, ToolError } from "../../schema/diagnostic.ts";
import type {
  ImportListData,
  ImportRecord,
  Resolution,
  SymbolListData,
  SymbolRecord,
  UseListData,
  UseRecord,
} from "../../schema/symbols.ts";
import { importPatterns, patternMatches } from "../../core/symbol_index/import_paths.ts";
import { importRecord, symbolRecord, useRecord } from "../../core/symbol_index/records.ts";
import { Resolver, storedDefinitions } from "../../core/symbol_index/resolve.ts";
import {
  type FileRow,
  type ImportRow,
  IndexStore,
  locateDb,
  type RefRow,
  type SymbolRow,
} from "../../core/symbol_index/store.ts";
import { SYMBOLS_DEFAULTS } from "./defaults.ts";

/** What every query takes. */
export interface QueryOptions {
  /** The root the index belongs to. */
  root: string;
  /** Directory relative `paths` and files resolve against (default the root). */
  cwd?: string;
  /** Database path relative to the root (default `.llm/index.db`). */
  db?: string;
  /** Only results in these files or folders. */
  paths?: readonly string[];
  /** Only definitions of these kinds. */
  kinds?: readonly string[];
  /** Results to list (0: all). */
  limit?: number;
  /**
   * A long-lived host's cache: the index stays open there and is brought up to date before
   * each answer (see `core/symbol_index/live.ts`); without one the index is opened for this
   * query and read as it is.
   */
  cache?: RunCache;
  /** Stops the refresh of a live index between files. */
  signal?: AbortSignal;
  /**
   * When the host needs the answer by (epoch ms): a wait for the index's first build under way
   * elsewhere ends by then (`FIRST_BUILD_WAIT_MS` at most).
   */
  deadline?: number;
}

/** A query's answer. */
export interface QueryOutcome<D> {
  /** The envelope's data. */
  data: D;
  /** Notes. */
  diagnostics: Diagnostic[];
  /** Whether the limit cut the results. */
  partial: boolean;
}

/** How `find` matches names. */
export type NameMatch = "exact" | "prefix" | "fuzzy";

/**
 * The live index of a long-lived host, named by a computed specifier: a literal `import("…")`
 * would make every command-line query read and parse the indexer's and the parser's modules at
 * start (Deno loads the graph of literal dynamic imports). A host loads it with the definitions
 * (`tool.ts`), so finding it needs no read permission for the package.
 */
const LIVE_INDEX = new URL("../../core/symbol_index/live.ts", import.meta.url).href;

/**
 * Runs `work` on the index of a query: opened read-only for this query, or, in a host with a
 * cache, the host's live index (built on first need when the host may write it) brought up to
 * date first (what that build and refresh report is added to the diagnostics of `work`'s
 * outcome).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withIndex } from "./queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(withIndex({ root }, () => 0), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function withIndex<T>(
  options: QueryOptions,
  work: (store: IndexStore) => T | Promise<T>,
): Promise<T> {
  if (options.cache) {
    const { firstBuildWait, liveIndexOnNeed }: typeof import("../../core/symbol_index/live.ts") =
      await import(LIVE_INDEX);
    // A host that may write the index builds it on the first call that needs it.
    const { live, notes: built } = await liveIndexOnNeed(
      options.cache,
      options.root,
      options.db,
      options.signal,
      firstBuildWait(options.deadline),
    );
    // While a first build goes on elsewhere, the call answers from the files it wrote so far:
    // a refresh would only find it busy.
    const building = built.some((note) => note.code === FIRST_BUILD_UNDER_WAY);
    const notes = building ? built : [...built, ...await live.fresh(options.signal)];
    const outcome = await work(live.store);
    if (notes.length > 0 && hasDiagnostics(outcome)) outcome.diagnostics.push(...notes);
    if (building && hasPartial(outcome)) outcome.partial = true;
    return outcome;
  }
  const store = IndexStore.open(locateDb(options.root, options.db, false), "read");
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

/** The note of an answer given while the index's first build goes on (`liveIndexOnNeed`). */
const FIRST_BUILD_UNDER_WAY = "MAG-IO-029";

function hasPartial(value: unknown): value is { partial: boolean } {
  return typeof value === "object" && value !== null && "partial" in value &&
    typeof value.partial === "boolean";
}

function hasDiagnostics(value: unknown): value is { diagnostics: Diagnostic[] } {
  return typeof value === "object" && value !== null && "diagnostics" in value &&
    Array.isArray(value.diagnostics);
}

/** Root-relative forms of `paths` (`.` for the root). */
function scopes(options: QueryOptions): string[] {
  const realRoot = Deno.realPathSync(options.root);
  const cwd = options.cwd ?? options.root;
  return (options.paths ?? []).map((path) => displayPath(realRoot, resolve(cwd, path)));
}

/**
 * A filter of rows by file (`paths`) and, for definitions, kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RowFilter } from "./queries.ts";
 * const filter = new RowFilter({ root: Deno.cwd(), paths: ["src"] });
 * assert.equal(filter.inScope("src/a.c"), true);
 * assert.equal(filter.inScope("test/a.c"), false);
 * ```
 */
export class RowFilter {
  readonly #scopes: string[];
  readonly #kinds: Set<string> | undefined;

  constructor(options: QueryOptions) {
    this.#scopes = scopes(options);
    this.#kinds = options.kinds?.length ? new Set(options.kinds) : undefined;
  }

  /** Whether `path` lies in the asked files or folders (every path when none was asked). */
  inScope(path: string): boolean {
    return this.#scopes.length === 0 ||
      this.#scopes.some((scope) =>
        scope === "." || path === scope ||
        path.startsWith(scope.endsWith("/") ? scope : scope + "/")
      );
  }

  /** Whether a definition is in scope and of an asked kind. */
  definition(row: Pick<SymbolRow, "kind" | "path">): boolean {
    return (!this.#kinds || this.#kinds.has(row.kind)) && this.inScope(row.path);
  }
}

/**
 * Lists the first `limit` of `items` (0: all).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cut } from "./queries.ts";
 * assert.deepEqual(cut([1, 2, 3], 2), [1, 2]);
 * ```
 */
export function cut<T>(items: T[], limit: number): T[] {
  return limit > 0 ? items.slice(0, limit) : items;
}

/**
 * The `MAG-REF-001` error for `name`, with the index's closest names (the name matcher is
 * loaded only on this path: it brings the parser runtime, which answers need not load).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unknownSymbol } from "./queries.ts";
 * import { IndexStore, locateDb } from "../../core/symbol_index/store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * assert.equal((await unknownSymbol(store, "mian")).code, "MAG-REF-001");
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function unknownSymbol(store: IndexStore, name: string): Promise<ToolError> {
  const { closestNames } = await import("../../grammars/closest_names.ts");
  const first = name.slice(0, 1);
  const pool = [
    ...store.namesBetween(first.toLowerCase(), first.toLowerCase() + "\u{10ffff}"),
    ...store.namesBetween(first.toUpperCase(), first.toUpperCase() + "\u{10ffff}"),
    ...store.namesContaining(name.slice(0, 4), 500),
  ];
  const close = closestNames(name, pool, SYMBOLS_DEFAULTS.suggestions);
  return new ToolError(
    "MAG-REF-001",
    `no symbol named '${name}' in the index${
      close.length ? `; did you mean ${close.map((c) => `'${c}'`).join(", ")}?` : ""
    }`,
    close.length ? { note: `close names: ${close.join(", ")}` } : {},
  );
}

/** A `symbol_id`: 16 lowercase hex digits (`schema/ids.ts`). */
export const SYMBOL_ID = /^[0-9a-f]{16}$/;

/**
 * How a query names its symbol: by name or qualified name, by `symbol_id` (one definition even
 * where a name has several, such as two `static` functions of one name in two files), or by
 * both, which must then agree.
 */
export interface SymbolAsk {
  /** Name or qualified name; 16 hex digits that are a stored `symbol_id` name that symbol. */
  name?: string;
  /** The `symbol_id` `find` lists. */
  symbol_id?: string;
}

/** What an answer shows as its query: the name, else the `symbol_id`. */
export function askText(ask: SymbolAsk): string {
  return ask.name ?? ask.symbol_id ?? "";
}

/** `symbol` as a {@linkcode SymbolAsk} (a string is a name). */
export function askOf(symbol: string | SymbolAsk): SymbolAsk {
  return typeof symbol === "string" ? { name: symbol } : symbol;
}

function candidateList(rows: SymbolRow[]): string {
  return rows.slice(0, SYMBOLS_DEFAULTS.suggestions).map((row) =>
    `${row.symbol_id} ${row.kind} ${row.qualified_name} ${row.path}:${row.start_line}`
  ).join("; ");
}

/**
 * The definitions `ask` names, before any kind filter: those of its `symbol_id` (`MAG-ARG-002`
 * when it is not 16 hex digits, `MAG-REF-004` when no definition has it, `MAG-REF-005` when a
 * name is given too and the id's definition is not so named); else, when the name is 16 hex
 * digits that a definition has as its `symbol_id`, that definition; else the definitions of the
 * name or qualified name (none for an unknown name: each query says so its own way).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { askedDefinitions } from "./queries.ts";
 * import { IndexStore, locateDb } from "../../core/symbol_index/store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * assert.throws(() => askedDefinitions(store, { symbol_id: "0123456789abcdef" }), { code: "MAG-REF-004" });
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function askedDefinitions(store: IndexStore, ask: SymbolAsk): SymbolRow[] {
  const { name, symbol_id: id } = ask;
  if (id === undefined) {
    if (name === undefined) {
      throw new ToolError("MAG-ARG-002", "name the symbol: give its name or its symbol_id");
    }
    const byId = SYMBOL_ID.test(name) ? store.symbolsWithId(name) : [];
    return byId.length > 0 ? byId : store.symbolsNamed(name);
  }
  if (!SYMBOL_ID.test(id)) {
    throw new ToolError(
      "MAG-ARG-002",
      `symbol_id '${id}' is not a symbol_id: expected 16 lowercase hex digits`,
    );
  }
  const rows = store.symbolsWithId(id);
  const named = name === undefined ? [] : store.symbolsNamed(name);
  const note = named.length > 0 ? { note: `'${name}' names: ${candidateList(named)}` } : {};
  if (rows.length === 0) {
    throw new ToolError("MAG-REF-004", `no definition in the index has symbol_id ${id}`, note);
  }
  if (name !== undefined && !rows.some((row) => row.name === name || row.qualified_name === name)) {
    throw new ToolError(
      "MAG-REF-005",
      `symbol_id ${id} is ${rows[0].kind} ${rows[0].qualified_name} ` +
        `(${rows[0].path}:${rows[0].start_line}), not '${name}'`,
      note,
    );
  }
  return rows;
}

/** The fuzzy matches of `query` among every name, best first (the discover scorer's ranking). */
async function fuzzyNames(store: IndexStore, query: string): Promise<Map<string, number>> {
  const { parseQuery } = await import("../../core/fuzzy/query.ts");
  const { PathScorer } = await import("../../core/fuzzy/scorer.ts");
  const scorer = new PathScorer(parseQuery(query));
  const scored: { name: string; raw: number }[] = [];
  for (const name of store.allNames()) {
    const raw = scorer.score(name, 1);
    if (raw >= 0) scored.push({ name, raw });
  }
  scored.sort((a, b) => b.raw - a.raw || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const ideal = scorer.idealScore || 1;
  return new Map(scored.map((entry) => [entry.name, Math.min(1, entry.raw / ideal)]));
}

/**
 * Definitions by name: `exact` (a name or qualified name; several definitions are listed and
 * flagged ambiguous, an unknown name is `MAG-REF-001` with close names), `prefix`, or `fuzzy`
 * (fzf's scoring, best first); or the definition of a `symbol_id` (`match` is then moot).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findSymbols } from "./queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(findSymbols({ root }, "main", "exact"), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function findSymbols(
  options: QueryOptions,
  symbol: string | SymbolAsk,
  match: NameMatch,
): Promise<QueryOutcome<SymbolListData>> {
  const ask = askOf(symbol);
  return await withIndex(options, async (store) => {
    const filter = new RowFilter(options);
    const query = askText(ask);
    let rows: SymbolRow[];
    let scores: Map<string, number> | undefined;
    if (match === "exact" || ask.symbol_id !== undefined) {
      rows = askedDefinitions(store, ask);
      if (rows.length === 0) throw await unknownSymbol(store, query);
    } else if (match === "prefix") rows = store.symbolsWithPrefix(query);
    else {
      scores = await fuzzyNames(store, query);
      const names = [...scores.keys()];
      rows = names.slice(0, Math.max(options.limit ?? 0, 0) || names.length).flatMap((name) =>
        store.symbolsNamed(name).filter((row) => row.name === name)
      );
    }
    const kept = rows.filter((row) => filter.definition(row));
    const limit = options.limit ?? SYMBOLS_DEFAULTS.limit;
    const results = cut(kept, limit).map((row) => {
      const record = symbolRecord(row);
      if (scores) record.score = scores.get(row.name) ?? 0;
      return record;
    });
    return {
      data: {
        count: results.length,
        query,
        match,
        total: kept.length,
        ambiguous: match === "exact" && new Set(kept.map((row) => row.symbol_id)).size > 1,
        results,
      },
      diagnostics: [],
      partial: listingCut(results.length, kept.length),
    };
  });
}

/** The name part of a possibly qualified name. */
function ownName(name: string): string {
  const cut = Math.max(name.lastIndexOf("."), name.lastIndexOf("::"));
  return cut < 0 ? name : name.slice(cut + (name[cut] === ":" ? 2 : 1));
}

/** Counts of uses by resolution. */
function resolutionCounts(uses: UseRecord[]): Record<Resolution, number> {
  const counts = { resolved: 0, ambiguous: 0, unresolved: 0 };
  for (const use of uses) counts[use.resolution]++;
  return counts;
}

/**
 * The uses found: all of them, or (`stoppedAt`) the first ones in order, up to the limit, and the
 * number of uses of the name the index holds in scope (an upper bound of the total: some of them
 * may denote another definition of the same name).
 */
interface FoundUses {
  uses: UseRecord[];
  stoppedAt?: number;
}

function useList(
  query: string,
  definitions: SymbolRow[],
  found: FoundUses,
  limit: number,
): QueryOutcome<UseListData> {
  const results = cut(found.uses, limit);
  const total = found.stoppedAt ?? found.uses.length;
  return {
    data: {
      count: results.length,
      query,
      definitions: definitions.map(symbolRecord),
      total,
      resolution_counts: resolutionCounts(found.uses),
      results,
    },
    diagnostics: [],
    partial: listingCut(results.length, total),
  };
}

/** Caches the definitions enclosing uses. */
class Callers {
  readonly #store: IndexStore;

  constructor(store: IndexStore) {
    this.#store = store;
  }

  /** The definition enclosing `row`, kept by the store while the index is unchanged. */
  of(row: RefRow): SymbolRow | undefined {
    const enclosing = row.enclosing;
    if (!enclosing) return undefined;
    return this.#store.derived(
      `enclosing\0${row.file_id}\0${enclosing}`,
      () => this.#store.symbolInFile(row.file_id, enclosing),
    );
  }
}

/**
 * Whether a use concerns the asked definitions: it resolves to one of them, is ambiguous among
 * candidates including one, or is unresolved (kept: it may be one of them).
 */
function concerns(resolved: ReturnType<Resolver["resolve"]>, ids: Set<string>): boolean {
  if (resolved.resolution === "unresolved" || ids.size === 0) return true;
  return resolved.definitions.some((definition) => ids.has(definition.symbol_id));
}

/**
 * Definitions `ask` denotes, filtered by kind (and not by path: uses are what paths filter); a
 * `symbol_id` names its definition whatever the kinds asked.
 */
function definitionsOf(store: IndexStore, ask: SymbolAsk, options: QueryOptions): SymbolRow[] {
  const rows = askedDefinitions(store, ask);
  const kinds = options.kinds?.length && ask.symbol_id === undefined
    ? new Set(options.kinds)
    : undefined;
  return rows.filter((row) => !kinds || kinds.has(row.kind));
}

/**
 * Uses of a symbol (`callsOnly`: call sites only), each resolved, with `depth` > 1 following the
 * callers of the callers. An unknown name (no definition, no use) is `MAG-REF-001`; a
 * `symbol_id` keeps the uses that may denote its definition only (not those resolved to
 * another definition of the name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findUses } from "./queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(findUses({ root }, "main", { callsOnly: true }), { code: "MAG-IO-013" }); // no index
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function findUses(
  options: QueryOptions,
  symbol: string | SymbolAsk,
  how: { callsOnly: boolean; depth?: number },
): Promise<QueryOutcome<UseListData>> {
  const ask = askOf(symbol);
  return withIndex(options, async (store) => {
    const name = askText(ask);
    const definitions = definitionsOf(store, ask, options);
    const maxDepth = Math.min(how.depth ?? 1, SYMBOLS_DEFAULTS.maxDepth);
    const limit = options.limit ?? SYMBOLS_DEFAULTS.limit;
    const found = maxDepth === 1 && limit > 0
      ? firstUses(store, definitions, { name, callsOnly: how.callsOnly, options, limit })
      : { uses: transitiveUses(store, definitions, { name, ...how, options, maxDepth }) };
    if (definitions.length === 0 && found.uses.length === 0) throw await unknownSymbol(store, name);
    return useList(name, definitions, found, limit);
  });
}

/** Uses read per page at first, growing fourfold per page. */
const FIRST_USE_PAGE = 64;

/**
 * The first `limit` direct uses of `name` that concern `definitions`, in path order: the index
 * is read a page at a time and resolution stops once the limit is passed (resolving the 37,761
 * uses of `kfree` in the Linux tree took seconds). When it stops early, the count of the name's
 * uses in scope stands for the total.
 */
function firstUses(
  store: IndexStore,
  definitions: SymbolRow[],
  ask: { name: string; callsOnly: boolean; options: QueryOptions; limit: number },
): FoundUses {
  const query = {
    name: definitions[0]?.name ?? ownName(ask.name),
    callsOnly: ask.callsOnly,
    scopes: scopes(ask.options),
  };
  const resolver = new Resolver(store, storedDefinitions(store));
  const callers = new Callers(store);
  const ids = new Set(definitions.map((row) => row.symbol_id));
  const uses: UseRecord[] = [];
  let offset = 0;
  for (let size = FIRST_USE_PAGE;; size *= 4) {
    const page = store.usesPage(query, offset, size);
    offset += page.length;
    for (const row of page) {
      const resolved = resolver.resolve(row);
      if (!concerns(resolved, ids)) continue;
      uses.push(useRecord(row, callers.of(row), resolved, undefined));
      // One past the limit: the listing is cut.
      if (uses.length > ask.limit) {
        return { uses, stoppedAt: Math.max(store.useCount(query), uses.length) };
      }
    }
    if (page.length < size) return { uses };
  }
}

/** Every use of `name` concerning `definitions`, then of their callers up to `maxDepth`. */
function transitiveUses(
  store: IndexStore,
  definitions: SymbolRow[],
  ask: { name: string; callsOnly: boolean; options: QueryOptions; maxDepth: number },
): UseRecord[] {
  const { callsOnly, maxDepth } = ask;
  const filter = new RowFilter(ask.options);
  const resolver = new Resolver(store, storedDefinitions(store));
  const callers = new Callers(store);
  const uses: UseRecord[] = [];
  const seen = new Set<string>();
  let frontier = definitions;
  let names = [definitions[0]?.name ?? ownName(ask.name)];
  for (let depth = 1; depth <= maxDepth && names.length > 0; depth++) {
    const ids = new Set(frontier.map((row) => row.symbol_id));
    frontier.forEach((row) => seen.add(row.symbol_id));
    const next = new Map<string, SymbolRow>();
    for (const useName of new Set(names)) {
      for (const row of store.refsNamed(useName, callsOnly)) {
        const resolved = resolver.resolve(row);
        if (!concerns(resolved, ids)) continue;
        const caller = callers.of(row);
        if (filter.inScope(row.path)) {
          uses.push(useRecord(row, caller, resolved, maxDepth > 1 ? depth : undefined));
        }
        if (caller && !seen.has(caller.symbol_id)) next.set(caller.symbol_id, caller);
      }
    }
    frontier = [...next.values()];
    names = frontier.map((row) => row.name);
  }
  return uses;
}

/**
 * The calls made inside the definitions of a symbol (of its name, or the one of its
 * `symbol_id`), each resolved, with `depth` > 1 following the resolved callees. An unknown name
 * is `MAG-REF-001`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findCallees } from "./queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(findCallees({ root }, "main"), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function findCallees(
  options: QueryOptions,
  symbol: string | SymbolAsk,
  depth = 1,
): Promise<QueryOutcome<UseListData>> {
  const ask = askOf(symbol);
  return withIndex(options, async (store) => {
    const name = askText(ask);
    const filter = new RowFilter(options);
    const resolver = new Resolver(store, storedDefinitions(store));
    const definitions = definitionsOf(store, ask, options);
    if (definitions.length === 0) throw await unknownSymbol(store, name);
    const uses: UseRecord[] = [];
    const seen = new Set(definitions.map((row) => row.symbol_id));
    let frontier = definitions;
    const maxDepth = Math.min(depth, SYMBOLS_DEFAULTS.maxDepth);
    for (let level = 1; level <= maxDepth && frontier.length > 0; level++) {
      const next: SymbolRow[] = [];
      for (const caller of frontier) {
        for (const row of store.callsWithin(caller.file_id, caller.qualified_name)) {
          const resolved = resolver.resolve(row);
          if (filter.inScope(row.path)) {
            uses.push(useRecord(row, caller, resolved, maxDepth > 1 ? level : undefined));
          }
          const target = resolved.resolution === "resolved" ? resolved.definitions[0] : undefined;
          if (target && !seen.has(target.symbol_id)) {
            seen.add(target.symbol_id);
            next.push(target);
          }
        }
      }
      frontier = next;
    }
    return useList(name, definitions, { uses }, options.limit ?? SYMBOLS_DEFAULTS.limit);
  });
}

/** The indexed file `file` names, or `MAG-REF-002` with indexed paths of the same base name. */
function indexedFile(store: IndexStore, options: QueryOptions, file: string): FileRow {
  const realRoot = Deno.realPathSync(options.root);
  const path = displayPath(realRoot, resolve(options.cwd ?? options.root, file));
  const row = store.file(path);
  if (row) return row;
  const close = store.pathsNamed(basename(path));
  throw new ToolError(
    "MAG-REF-002",
    `${path} is not in the index`,
    close.length
      ? { file: path, note: `indexed files of that name: ${close.join(", ")}` }
      : { file: path },
  );
}

/**
 * The definitions of one file, in source order (an outline).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outlineFile } from "./queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(outlineFile({ root }, "a.c"), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function outlineFile(
  options: QueryOptions,
  file: string,
): Promise<QueryOutcome<SymbolListData>> {
  return withIndex(options, (store) => {
    const row = indexedFile(store, options, file);
    const filter = new RowFilter({ ...options, paths: [] });
    const kept = store.symbolsOfFile(row.id).filter((symbol) => filter.definition(symbol));
    const results: SymbolRecord[] = cut(kept, options.limit ?? 0).map(symbolRecord);
    return {
      data: {
        count: results.length,
        query: row.path,
        match: "file",
        total: kept.length,
        ambiguous: false,
        results,
      },
      diagnostics: [],
      partial: listingCut(results.length, kept.length),
    };
  });
}

/** The indexed file an import reaches, when one does. */
function importTarget(store: IndexStore, row: ImportRow): string | undefined {
  for (const pattern of importPatterns(row.language, row.path, row.target, row.kind)) {
    if (pattern.exact !== undefined) {
      if (store.file(pattern.exact)) return pattern.exact;
    } else {
      const found = store.pathsEndingWith(pattern.suffix!);
      if (found.length > 0) return found[0];
    }
  }
  return undefined;
}

function importList(
  path: string,
  records: ImportRecord[],
  limit: number,
): QueryOutcome<ImportListData> {
  const results = cut(records, limit);
  return {
    data: { count: results.length, file_path: path, total: records.length, results },
    diagnostics: [],
    partial: listingCut(results.length, records.length),
  };
}

/**
 * The imports and includes of one file, each with the indexed file it reaches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileImports } from "./queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(fileImports({ root }, "a.c"), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function fileImports(
  options: QueryOptions,
  file: string,
): Promise<QueryOutcome<ImportListData>> {
  return withIndex(options, (store) => {
    const row = indexedFile(store, options, file);
    const records = store.importsOfFile(row.id).map((imported) =>
      importRecord(imported, importTarget(store, imported))
    );
    return importList(row.path, records, options.limit ?? 0);
  });
}

/**
 * The imports of other files that reach one file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileImporters } from "./queries.ts";
 * const root = Deno.makeTempDirSync();
 * await assert.rejects(fileImporters({ root }, "a.h"), { code: "MAG-IO-013" }); // no index there
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function fileImporters(
  options: QueryOptions,
  file: string,
): Promise<QueryOutcome<ImportListData>> {
  return withIndex(options, (store) => {
    const row = indexedFile(store, options, file);
    const filter = new RowFilter(options);
    const stem = basename(row.path).replace(/\.[^.]*$/, "");
    const name = stem === "index" || stem === "__init__" || stem === "mod"
      ? basename(row.path.slice(0, row.path.lastIndexOf("/")))
      : stem;
    const records = store.importsMentioning(name)
      .filter((imported) => imported.file_id !== row.id && filter.inScope(imported.path))
      .filter((imported) =>
        importPatterns(imported.language, imported.path, imported.target, imported.kind)
          .some((pattern) => patternMatches(pattern, row.path)) &&
        importTarget(store, imported) === row.path
      )
      .map((imported) => importRecord(imported, row.path));
    return importList(row.path, records, options.limit ?? SYMBOLS_DEFAULTS.limit);
  });
}
