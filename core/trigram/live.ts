/**
 * The repository index as a long-lived host (the MCP server) keeps it: in memory, with a file
 * watcher on the root, so a warm search pays neither a stat per file (78,000 on the Linux tree)
 * nor a stat per directory to know which indexed files it may rule out.
 *
 * The first use starts the watcher, then stats every indexed file once (the full stamp check):
 * an entry is fresh when its size and mtime are those it was indexed with. Later uses read the
 * events the watcher collected meanwhile and stat only the paths they name: an indexed file's
 * own stamp decides again; an indexed folder's event (a rename, a removal) stats every entry
 * under it. A change that may alter the list of files makes the walk be checked again (the walk
 * cache's stamps) rather than trusted: a folder's event, an ignore file or `.git`, a new file (only
 * a walk knows whether its rules keep it), a listed file gone; a creation, removal or rename that
 * leaves every kept walk's list as it was (a save through a temporary file) does not. An
 * overflowed queue (`rescan`), an event of an unknown kind, a watcher that fails or ends, a
 * rebuilt index and a mutation the host could not name redo the full stamp check. Files not
 * fresh are searched directly, as without the watcher. Events under `.llm/` (the index itself,
 * logs, the symbol index's writes) are not the files' business; walks that list hidden entries
 * or follow links (which may leave the watched tree) are checked by their stamps, not trusted.
 *
 * Draining the watcher before an answer. inotify queues an event before the write that causes
 * it returns, but the watcher thread hands it to JavaScript later (under load, tens of ms; 50 ms
 * was seen here). So before each answer the host writes a fence file of its own in `<root>/.llm`
 * (a unique name, removed once its event came: other drains, other call workers and the symbol
 * index's fence never stand in for it) and waits for that event: events arrive in order, so once
 * it has arrived every change completed before the call began has been read — the guarantee.
 * Its limit: a fence that has not arrived within {@linkcode FENCE_TIMEOUT_MS} makes that call
 * check every stamp instead, so an answer is never based on events that may be incomplete.
 * inotify does not see a change made through a hard link from outside the root, nor one made by
 * another machine on a network file system: a host serving such a tree should not be given
 * write permission for `.llm` (it then stats every file). A host that may not write
 * `<root>/.llm` cannot fence (nothing it may do produces an event to wait for), and where the
 * watcher cannot start (no inotify watches left, a file system without them), every call checks
 * every stamp: the caller's `LMS-IO-011` note says so.
 *
 * Cost. A recursive watcher holds one inotify watch per folder: about 5,100 on the Linux 6.1
 * tree, against `fs.inotify.max_user_watches` = 192,536 on the machine measured (older kernels
 * default to 8,192); each call worker of the MCP server keeps its own live index (and the symbol
 * index its own watchers), so a few workers fit. Starting it there takes about 0.5–0.9 s and the
 * full stamp check about as long, once per worker.
 *
 * @module
 */
import { basename, join } from "../path_syntax.ts";
import type { FileVersion, RunCache } from "../cache.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import { IGNORE_FILES } from "../walk/ignore_rules.ts";
import { cachedWalk, mtimeOf, type WalkRecord } from "../walk/walk_cache.ts";
import { workersAvailable } from "../workers.ts";
import { ENTRY_FLAGS } from "./format.ts";
import type { TrigramIndex } from "./reader.ts";
import { type EntryStat, EntryStats, statNow } from "./entry_stats.ts";
import { IndexWalkSource } from "./walk_source.ts";

/** Name prefix of the fence files written in `<root>/.llm` (each removed once its event came). */
const FENCE_PREFIX = ".watch-fence-";
/** How long a drain waits for the fence's event before checking every stamp instead. */
export const FENCE_TIMEOUT_MS = 250;
/** Folder of the index, logs and symbol index: its events concern no searched file. */
const INDEX_FOLDER = ".llm";
/** More creations, removals and renames than this between two calls: walks are checked again. */
const MAX_LISTING_EVENTS = 64;
/** Event kinds that may change the list of files (a `modify` changes a file's content). */
const CONTENT_KINDS: ReadonlySet<Deno.FsEvent["kind"]> = new Set(["modify", "access"]);

/** Per entry: its file matched its indexed stamp at the last check. */
const ENTRY_STATE = { changed: 0, fresh: 1, unreadable: 2 } as const;

