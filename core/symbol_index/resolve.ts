/**
 * Call and reference resolution: which definition a use of a name denotes. The nearest
 * definitions win: the use's own file (and, inside it, the use's own scope: a sibling member of
 * the enclosing definition's parent), then the files its file imports or includes, then a name
 * defined once in the whole index. Several definitions equally near make the use ambiguous
 * (their ids listed), none make it unresolved; either way it is kept.
 *
 * @module
 */
import type { Resolution, ResolutionScope } from "../../schema/symbols.ts";
import { importPatterns, type PathPattern, patternMatches } from "./import_paths.ts";
import type { IndexStore, RefRow, SymbolRow } from "./store.ts";

/** Kinds a call can reach. */
const CALLABLE_KINDS = new Set(["function", "method", "macro", "class", "struct", "constructor"]);

/** What resolution needs to know about a definition. */
export type Definition = Pick<
  SymbolRow,
  "name" | "kind" | "file_id" | "path" | "language" | "parent"
>;

/** How one use resolved. */
export interface UseResolution<D extends Definition = SymbolRow> {
  /** The status. */
  resolution: Resolution;
  /** Where the definition(s) were found. */
  scope?: ResolutionScope;
  /** The definitions: one when resolved, several when ambiguous, none when unresolved. */
  definitions: D[];
}

/** What resolution needs to know about a use. */
export type UseSite = Pick<
  RefRow,
  "name" | "is_call" | "enclosing" | "file_id" | "path" | "language"
>;

/** The parent part of a qualified name (`A.B.f` → `A.B`), or "" at file scope. */
function parentOf(qualifiedName: string): string {
  const cut = Math.max(qualifiedName.lastIndexOf("."), qualifiedName.lastIndexOf("::"));
  return cut < 0 ? "" : qualifiedName.slice(0, cut);
}

/** Narrows definitions of the use's own file to its scope when that picks fewer. */
function nearestInScope<D extends Definition>(definitions: D[], use: UseSite): D[] {
  if (definitions.length < 2 || !use.enclosing) return definitions;
  const scopes = [use.enclosing, parentOf(use.enclosing)];
  for (const scope of scopes) {
    const inScope = definitions.filter((definition) => (definition.parent ?? "") === scope);
    if (inScope.length > 0) return inScope;
  }
  return definitions;
}

/** Source files that define what a header declares: `util.h` → `util.c`, `util.cpp`, … */
const SOURCE_EXTENSIONS = [".c", ".cc", ".cpp", ".cxx"];
const HEADER = /\.(h|hh|hpp|hxx)$/;

/**
 * The patterns of the source files beside an included header (C and C++ declare in the header
 * and define in the source of the same stem), so a call through an include resolves there.
 */
function companions(pattern: PathPattern): PathPattern[] {
  const text = pattern.exact ?? pattern.suffix!;
  if (!HEADER.test(text)) return [];
  return SOURCE_EXTENSIONS.map((extension) => {
    const swapped = text.replace(HEADER, extension);
    return pattern.exact !== undefined ? { exact: swapped } : { suffix: swapped };
  });
}

/**
 * The definitions of the index whose own name is `name` (the lookup of a {@linkcode Resolver}
 * that asks the index name by name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedDefinitions } from "./resolve.ts";
 * import { IndexStore, locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * assert.deepEqual(storedDefinitions(store)("main"), []); // an empty index
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function storedDefinitions(store: IndexStore): (name: string) => SymbolRow[] {
  return (name) => store.symbolsNamed(name).filter((row) => row.name === name);
}

/**
 * Resolves uses against one index, caching definitions by name and import patterns by file.
 * Definitions come from `lookup`: the index name by name for a query, or definitions already
 * loaded (of any shape holding what resolution reads) for a walk of the whole graph.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Resolver, storedDefinitions } from "./resolve.ts";
 * import { IndexStore, locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * const use = { name: "f", is_call: 1, enclosing: null, file_id: 1, path: "a.c", language: "c" };
 * assert.equal(new Resolver(store, storedDefinitions(store)).resolve(use).resolution, "unresolved");
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export class Resolver<D extends Definition = SymbolRow> {
  readonly #store: IndexStore;
  readonly #lookup: (name: string) => D[];
  readonly #definitions = new Map<string, D[]>();
  readonly #imports = new Map<number, PathPattern[]>();
  readonly #answers = new Map<string, UseResolution<D>>();

  /** A resolver over `store` (for imports) whose definitions by name come from `lookup`. */
  constructor(store: IndexStore, lookup: (name: string) => D[]) {
    this.#store = store;
    this.#lookup = lookup;
  }

  /** Definitions whose own name is `name`. */
  definitionsNamed(name: string): D[] {
    let found = this.#definitions.get(name);
    if (!found) {
      found = this.#lookup(name);
      this.#definitions.set(name, found);
    }
    return found;
  }

  #importPatterns(use: UseSite): PathPattern[] {
    let patterns = this.#imports.get(use.file_id);
    if (!patterns) {
      // Kept by the store while the index is unchanged: a long-lived host's next query of a
      // use in the same file reads nothing again.
      patterns = this.#store.derived(
        `import-patterns\0${use.file_id}`,
        () =>
          this.#store.importsOfFile(use.file_id).flatMap((row) => {
            const direct = importPatterns(use.language, use.path, row.target, row.kind);
            return row.kind === "include" ? [...direct, ...direct.flatMap(companions)] : direct;
          }),
      );
      this.#imports.set(use.file_id, patterns);
    }
    return patterns;
  }

  /**
   * The definition(s) `use` denotes, nearest first. Answers that do not depend on the use's
   * enclosing definition (all but a choice among several in its own file) are cached by file,
   * name and call-or-not: a whole-index walk asks the same question from every function of a
   * file.
   */
  resolve(use: UseSite): UseResolution<D> {
    const key = `${use.file_id}\0${use.is_call}\0${use.name}`;
    const cached = this.#answers.get(key);
    if (cached) return cached;
    const { resolution, scopeFree } = this.#resolve(use);
    if (scopeFree) this.#answers.set(key, resolution);
    return resolution;
  }

  #resolve(use: UseSite): { resolution: UseResolution<D>; scopeFree: boolean } {
    const answer = (resolution: UseResolution<D>) => ({ resolution, scopeFree: true });
    let definitions = this.definitionsNamed(use.name);
    if (use.is_call) {
      const callable = definitions.filter((row) => CALLABLE_KINDS.has(row.kind));
      if (callable.length > 0) definitions = callable;
    }
    if (definitions.length === 0) return answer({ resolution: "unresolved", definitions: [] });
    const sameFile = definitions.filter((row) => row.file_id === use.file_id);
    if (sameFile.length > 0) {
      return {
        resolution: this.#verdict(nearestInScope(sameFile, use), "file"),
        scopeFree: sameFile.length < 2,
      };
    }
    const others = definitions.filter((row) => row.language === use.language);
    const candidates = others.length > 0 ? others : definitions;
    const patterns = this.#importPatterns(use);
    const imported = candidates.filter((row) =>
      patterns.some((pattern) => patternMatches(pattern, row.path))
    );
    if (imported.length > 0) return answer(this.#verdict(imported, "import"));
    return answer(this.#verdict(candidates, "global"));
  }

  #verdict(definitions: D[], scope: ResolutionScope): UseResolution<D> {
    return { resolution: definitions.length === 1 ? "resolved" : "ambiguous", scope, definitions };
  }
}
