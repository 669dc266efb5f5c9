/**
 * Relationships on the spans of other tools' results (contract §5, `--with-callers` and
 * friends): each result's enclosing symbol is looked up in the symbol index by file and byte
 * span, and its callers, its callees, its file's imports and its file's top-level definitions
 * (what other files can name: the exports) are filled in from the index. Calls are resolved by
 * the index's one resolver (`resolve.ts`), as `llm-symbols callers` and `callees` resolve them:
 * a caller is a definition whose call resolves to the symbol (or is ambiguous among candidates
 * including it).
 *
 * A result is filled only when its file is fresh in the index (same size, time and content
 * hash as when indexed): the spans of a changed file may name other code. Stale files are
 * skipped and counted in one note; without an index the results stay as they are, with a note
 * that says how to build one.
 *
 * @module
 */
import { join } from "../path_syntax.ts";
import { sha256 } from "../../schema/checksum.ts";
import { type Diagnostic, makeDiagnostic, ToolError } from "../../schema/diagnostic.ts";
import type { Relationships, SymbolRef } from "../../schema/extensions.ts";
import { spanOf, symbolRef } from "./records.ts";
import { Resolver, storedDefinitions } from "./resolve.ts";
import { type FileRow, IndexStore, locateDb, type RefRow, type SymbolRow } from "./store.ts";
import { stampAgainst } from "../racy_stamp.ts";

/** Which relationships to fill. */
export interface RelationshipKinds {
  /** Definitions that call the enclosing symbol. */
  callers: boolean;
  /** What the enclosing symbol calls. */
  callees: boolean;
  /** The file's imports and includes. */
  imports: boolean;
  /** The file's top-level definitions. */
  exports: boolean;
}

/** Entries of one relationship list at most; a longer list is cut and says so in `tool_hints`. */
export const MAX_RELATED = 100;

/** A result that carries a span and may carry relationships. */
interface Related {
  span?: { file_path?: unknown; byte_start?: unknown; byte_end?: unknown };
  relationships?: Relationships;
  tool_hints?: string[];
}

/** An indexed file that is fresh on disk, with its definitions by position. */
interface FreshFile {
  row: FileRow;
  symbols: SymbolRow[];
}

function isRelated(item: unknown): item is Related {
  return typeof item === "object" && item !== null && "span" in item;
}

/** Appends `ref` unless one with the same id (or, without an id, name and span) is there. */
function addUnique(list: SymbolRef[], seen: Set<string>, ref: SymbolRef): void {
  const key = ref.symbol_id ?? `${ref.name}\0${ref.span?.span_id ?? ""}`;
  if (seen.has(key)) return;
  seen.add(key);
  list.push(ref);
}

