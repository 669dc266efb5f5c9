/**
 * The indexed file list as a walk: a {@linkcode RunCache} that hands the walker the walk the
 * index recorded, when the requested walk has the same settings. The walker checks the stamps
 * of every directory and ignore file of that walk before using it (one stat per directory, not
 * a read of every directory), and walks for real when one changed.
 *
 * @module
 */
import type { FileStamp, RunCache } from "../cache.ts";
import type { WalkRecord } from "../walk/walk_cache.ts";
import type { WalkEntry } from "../walk/walk_entry.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import { ENTRY_FLAGS } from "./format.ts";
import { sameShape, walkShape } from "./meta.ts";
import type { TrigramIndex } from "./reader.ts";

/** The walker's cache key prefix (see `Walker`). */
const KEY_PREFIX = "walk\0";

/** The entries of the indexed walk, built once per opened index. */
const entriesOf = new WeakMap<TrigramIndex, WalkEntry[]>();

function indexedEntries(index: TrigramIndex): WalkEntry[] {
  let entries = entriesOf.get(index);
  if (entries) return entries;
  const cwd = index.meta.walk.shape.cwd;
  const rootName = cwd.split("/").pop() ?? cwd;
  entries = index.paths.map((filePath, id) => {
    const root = filePath === ".";
    const slash = filePath.lastIndexOf("/");
    let depth = 1;
    for (let at = filePath.indexOf("/"); at !== -1; at = filePath.indexOf("/", at + 1)) depth++;
    return {
      absPath: root ? cwd : `${cwd}/${filePath}`,
      filePath,
      name: root ? rootName : filePath.slice(slash + 1),
      kind: index.arrays.flags[id] & ENTRY_FLAGS.dir ? "dir" : "file",
      depth: root ? 0 : depth,
      explicit: root,
    };
  });
  entriesOf.set(index, entries);
  return entries;
}

/**
 * A walk cache serving the index's recorded walk to a walker of `tool` (its diagnostics take
 * that tool's name and code prefix).
 *
 * @example
 * ```ts
 * import { IndexWalkSource } from "./walk_source.ts";
 * import { openIndex } from "./reader.ts";
 * const index = openIndex(Deno.cwd() + "/.llm/trigram.idx");
 * if (index) new IndexWalkSource(index, "llm-search", "LMS");
 * ```
 */
export class IndexWalkSource implements RunCache {
  readonly #index: TrigramIndex;
  readonly #tool: string;
  readonly #prefix: CodePrefix;
  /** Whether the walker took the indexed walk (its stamps all held). */
  served = false;

  /** A source over `index` for walks of `tool`. */
  constructor(index: TrigramIndex, tool: string, prefix: CodePrefix) {
    this.#index = index;
    this.#tool = tool;
    this.#prefix = prefix;
  }

  get<T>(namespace: string, key: string, _stamp: FileStamp): T | undefined {
    const walk = this.#index.meta.walk;
    if (namespace !== "walk" || !walk.trusted || !key.startsWith(KEY_PREFIX)) return undefined;
    const requested = JSON.parse(key.slice(KEY_PREFIX.length));
    if (!sameShape(walkShape(requested), walk.shape)) return undefined;
    const all = indexedEntries(this.#index);
    const entries = requested.includeDirs ? all : all.filter((entry) => entry.kind === "file");
    const record: WalkRecord = {
      entries,
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
