/**
 * Walk lists kept by a long-lived host (the MCP server): a finished walk is stored with the
 * modification time of every directory it read and the stamp of every ignore file that shaped
 * it. Adding, removing or renaming an entry changes its directory's mtime, and editing an ignore
 * file changes that file's stamp, so a walk is reused only while all of them are unchanged —
 * checking them costs one stat per directory instead of reading every directory again.
 *
 * @module
 */
import type { Diagnostic } from "../../schema/diagnostic.ts";
import type { RunCache } from "../cache.ts";
import { dirname, sep } from "../path_syntax.ts";
import { racyStamp } from "../racy_stamp.ts";
import type { WalkEntry } from "./walk_entry.ts";
import { ANCESTOR_STAMPS } from "./ignore_rules.ts";

/** What a finished walk leaves in the cache. */
export interface WalkRecord {
  /**
   * The entries, in walk order: an array, except where a one-shot run reads the repository
   * index's listing (`IndexWalkSource`), which builds them as they are read.
   */
  entries: readonly WalkEntry[] | Iterable<WalkEntry>;
  /** The walk's diagnostics. */
  diagnostics: Diagnostic[];
  /** Path → modification time (ms), or -1 for a path that did not exist: the walked tree. */
  stamps: Map<string, number>;
  /**
   * The same for the roots' ancestors (a `.git` or an ignore file appearing above a root changes
   * the walk). Ancestors such as `/tmp` change all the time for other reasons, so a recent
   * change there does not keep a walk from being stored; any change still invalidates it.
   */
  ancestorStamps: Map<string, number>;
}

/** Cache namespace of walk records. */
const NAMESPACE = "walk";
/** The cache's own file version is unused: a record carries its stamps. */
const NO_VERSION = { size: 0, mtimeMs: 0 };

/** Modification time of `path` in ms, or -1 when it does not exist. */
export function mtimeOf(path: string): number {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? -1;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return -1;
    }
    throw error;
  }
}

/** Whether this process may read `path` (asked without a prompt). */
function mayRead(path: string): boolean {
  return Deno.permissions.querySync({ name: "read", path }).state === "granted";
}

/** The directory above a root that `path`, an ancestor stamp's path, lies in. */
function ancestorOf(path: string): string {
  const name = ANCESTOR_STAMPS.find((name) => path.endsWith(sep + name.replaceAll("/", sep)));
  let directory = path;
  for (let up = name?.split("/").length ?? 1; up > 0; up--) directory = dirname(directory);
  return directory;
}

/**
 * Whether the stamps of the directories above a root still hold for this process's walk. That
 * walk reads the directories above its root up to the first one it may not read
 * (`ancestorDirs`); the record may come from a process with wider read permission (the
 * repository index's builder). A stamp in a directory this walk reads must still hold; one in
 * a directory it does not read holds only if the path did not exist when recorded — the
 * recorded walk then got nothing from it either, so the two walks agree.
 */
function ancestorStampsHold(stamps: ReadonlyMap<string, number>): boolean {
  const byDirectory = Map.groupBy(stamps, ([path]) => ancestorOf(path));
  // They are all above one root: the longest is the nearest.
  const nearestFirst = [...byDirectory.keys()].sort((a, b) => b.length - a.length);
  let read = true;
  for (const directory of nearestFirst) {
    read &&= mayRead(directory);
    for (const [path, mtime] of byDirectory.get(directory)!) {
      if (read ? !stampHolds(path, mtime) : mtime !== -1) return false;
    }
  }
  return true;
}

/** Whether every stamp of the walked tree still holds (one stat per directory, no copy). */
function treeStampsHold(stamps: ReadonlyMap<string, number>): boolean {
  for (const [path, mtime] of stamps) if (!stampHolds(path, mtime)) return false;
  return true;
}

/**
 * Whether `path` still has modification time `mtime`. A path this process may not read cannot
 * be checked (a host's walk is recorded under the permissions it runs with), so it does not.
 */
function stampHolds(path: string, mtime: number): boolean {
  try {
    return mtimeOf(path) === mtime;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return false;
    throw error;
  }
}

/**
 * The stored walk for `key` when every stamp it recorded still holds, else `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryCache } from "@llm/search";
 * import { cachedWalk } from "./walk_cache.ts";
 * assert.equal(cachedWalk(new MemoryCache(), "{}"), undefined);
 * ```
 */
export function cachedWalk(cache: RunCache, key: string): WalkRecord | undefined {
  const record = cache.get<WalkRecord>(NAMESPACE, key, NO_VERSION);
  if (!record) return undefined;
  if (!treeStampsHold(record.stamps) || !ancestorStampsHold(record.ancestorStamps)) {
    cache.invalidate(key);
    return undefined;
  }
  return record;
}

/**
 * Stores a finished walk unless one of its stamps is too recent to be trusted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryCache } from "@llm/search";
 * import { cachedWalk, storeWalk } from "./walk_cache.ts";
 * const cache = new MemoryCache();
 * const record = { entries: [], diagnostics: [], stamps: new Map(), ancestorStamps: new Map() };
 * storeWalk(cache, "{}", record, Date.now());
 * assert.equal(cachedWalk(cache, "{}"), record);
 * ```
 */
export function storeWalk(
  cache: RunCache,
  key: string,
  record: WalkRecord,
  startedMs: number,
): void {
  // A path changed this recently may change again unnoticed: a walk that saw one is not stored.
  for (const mtime of record.stamps.values()) {
    if (racyStamp(mtime, startedMs)) return;
  }
  cache.set(NAMESPACE, key, NO_VERSION, record);
}