/** Opens a watcher on a folder (tests pass one that fails). */
export type WatchFactory = (root: string) => Deno.FsWatcher;

/** Where an indexed file stands against the index: unknown when it could not be stat'ed. */
export type EntryFreshness = "fresh" | "changed" | "unknown";

/** The freshness of each {@linkcode ENTRY_STATE}, in its order. */
const FRESHNESS: readonly EntryFreshness[] = ["changed", "fresh", "unknown"];

/** What a search learns from the live index. */
export interface LiveView {
  /** Where entry `id` stands, from the last check and the watcher's events since (no stat). */
  freshness(id: number): EntryFreshness;
  /**
   * The host's walk cache, with walks trusted while the watcher saw no change to them, for the
   * walker of `tool` (the index's walk is reported with that tool's name and code prefix).
   */
  walkCache(
    host: RunCache | undefined,
    tool: string,
    prefix: CodePrefix,
  ): RunCache & { served: boolean };
}

/** A walk known to hold from a generation of the watched tree on. */
interface TrustedWalk {
  record: WalkRecord;
  generation: number;
}

/** Live indexes of this thread, so a host's mutations reach them (see {@linkcode markChanged}). */
const opened = new Set<LiveTrigramIndex>();

/**
 * Marks `paths` (absolute) changed in every live index of this thread: a host's own mutating
 * tools call it as soon as they wrote, before the watcher reports it. No path: everything.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markChanged } from "./live.ts";
 * assert.doesNotThrow(() => markChanged(["/repo/src/a.c"])); // no live index open: no-op
 * ```
 */
export function markChanged(paths: readonly string[]): void {
  for (const live of opened) live.mark(paths);
}

