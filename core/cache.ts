/**
 * A cache that long-lived hosts (the MCP server) hand to runs so repeated work on unchanged
 * files is skipped. Entries are kept with the version of the file they are valid for (its size
 * and mtime and, where the caller has it, a checksum) and are dropped when the version no longer
 * matches or a mutating tool reports the path as changed. One-shot CLI runs pass no cache.
 * Besides such values, a cache
 * holds resources that keep themselves fresh (an open index database with its file watcher):
 * opened on first use, kept across invalidations, disposed when the host closes the cache.
 *
 * @module
 */
import { racyStamp } from "./racy_stamp.ts";

/** What identifies a version of a file without reading it: what a cached value is valid for. */
export interface FileVersion {
  /** Size in bytes. */
  size: number;
  /** Modification time in ms since the epoch. */
  mtimeMs: number;
  /** `sha256:` of the bytes, when the caller computed it. */
  checksum?: string;
}

/** The cache interface engines use. */
export interface RunCache {
  /** The value stored under `(namespace, key)` if it was stored with an equal version. */
  get<T>(namespace: string, key: string, version: FileVersion): T | undefined;
  /** Stores a value with the version of the file it is valid for. */
  set<T>(namespace: string, key: string, version: FileVersion, value: T): void;
  /** Drops every entry whose key is `absPath` (or everything when no path is given). */
  invalidate(absPath?: string): void;
  /**
   * The resource kept under `key`, opened by `open` on first use. A resource keeps itself fresh
   * (invalidation leaves it alone) and lives until {@linkcode RunCache.close}.
   */
  resource<T extends Disposable>(key: string, open: () => T): T;
  /** Disposes every resource (a host that shuts down calls it). */
  close(): void;
}

interface Stored {
  version: FileVersion;
  value: unknown;
  storedAt: number;
}

function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs &&
    (a.checksum === undefined || b.checksum === undefined || a.checksum === b.checksum);
}

/**
 * An in-memory {@linkcode RunCache} bounded by entry count (oldest entries go first).
 *
 * With a racy window (the MCP server uses one), an entry whose file was modified less than that
 * many milliseconds before the entry was stored is not trusted (git's "racily clean" rule): an
 * edit that keeps the size and lands in the same mtime tick as the read would otherwise go
 * unseen. Such an entry is recomputed once more; later entries of an unchanged file are kept.
 *
 * @example Cache per-file results by file version
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryCache } from "@llm/search";
 * const cache = new MemoryCache();
 * cache.set("matches", "/repo/a.ts", { size: 3, mtimeMs: 1 }, ["x"]);
 * assert.deepEqual(cache.get("matches", "/repo/a.ts", { size: 3, mtimeMs: 1 }), ["x"]);
 * assert.equal(cache.get("matches", "/repo/a.ts", { size: 4, mtimeMs: 2 }), undefined);
 * ```
 */
export class MemoryCache implements RunCache {
  readonly #entries = new Map<string, Map<string, Stored>>();
  readonly #maxEntries: number;
  readonly #racyWindowMs: number;
  readonly #resources = new Map<string, Disposable>();
  #size = 0;

  /**
   * A cache holding at most `maxEntries` values; entries of files modified within
   * `racyWindowMs` before they were stored are not trusted (no checksum in the version).
   */
  constructor(maxEntries = 200_000, racyWindowMs = 0) {
    this.#maxEntries = maxEntries;
    this.#racyWindowMs = racyWindowMs;
  }

  get<T>(namespace: string, key: string, version: FileVersion): T | undefined {
    const stored = this.#entries.get(key)?.get(namespace);
    if (!stored || !sameVersion(stored.version, version)) return undefined;
    const racy = this.#racyWindowMs > 0 && stored.version.checksum === undefined &&
      racyStamp(stored.version.mtimeMs, stored.storedAt, this.#racyWindowMs);
    return racy ? undefined : stored.value as T;
  }

  set<T>(namespace: string, key: string, version: FileVersion, value: T): void {
    let byNamespace = this.#entries.get(key);
    if (!byNamespace) {
      if (this.#size >= this.#maxEntries) this.#evictOldest();
      byNamespace = new Map();
      this.#entries.set(key, byNamespace);
    }
    if (!byNamespace.has(namespace)) this.#size++;
    byNamespace.set(namespace, { version, value, storedAt: Date.now() });
  }

  invalidate(absPath?: string): void {
    if (absPath === undefined) {
      this.#entries.clear();
      this.#size = 0;
      return;
    }
    const removed = this.#entries.get(absPath);
    if (!removed) return;
    this.#size -= removed.size;
    this.#entries.delete(absPath);
  }

  resource<T extends Disposable>(key: string, open: () => T): T {
    let resource = this.#resources.get(key);
    if (!resource) {
      resource = open();
      this.#resources.set(key, resource);
    }
    return resource as T;
  }

  close(): void {
    const resources = [...this.#resources.values()];
    this.#resources.clear();
    for (const resource of resources) resource[Symbol.dispose]();
  }

  #evictOldest(): void {
    const oldest = this.#entries.keys().next();
    if (!oldest.done) this.invalidate(oldest.value);
  }
}