/**
 * Fills the relationships of results from the index of a root (see the module).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SpanRelations } from "./relationships.ts";
 * const root = Deno.makeTempDirSync();
 * const kinds = { callers: true, callees: false, imports: false, exports: false };
 * const relations = SpanRelations.open("llm-search", root, kinds);
 * assert.deepEqual(relations.diagnostics().map((diagnostic) => diagnostic.code), ["MAG-IO-018"]);
 * relations.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export class SpanRelations {
  readonly #tool: string;
  readonly #root: string;
  readonly #kinds: RelationshipKinds;
  readonly #store: IndexStore | undefined;
  readonly #resolver: Resolver | undefined;
  readonly #notes: Diagnostic[] = [];
  readonly #files = new Map<string, FreshFile | undefined>();
  readonly #staleFiles = new Set<string>();
  readonly #computed = new Map<string, SymbolRef[]>();
  #staleResults = 0;

  private constructor(
    tool: string,
    root: string,
    kinds: RelationshipKinds,
    store: IndexStore | undefined,
  ) {
    this.#tool = tool;
    this.#root = root;
    this.#kinds = kinds;
    this.#store = store;
    this.#resolver = store ? new Resolver(store, storedDefinitions(store)) : undefined;
  }

  /**
   * Opens the index of `root` read-only. Without an index (or with one that is refused) the
   * results are left as they are and {@linkcode SpanRelations.diagnostics} says why.
   */
  static open(tool: string, root: string, kinds: RelationshipKinds): SpanRelations {
    const realRoot = Deno.realPathSync(root);
    try {
      const store = IndexStore.open(locateDb(realRoot, undefined, false), "read");
      return new SpanRelations(tool, realRoot, kinds, store);
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      const relations = new SpanRelations(tool, realRoot, kinds, undefined);
      relations.#notes.push(relations.#noIndex(error));
      return relations;
    }
  }

  #noIndex(error: ToolError): Diagnostic {
    if (error.code !== "MAG-IO-013") {
      return makeDiagnostic(this.#tool, error.code, `no relationships: ${error.message}`, {
        level: "warning",
        ...(error.details.file ? { file: error.details.file } : {}),
      });
    }
    return makeDiagnostic(
      this.#tool,
      "MAG-IO-018",
      "no relationships: there is no symbol index in this root; build one with " +
        "`llm-symbols index` (deno run --allow-read --allow-write=.llm jsr:@llm/search/symbols index)",
      { level: "warning", file: error.details.file },
    );
  }

  /** Fills `item.relationships` when `item` has a span in a fresh indexed file; returns `item`. */
  annotate<T>(item: T): T {
    if (!this.#store || !isRelated(item)) return item;
    const { file_path, byte_start, byte_end } = item.span ?? {};
    if (typeof file_path !== "string" || typeof byte_start !== "number") return item;
    const file = this.#fresh(file_path);
    if (!file) {
      if (this.#staleFiles.has(file_path)) this.#staleResults++;
      return item;
    }
    const end = typeof byte_end === "number" ? byte_end : byte_start;
    const symbol = enclosing(file.symbols, byte_start, end);
    const relationships: Relationships = {};
    const hints: string[] = [];
    const fill = (key: keyof Relationships, list: SymbolRef[], how: string) => {
      relationships[key] = list.slice(0, MAX_RELATED);
      if (list.length > MAX_RELATED) {
        hints.push(`${key} cut at ${MAX_RELATED} of ${list.length}: ${how} lists them all`);
      }
    };
    if (symbol && this.#kinds.callers) {
      fill("callers", this.#callers(symbol), `llm-symbols callers ${symbol.qualified_name}`);
    }
    if (symbol && this.#kinds.callees) {
      fill("callees", this.#callees(symbol), `llm-symbols callees ${symbol.qualified_name}`);
    }
    if (this.#kinds.imports) {
      fill("imports", this.#imports(file.row), `llm-symbols imports ${file.row.path}`);
    }
    if (this.#kinds.exports) {
      fill("exports", this.#exports(file), `llm-symbols outline ${file.row.path}`);
    }
    item.relationships = relationships;
    if (hints.length) item.tool_hints = [...item.tool_hints ?? [], ...hints];
    return item;
  }

  /** Notes for the envelope: no index, or results skipped because their file changed. */
  diagnostics(): Diagnostic[] {
    if (this.#staleResults === 0) return [...this.#notes];
    const files = [...this.#staleFiles].sort();
    return [
      ...this.#notes,
      makeDiagnostic(
        this.#tool,
        "MAG-IO-019",
        `${this.#staleResults} result(s) in ${files.length} file(s) changed since the last ` +
          `index run have no relationships: ${files.slice(0, 3).join(", ")}${
            files.length > 3 ? ", …" : ""
          }`,
        { level: "note", file: files[0] },
      ),
    ];
  }

  /** Closes the index. */
  close(): void {
    this.#store?.close();
  }

  /** The indexed file at `path` when it is fresh on disk (stale ones are remembered). */
  #fresh(path: string): FreshFile | undefined {
    if (this.#files.has(path)) return this.#files.get(path);
    const row = this.#store!.file(path);
    let file: FreshFile | undefined;
    if (row) {
      if (this.#matchesDisk(row)) file = { row, symbols: this.#store!.symbolsOfFile(row.id) };
      else this.#staleFiles.add(path);
    }
    this.#files.set(path, file);
    return file;
  }

  #matchesDisk(row: FileRow): boolean {
    const absPath = join(this.#root, row.path);
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(absPath);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
    if (stampAgainst(row, info) === "moved") return false;
    return sha256(Deno.readFileSync(absPath)) === row.hash;
  }

  #memo(key: string, compute: () => SymbolRef[]): SymbolRef[] {
    let list = this.#computed.get(key);
    if (!list) {
      list = compute();
      this.#computed.set(key, list);
    }
    return list;
  }

  /** Definitions whose calls resolve to `symbol` (or are ambiguous among candidates with it). */
  #callers(symbol: SymbolRow): SymbolRef[] {
    return this.#memo(`callers\0${symbol.symbol_id}`, () => {
      const list: SymbolRef[] = [];
      const seen = new Set<string>();
      for (const row of this.#store!.refsNamed(symbol.name, true)) {
        const resolved = this.#resolver!.resolve(row);
        if (!resolved.definitions.some((d) => d.symbol_id === symbol.symbol_id)) continue;
        addUnique(list, seen, this.#callerOf(row));
      }
      return list;
    });
  }

  /** The definition a call sits in, or the file (kind `module`) for a call at file scope. */
  #callerOf(row: RefRow): SymbolRef {
    const caller = row.enclosing
      ? this.#store!.symbolInFile(row.file_id, row.enclosing)
      : undefined;
    return caller ? symbolRef(caller) : { name: row.path, kind: "module", span: spanOf(row) };
  }

  /** What `symbol` calls: each resolved definition, or the call site when unresolved. */
  #callees(symbol: SymbolRow): SymbolRef[] {
    return this.#memo(`callees\0${symbol.symbol_id}`, () => {
      const list: SymbolRef[] = [];
      const seen = new Set<string>();
      for (const row of this.#store!.callsWithin(symbol.file_id, symbol.qualified_name)) {
        const resolved = this.#resolver!.resolve(row);
        addUnique(
          list,
          seen,
          resolved.resolution === "resolved"
            ? symbolRef(resolved.definitions[0])
            : { name: row.name, span: spanOf(row) },
        );
      }
      return list;
    });
  }

  #imports(row: FileRow): SymbolRef[] {
    return this.#memo(
      `imports\0${row.id}`,
      () =>
        this.#store!.importsOfFile(row.id).map((imported) => ({
          name: imported.target,
          kind: imported.kind,
          span: spanOf(imported),
        })),
    );
  }

  #exports(file: FreshFile): SymbolRef[] {
    return this.#memo(
      `exports\0${file.row.id}`,
      () => file.symbols.filter((symbol) => !symbol.parent).map(symbolRef),
    );
  }
}

/**
 * The innermost definition whose extent holds `[start, end)`, from definitions sorted by start
 * (and, at one start, longest first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { enclosing } from "./relationships.ts";
 * const outer = { byte_start: 0, byte_end: 100 }, inner = { byte_start: 10, byte_end: 50 };
 * assert.equal(enclosing([outer, inner], 20, 25), inner);
 * ```
 */
export function enclosing<T extends { byte_start: number; byte_end: number }>(
  symbols: readonly T[],
  start: number,
  end: number,
): T | undefined {
  let found: T | undefined;
  for (const symbol of symbols) {
    if (symbol.byte_start > start) break;
    if (end <= symbol.byte_end) found = symbol;
  }
  return found;
}