/**
 * One root's index kept fresh by a watcher (see the module). Dispose it to stop the watcher.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LiveTrigramIndex } from "./live.ts";
 * const root = Deno.makeTempDirSync();
 * {
 *   using live = new LiveTrigramIndex(root);
 *   assert.equal(live.watching, false); // until the first view
 * }
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export class LiveTrigramIndex implements Disposable {
  readonly #root: string;
  readonly #watch: WatchFactory;
  readonly #indexFolder: string;
  #watcher: Deno.FsWatcher | undefined;
  /** Why the watcher could not start; then every view answers it instead. */
  #unwatchable: string | undefined;
  /** Paths named by events since the last view, with whether an event may change listings. */
  readonly #pending = new Map<string, boolean>();
  #fullCheck = true;
  /** Fence files of the drains under way, each with what its event settles. */
  readonly #fences = new Map<string, () => void>();
  #index: TrigramIndex | undefined;
  #ids: Map<string, number> | undefined;
  #states: Uint8Array | undefined;
  /** Bumped by every change that may alter a walk's list. */
  #generation = 0;
  readonly #walks = new Map<string, TrustedWalk>();

  /** A live index of `root` (its real path); `watch` opens the watcher. */
  constructor(root: string, watch: WatchFactory = (path) => Deno.watchFs(path)) {
    this.#root = root;
    this.#watch = watch;
    this.#indexFolder = join(root, INDEX_FOLDER);
    opened.add(this);
  }

  /** Whether a watcher runs. */
  get watching(): boolean {
    return this.#watcher !== undefined;
  }

  /**
   * The freshness of `index`'s entries now, or why the watcher cannot vouch for them (the
   * caller then checks stamps itself). Drains the watcher first (see the module).
   */
  async view(index: TrigramIndex): Promise<LiveView | string> {
    const shape = index.meta.walk.shape;
    // Hidden entries include `.llm/`, whose events are dropped; links may leave the tree.
    if (shape.hidden || shape.follow) return "the index lists hidden files or follows links";
    if (!this.#canFence()) {
      const folder = this.#indexFolder;
      return `the server may not write ${folder}, so it cannot make sure its file watcher has ` +
        `reported every change before it answers (grant --allow-write=${folder})`;
    }
    if (!this.#watcher && !this.#startWatching()) {
      return `the file watcher could not start (${this.#unwatchable})`;
    }
    if (!await this.#drain()) this.#fullCheck = true;
    if (this.#fullCheck || index !== this.#index || !this.#states) this.#checkAll(index);
    else this.#applyEvents(index, this.#states);
    const states = this.#states!;
    return {
      freshness: (id) => FRESHNESS[states[id]],
      walkCache: (host, tool, prefix) => new LiveWalkCache(this, index, host, tool, prefix),
    };
  }

  /** Marks paths changed (a host's mutation); none: everything. */
  mark(paths: readonly string[]): void {
    if (!paths.length) this.#fullCheck = true;
    for (const path of paths) {
      if (path.startsWith(this.#root + "/")) this.#pending.set(path, true);
    }
  }

  /** The current generation of the watched tree's listings. */
  get generation(): number {
    return this.#generation;
  }

  /** The walk kept for `key`, when no change since may have altered it. */
  trustedWalk(key: string): WalkRecord | undefined {
    const kept = this.#walks.get(key);
    return kept?.generation === this.#generation ? kept.record : undefined;
  }

  /** Forgets the walk kept for `key`. */
  dropWalk(key: string): void {
    this.#walks.delete(key);
  }

  /** Keeps `record` as true from `generation` on. */
  keepWalk(key: string, record: WalkRecord, generation: number): void {
    this.#walks.set(key, { record, generation });
  }

  /** Stops the watcher. */
  [Symbol.dispose](): void {
    opened.delete(this);
    this.#stopWatching();
  }

  #startWatching(): boolean {
    if (this.#unwatchable !== undefined) return false;
    try {
      this.#watcher = this.#watch(this.#root);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      this.#unwatchable = error instanceof Error ? error.message : String(error);
      return false;
    }
    this.#fullCheck = true;
    this.#listen(this.#watcher);
    return true;
  }

  #stopWatching(): void {
    const watcher = this.#watcher;
    this.#watcher = undefined;
    watcher?.close();
  }

  async #listen(watcher: Deno.FsWatcher): Promise<void> {
    try {
      for await (const event of watcher) this.#record(event);
    } catch {
      // The watcher failed: below, the next view starts another and checks every stamp.
    }
    if (this.#watcher === watcher) {
      this.#watcher = undefined;
      this.#fullCheck = true;
    }
  }

  #record(event: Deno.FsEvent): void {
    // An overflowed queue, or an event the watcher could not classify: check everything.
    if (event.flag === "rescan" || event.kind === "any" || event.kind === "other") {
      this.#fullCheck = true;
    }
    for (const path of event.paths) this.#fences.get(path)?.();
    if (event.kind === "access") return;
    const listing = !CONTENT_KINDS.has(event.kind);
    for (const path of event.paths) {
      const relative = path.slice(this.#root.length + 1);
      if (!path.startsWith(this.#root + "/") || relative === INDEX_FOLDER) continue;
      if (relative.startsWith(INDEX_FOLDER + "/")) continue;
      this.#pending.set(path, listing || this.#pending.get(path) === true);
    }
  }

  /** Whether the fence (`<root>/.llm`) exists and this host may touch it. */
  #canFence(): boolean {
    if (
      Deno.permissions.querySync({ name: "write", path: this.#indexFolder }).state !== "granted"
    ) {
      return false;
    }
    try {
      return Deno.lstatSync(this.#indexFolder).isDirectory;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }

  /**
   * Writes a fence file of its own and waits for its event (see the module); false when it did
   * not arrive in time (or the file could not be written), so the events read may be incomplete.
   */
  async #drain(): Promise<boolean> {
    const fence = join(this.#indexFolder, `${FENCE_PREFIX}${crypto.randomUUID()}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.#fences.set(fence, () => resolve(true));
      timer = setTimeout(() => resolve(false), FENCE_TIMEOUT_MS);
    });
    try {
      if (!writeFence(fence)) return false;
      return await arrived;
    } finally {
      clearTimeout(timer);
      this.#fences.delete(fence);
      removeFence(fence);
    }
  }

  /** The full stamp check: every entry's state from a stat made now. */
  #checkAll(index: TrigramIndex): void {
    this.#pending.clear();
    this.#fullCheck = false;
    this.#generation++;
    this.#walks.clear();
    const states = new Uint8Array(index.paths.length);
    const stats = new EntryStats(index, this.#root, workersAvailable());
    try {
      for (let id = 0; id < states.length; id++) {
        if (index.arrays.flags[id] & ENTRY_FLAGS.dir) continue;
        states[id] = stateOf(index, id, stats.of(id, `${this.#root}/${index.paths[id]}`));
      }
    } finally {
      stats.close();
    }
    if (index !== this.#index) this.#ids = undefined;
    this.#index = index;
    this.#states = states;
  }

  /** Stats what the events since the last view name (see the module). */
  #applyEvents(index: TrigramIndex, states: Uint8Array): void {
    const pending = [...this.#pending];
    this.#pending.clear();
    this.#ids ??= new Map(index.paths.map((path, id) => [path, id]));
    let listingChanged = false;
    for (const [path, listing] of pending) {
      const relative = path.slice(this.#root.length + 1);
      const id = this.#ids.get(relative);
      const dir = id !== undefined && (index.arrays.flags[id] & ENTRY_FLAGS.dir) !== 0;
      // Git's own files change with every git command; a walk reads only these two of them.
      const gitInternal = relative.startsWith(".git/") && relative !== ".git/info/exclude";
      const rules = IGNORE_FILES.includes(basename(path)) || basename(path) === ".git";
      if (!gitInternal && !listingChanged) {
        listingChanged = dir || rules || isFolder(path, id) ||
          (listing && (pending.length > MAX_LISTING_EVENTS || !this.#listed(relative, path)));
      }
      if (id === undefined) continue;
      const end = dir ? subtreeEnd(index, id) : id + 1;
      for (let entry = dir ? id + 1 : id; entry < end; entry++) {
        if (index.arrays.flags[entry] & ENTRY_FLAGS.dir) continue;
        states[entry] = stateOf(index, entry, statNow(`${this.#root}/${index.paths[entry]}`));
      }
    }
    if (listingChanged) this.#generation++;
  }

  /**
   * Whether every walk kept now still lists the file `relative` (at `path`) as it is: listed
   * and there, or neither listed, nor anything under it, nor there. A file written through a
   * temporary one renamed over it (an editor's, a transform's save) keeps every listing; a new
   * file may be ignored or not, which only a walk can tell.
   */
  #listed(relative: string, path: string): boolean {
    let info: Deno.FileInfo | undefined;
    try {
      info = Deno.lstatSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory)) {
        throw error;
      }
    }
    if (info && !info.isFile) return false;
    for (const kept of this.#walks.values()) {
      if (kept.generation !== this.#generation) continue;
      const listed = listedPaths(kept.record);
      if (
        info ? !listed.has(relative) : listed.has(relative) || holdsUnder(kept.record, relative)
      ) {
        return false;
      }
    }
    return true;
  }
}

/** Writes an empty fence file; false when it cannot be (the folder gone, permission refused). */
function writeFence(path: string): boolean {
  try {
    Deno.writeFileSync(path, new Uint8Array(0), { createNew: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotCapable) {
      return false;
    }
    throw error;
  }
}

/** Removes a fence file (already gone: nothing to do). */
function removeFence(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** The `file_path`s a walk lists, built once per walk. */
const listedOf = new WeakMap<WalkRecord, Set<string>>();

function listedPaths(record: WalkRecord): Set<string> {
  let listed = listedOf.get(record);
  if (!listed) {
    listed = new Set(Array.from(record.entries, (entry) => entry.filePath));
    listedOf.set(record, listed);
  }
  return listed;
}

/** Whether a walk lists something under the folder `relative`. */
function holdsUnder(record: WalkRecord, relative: string): boolean {
  const prefix = `${relative}/`;
  for (const entry of record.entries) if (entry.filePath.startsWith(prefix)) return true;
  return false;
}

/** Whether an unindexed path that changed is a folder now (its attributes changed a listing). */
function isFolder(path: string, id: number | undefined): boolean {
  if (id !== undefined) return false;
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    return false;
  }
}

/** The id after the last entry under folder entry `id` (walks list a folder's tree after it). */
function subtreeEnd(index: TrigramIndex, id: number): number {
  const prefix = index.paths[id] === "." ? "" : `${index.paths[id]}/`;
  let end = id + 1;
  while (end < index.paths.length && index.paths[end].startsWith(prefix)) end++;
  return end;
}

function stateOf(index: TrigramIndex, id: number, stat: EntryStat): number {
  if (stat === undefined) return ENTRY_STATE.unreadable;
  return index.trusted(id, stat[0], stat[1]) ? ENTRY_STATE.fresh : ENTRY_STATE.changed;
}

/** Cache namespace of walk records (the walker's). */
const WALK = "walk";
/** The walker's cache key prefix. */
const KEY_PREFIX = "walk\0";

/**
 * A host's walk cache in which a walk checked once stays trusted, without a stat per folder,
 * while the watcher reports no change that may alter it; a walk the host does not hold is
 * taken from the index when its stamps hold.
 */
class LiveWalkCache implements RunCache {
  readonly #live: LiveTrigramIndex;
  readonly #index: TrigramIndex;
  readonly #host: RunCache | undefined;
  readonly #tool: string;
  readonly #prefix: CodePrefix;
  readonly #missed = new Map<string, number>();
  served = false;

  constructor(
    live: LiveTrigramIndex,
    index: TrigramIndex,
    host: RunCache | undefined,
    tool: string,
    prefix: CodePrefix,
  ) {
    this.#live = live;
    this.#index = index;
    this.#host = host;
    this.#tool = tool;
    this.#prefix = prefix;
  }

  get<T>(namespace: string, key: string, version: FileVersion): T | undefined {
    if (namespace !== WALK || !key.startsWith(KEY_PREFIX) || !watchedWalk(key)) {
      return this.#host?.get<T>(namespace, key, version);
    }
    const generation = this.#live.generation;
    const record = this.#live.trustedWalk(key) ?? this.#checked(key);
    if (!record) {
      this.#missed.set(key, generation);
      return undefined;
    }
    this.#live.keepWalk(key, record, generation);
    this.served = true;
    // The watcher vouches for the tree; the roots' ancestors (outside it) are still checked.
    return { ...record, stamps: new Map() } as T;
  }

  set<T>(namespace: string, key: string, version: FileVersion, value: T): void {
    this.#host?.set(namespace, key, version, value);
    const generation = this.#missed.get(key);
    if (namespace === WALK && generation !== undefined) {
      this.#live.keepWalk(key, value as WalkRecord, generation);
    }
  }

  invalidate(key?: string): void {
    // The walker drops a walk whose ancestors' stamps no longer hold.
    if (key !== undefined) this.#live.dropWalk(key);
    this.#host?.invalidate(key);
  }

  resource<T extends Disposable>(key: string, open: () => T): T {
    return this.#host ? this.#host.resource(key, open) : open();
  }

  close(): void {}

  /** The host's walk or the index's, when its stamps hold now. */
  #checked(key: string): WalkRecord | undefined {
    if (this.#host) {
      const hosted = cachedWalk(this.#host, key);
      if (hosted) return hosted;
    }
    const source = new IndexWalkSource(this.#index, this.#tool, this.#prefix);
    const indexed = source.get<WalkRecord>(WALK, key, { size: 0, mtimeMs: 0 });
    if (!indexed) return undefined;
    return stampsHold(indexed) ? indexed : undefined;
  }
}

/**
 * Whether every stamp of a walk the index recorded holds now. One this host may not read (the
 * index was built with wider permissions, its ancestors' ignore files included) does not.
 */
function stampsHold(record: WalkRecord): boolean {
  try {
    for (const stamps of [record.stamps, record.ancestorStamps]) {
      for (const [path, mtime] of stamps) if (mtimeOf(path) !== mtime) return false;
    }
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return false;
    throw error;
  }
}

/** Whether the watcher covers every entry the walk of `key` may list (see the module). */
function watchedWalk(key: string): boolean {
  const shape = JSON.parse(key.slice(KEY_PREFIX.length)) as { hidden?: boolean; follow?: boolean };
  return !shape.hidden && !shape.follow;
}

/**
 * The live index of `root` kept in a host's cache (opened on first use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryCache } from "../cache.ts";
 * import { liveTrigramIndex } from "./live.ts";
 * const root = Deno.makeTempDirSync();
 * const cache = new MemoryCache();
 * assert.equal(liveTrigramIndex(cache, root), liveTrigramIndex(cache, root));
 * assert.equal(liveTrigramIndex(cache, root).watching, false);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function liveTrigramIndex(cache: RunCache, root: string): LiveTrigramIndex {
  return cache.resource(`trigram-index\0${root}`, () => new LiveTrigramIndex(root));
}
