/**
 * The indexed file list as a walk: a {@linkcode RunCache} that hands the walker the walk the
 * index recorded, when the requested walk has the same settings. The walker checks the stamps
 * of every directory and ignore file of that walk before using it (one stat per directory, not
 * a read of every directory), and walks for real when one changed.
 *
 * @module
 */
import type { FileVersion, RunCache } from "../cache.ts";
import type { WalkRecord } from "../walk/walk_cache.ts";
import type { WalkEntry } from "../walk/walk_entry.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import { ENTRY_FLAGS } from "./format.ts";
import { sameShape, walkShape } from "./meta.ts";
import type { IndexListing } from "./reader.ts";

/** The walker's cache key prefix (see `Walker`). */
const KEY_PREFIX = "walk\0";

/**
 * An entry of the index's listing. Only its path, kind and whether it is the root are stored:
 * the other fields are derived when read, since most consumers read few of them (discover reads
 * the absolute path of its best few results only). Building all of them for the Linux tree's
 * 83,354 entries cost a fresh process 34–37 ms; this costs 5.
 */
class ListedEntry implements WalkEntry {
  readonly filePath: string;
  readonly kind: "file" | "dir";
  readonly explicit: boolean;
  readonly #cwd: string;
  /** Kept once built: a host's search reads it for every file on every call. */
  #absPath: string | undefined;

  constructor(cwd: string, filePath: string, kind: "file" | "dir") {
    this.#cwd = cwd;
    this.filePath = filePath;
    this.kind = kind;
    this.explicit = filePath === ".";
  }

  get absPath(): string {
    return this.#absPath ??= this.explicit ? this.#cwd : `${this.#cwd}/${this.filePath}`;
  }

  get name(): string {
    const path = this.explicit ? this.#cwd : this.filePath;
    return path.slice(path.lastIndexOf("/") + 1);
  }

  get depth(): number {
    if (this.explicit) return 0;
    let depth = 1;
    const path = this.filePath;
    for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) depth++;
    return depth;
  }
}

/** The entries of the indexed walk, with and without directories, built once per listing. */
const entriesOf = new WeakMap<IndexListing, Map<boolean, WalkEntry[]>>();

/** The listing's walk entries, kept for the next walk (a long-lived host walks many times). */
function keptEntries(listing: IndexListing, includeDirs: boolean): WalkEntry[] {
  let built = entriesOf.get(listing);
  if (!built) entriesOf.set(listing, built = new Map());
  let entries = built.get(includeDirs);
  if (!entries) built.set(includeDirs, entries = [...listedEntries(listing, includeDirs)]);
  return entries;
}

/**
 * The listing's walk entries, each built as it is read and its path taken from the listing's
 * text then: a walk read once keeps none of them alive.
 */
function* listedEntries(listing: IndexListing, includeDirs: boolean): Generator<WalkEntry> {
  const cwd = listing.meta.walk.shape.cwd;
  const { pathText, flags } = listing;
  for (let id = 0, start = 0; id < flags.length; id++) {
    const end = id === flags.length - 1 ? pathText.length : pathText.indexOf("\n", start);
    const dir = (flags[id] & ENTRY_FLAGS.dir) !== 0;
    if (includeDirs || !dir) {
      yield new ListedEntry(cwd, pathText.slice(start, end), dir ? "dir" : "file");
    }
    start = end + 1;
  }
}

/**
 * A walk cache serving the index's recorded walk to a walker of `tool` (its diagnostics take
 * that tool's name and code prefix).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { IndexWalkSource } from "./walk_source.ts";
 * import { buildTrigramIndex } from "./build.ts";
 * import { indexPathOf, openIndexListing } from "./reader.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.txt`, "hello\n");
 * buildTrigramIndex({ root });
 * const index = openIndexListing(indexPathOf(root));
 * assert.ok(index);
 * const source = new IndexWalkSource(index, "llm-search", "LMS");
 * assert.equal(source.served, false); // until a walker takes the indexed walk
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export class IndexWalkSource implements RunCache {
  readonly #index: IndexListing;
  readonly #tool: string;
  readonly #prefix: CodePrefix;
  readonly #oneShot: boolean;
  /** Whether the walker took the indexed walk (its stamps all held). */
  served = false;

  /**
   * A source over the listing `index` for walks of `tool`. With `oneShot`, for a run that walks
   * once, the walk's entries are built as the walker reads them and not kept; else they are
   * built once and kept for the next walk.
   */
  constructor(index: IndexListing, tool: string, prefix: CodePrefix, oneShot = false) {
    this.#index = index;
    this.#tool = tool;
    this.#prefix = prefix;
    this.#oneShot = oneShot;
  }

  get<T>(namespace: string, key: string, _version: FileVersion): T | undefined {
    const index = this.#index;
    const walk = index.meta.walk;
    if (namespace !== "walk" || !walk.trusted || !key.startsWith(KEY_PREFIX)) return undefined;
    const requested = JSON.parse(key.slice(KEY_PREFIX.length));
    if (!sameShape(walkShape(requested), walk.shape)) return undefined;
    const includeDirs = requested.includeDirs === true;
    const record: WalkRecord = {
      entries: this.#oneShot
        ? { [Symbol.iterator]: () => listedEntries(index, includeDirs) }
        : keptEntries(index, includeDirs),
      diagnostics: walk.diagnostics.map((diagnostic) => ({
        ...diagnostic,
        tool: this.#tool,
        code: diagnostic.code.replace(/^LMS-/, `${this.#prefix}-`),
      })),
      stamps: new Map(walk.stamps),
      ancestorStamps: new Map(walk.ancestorStamps),
    };
    this.served = true;
    return record as T;
  }

  /** A walk that did not hold is walked again; nothing is stored (the index is read-only). */
  set(): void {}

  invalidate(): void {
    this.served = false;
  }

  resource<T extends Disposable>(_key: string, open: () => T): T {
    return open();
  }

  close(): void {}
}
