/**
 * The symbol index as a long-lived host (the MCP server) keeps it: opened once, with its prepared
 * statements, in the host's cache, and brought up to date before every answer.
 *
 * File watchers mark the paths that change: one on the root itself (its own entries) and one on
 * each of its folders but `.llm/` and `.git/` recursively, so the index's own writes (hundreds of
 * WAL events per re-indexed file) and git's never reach it. Before a query the
 * changed indexed files are re-indexed (a deleted one loses its facts); a change the watcher
 * cannot map to indexed files (a new file of an indexed language, a new folder, an ignore file,
 * a folder gone) walks the root again as `llm-symbols index` does, since only the walk knows
 * which new paths its ignore rules keep. The first query walks too: the watcher starts first,
 * so nothing changed between the two goes unseen. Walking the Linux tree and comparing every
 * file's size and time takes seconds there; the watcher's dirty set takes nothing when nothing
 * changed and one parse per edited file when something did.
 *
 * A host that may not write the index answers from it as it is, with a note that it may be
 * stale (never a failure).
 *
 * @module
 */
import { basename, dirname, join } from "../path_syntax.ts";
import { displayPath, isInside } from "../paths.ts";
import type { RunCache } from "../cache.ts";
import { IGNORE_FILES } from "../walk/ignore_rules.ts";
import { type Diagnostic, makeDiagnostic, ToolError } from "../../schema/diagnostic.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { languageForFile } from "../../grammars/languages.ts";
import type { Candidate } from "./candidates.ts";
import { type DbLocation, INDEXED_AT_KEY, IndexStore, locateDb } from "./store.ts";
import { RefreshClaim } from "./refresh_claim.ts";
import { statIfPresent } from "./file_stat.ts";
import { stampOf } from "../racy_stamp.ts";

/**
 * How long a refresh waits for each watcher to report its own fence (a touch of a path only
 * the tool changes): a watcher reports in order, so once its fence arrived every earlier change
 * it saw has been marked.
 */
const FENCE_TIMEOUT_MS = 250;

/**
 * The fence of the folders' watcher, next to the index (`.llm/index.db.fence`): a file the
 * watcher watches besides the folders, touched by nothing but the host.
 */
const FOLDER_FENCE_SUFFIX = ".fence";

/**
 * Database pages the host's connection keeps (KiB): the hot lookup-index and file pages of a
 * large tree's queries, grown only as pages are read.
 */
const HOST_PAGE_CACHE_KIB = 64 * 1024;

/**
 * Pages the host's write-ahead log may hold before SQLite copies it into the database during a
 * commit; below it the host copies it once idle for {@linkcode CHECKPOINT_IDLE_MS}, so that an
 * answer after an edit does not wait for the copy.
 */
const HOST_WAL_PAGES = 32_768;

/** How long the host waits after a refresh that wrote before it checkpoints the index. */
const CHECKPOINT_IDLE_MS = 1_000;

/** Folders under the root whose changes never concern the index (and are not watched). */
const UNWATCHED = [".llm", ".git"];

/** A watcher and its fence: the path whose touch it reports after every earlier change. */
interface Watch {
  watcher: Deno.FsWatcher;
  /** Undefined when the fence could not be made (then a timer's turn stands in). */
  fence: string | undefined;
  /** Called when the fence's touch arrives, while a refresh waits for it. */
  arrived?: () => void;
}

/** What a set of changed paths asks for. */
type RefreshPlan = "walk" | { changed: Candidate[]; gone: string[] };

function hasWritePermission(absPath: string): boolean {
  return ["", "-wal", "-shm"].every((suffix) =>
    Deno.permissions.querySync({ name: "write", path: absPath + suffix }).state === "granted"
  );
}

/** Whether files named `name` are of a language the index holds. */
function indexedLanguage(name: string): boolean {
  const language = languageForFile(name);
  return language !== undefined && !language.unsupported;
}

/**
 * An open index kept fresh by a file watcher (see the module). Dispose it to close the watcher
 * and the database.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LiveIndex } from "./live.ts";
 * import { indexRoot } from "./indexer.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n");
 * await indexRoot({ root, threads: 0 });
 * {
 *   using live = LiveIndex.open(root, undefined);
 *   await live.fresh();
 *   assert.equal(live.store.counts().symbols, 1);
 * }
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export class LiveIndex implements Disposable {
  /** Whether this process may write the index (else it is read as it is). */
  readonly writable: boolean;
  #store: IndexStore;
  /** The database file's identity when it was opened (see {@linkcode fileIdentity}). */
  #identity: string;
  readonly #root: string;
  readonly #dirty = new Set<string>();
  /** The root's watcher, then its folders' (none while not watching). */
  #watches: Watch[] = [];
  /** The folders watched recursively, joined: a change means the watchers start again. */
  #folders = "";
  #walkNeeded = true;
  #queue: Promise<unknown> = Promise.resolve();
  #checkpointTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(root: string, store: IndexStore, writable: boolean, identity: string) {
    this.#root = root;
    this.#store = store;
    this.writable = writable;
    this.#identity = identity;
  }

  /** The open index. */
  get store(): IndexStore {
    return this.#store;
  }

  /**
   * Opens the index of `root` (`db` relative to it): for writing when this process may write
   * it, else read-only. A missing index is `MAG-IO-013`, as for a one-shot query.
   */
  static open(root: string, db: string | undefined): LiveIndex {
    const realRoot = Deno.realPathSync(root);
    const location = locateDb(realRoot, db, false);
    // Read first: a missing or foreign index is refused before anything is written.
    IndexStore.open(location, "read").close();
    const writable = hasWritePermission(location.absPath);
    const identity = fileIdentity(location);
    return new LiveIndex(realRoot, openStore(location, writable), writable, identity);
  }

  /**
   * Brings the index up to date with the disk (see the module) and returns what the refresh
   * reports: parse errors, unreadable files, or, when the index may not be written, a note that
   * it may be stale. Refreshes run one at a time. An index file replaced since it was opened
   * (`index` deletes a damaged one and builds it anew) is opened again first: the open
   * connection would read the deleted file.
   */
  fresh(signal?: AbortSignal): Promise<Diagnostic[]> {
    const run = this.#queue.then(() => this.#freshen(signal));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #freshen(signal: AbortSignal | undefined): Promise<Diagnostic[]> {
    const identity = fileIdentity(this.#store.location);
    if (identity !== this.#identity) {
      // Reopened only while no run holds the refresh claim: the run that replaced the file
      // (`index`, which deletes a damaged one) may still be writing the new one.
      const claim = RefreshClaim.tryTake(this.#store.location);
      if (claim === "busy") return [this.#busyNote()];
      using _claim = claim;
      this.#reopen(identity);
    }
    return this.writable ? await this.#refresh(signal) : [this.#staleNote()];
  }

  /** Closes the watcher and the database. */
  [Symbol.dispose](): void {
    clearTimeout(this.#checkpointTimer);
    this.#stopWatching();
    this.#store.close();
  }

  /** Opens the index again: its file at `identity` replaced the one this host had open. */
  #reopen(identity: string): void {
    // Closed first: SQLite's last connection to the old file deletes its `-wal`/`-shm` by name
    // as it closes, and those names are the new file's now. Closed before the new one is
    // opened (and while no run writes it), it removes what no connection uses. A failed open
    // leaves the identity as it was, so the next refresh tries again.
    this.#store.close();
    this.#store = openStore(this.#store.location, this.writable);
    this.#identity = identity;
    this.#walkNeeded = true;
  }

  #busyNote(): Diagnostic {
    const shown = this.store.location.displayPath;
    return makeDiagnostic(
      LLM_SYMBOLS,
      "MAG-IO-027",
      `answered from the index ${shown} as it is: another run is bringing it up to date now ` +
        "(an `llm-symbols index` run or a refactoring), and files it has not written yet are " +
        "answered as they were",
      { level: "note", file: shown },
    );
  }

  #staleNote(): Diagnostic {
    const shown = this.store.location.displayPath;
    return makeDiagnostic(
      LLM_SYMBOLS,
      "MAG-IO-017",
      `answered from the index ${shown} as it is: this host may not write it, so files changed ` +
        "since the last `llm-symbols index` run are answered as they were then",
      { level: "note", file: shown },
    );
  }

  async #refresh(signal: AbortSignal | undefined): Promise<Diagnostic[]> {
    if (this.#watches.length) await this.#settle();
    else this.#startWatching();
    if (!this.#walkNeeded && this.#dirty.size === 0) return [];
    const paths = [...this.#dirty];
    this.#dirty.clear();
    const statsFrom = Date.now();
    const plan = this.#walkNeeded ? "walk" : this.#plan(paths);
    this.#checkpointWhenIdle();
    try {
      if (plan === "walk") {
        this.#walkNeeded = false;
        // A folder added or removed at the top: watch the new set before the walk reads it.
        if (this.#watches.length && this.#topFolders().join("\0") !== this.#folders) {
          this.#stopWatching();
          this.#startWatching();
        }
        // A query does not wait for another run's refresh (an `index` run, a refactoring): it
        // answers from what is written so far, and walks again next time.
        const claim = RefreshClaim.tryTake(this.store.location);
        if (claim === "busy") {
          this.#walkNeeded = true;
          return [this.#busyNote()];
        }
        using _claim = claim;
        const { refreshIndex, storedWalkOptions } = await import("./indexer.ts");
        // The files the index covers are the ones its `index` run walked.
        const walk = storedWalkOptions(this.store);
        const options = { root: this.#root, walk, signal, claimed: true };
        return (await refreshIndex(this.store, options)).diagnostics;
      }
      const { reindexFiles } = await import("./indexer.ts");
      return (await reindexFiles(this.store, plan.changed, plan.gone, statsFrom, signal))
        .diagnostics;
    } catch (error) {
      // Not done: the next refresh tries again.
      if (plan === "walk") this.#walkNeeded = true;
      else paths.forEach((path) => this.#dirty.add(path));
      throw error;
    }
  }

  /**
   * Checkpoints the index once no refresh has written for {@linkcode CHECKPOINT_IDLE_MS} (the
   * timer does not keep the process alive; closing the index checkpoints too).
   */
  #checkpointWhenIdle(): void {
    clearTimeout(this.#checkpointTimer);
    const timer = setTimeout(() => {
      this.#checkpointTimer = undefined;
      // Transactions are synchronous, so this never runs inside one.
      try {
        this.store.checkpoint();
      } catch {
        // Nothing is lost: the log keeps every commit, and SQLite copies it itself once it
        // reaches HOST_WAL_PAGES or the index is closed.
      }
    }, CHECKPOINT_IDLE_MS);
    Deno.unrefTimer(timer);
    this.#checkpointTimer = timer;
  }

  /** The root's folders to watch recursively (every real folder but `.llm/` and `.git/`). */
  #topFolders(): string[] {
    return [...Deno.readDirSync(this.#root)]
      .filter((entry) => entry.isDirectory && !UNWATCHED.includes(entry.name))
      .map((entry) => join(this.#root, entry.name))
      .sort();
  }

  /** Starts the watchers; when the host cannot watch, every refresh walks. */
  #startWatching(): void {
    const folders = this.#topFolders();
    const fence = folders.length ? this.#folderFence() : undefined;
    try {
      const root = Deno.watchFs(this.#root, { recursive: false });
      this.#watches.push({ watcher: root, fence: this.#rootFence });
      if (folders.length) {
        const watcher = Deno.watchFs(fence ? [...folders, fence] : folders, { recursive: true });
        this.#watches.push({ watcher, fence });
      }
    } catch {
      // Out of inotify watches, or a file system without them: walking stays correct.
      this.#stopWatching();
      this.#walkNeeded = true;
      return;
    }
    this.#folders = folders.join("\0");
    for (const watch of this.#watches) this.#watch(watch);
  }

  /**
   * The folders' watcher's fence file, made when missing; undefined when this host may not make
   * it (a write permission scoped to the index's own files).
   */
  #folderFence(): string | undefined {
    const path = this.store.location.absPath + FOLDER_FENCE_SUFFIX;
    if (Deno.permissions.querySync({ name: "write", path }).state !== "granted") return undefined;
    Deno.writeFileSync(path, new Uint8Array(), { append: true });
    return path;
  }

  #stopWatching(): void {
    const watches = this.#watches;
    this.#watches = [];
    for (const { watcher } of watches) watcher.close();
  }

  async #watch(watch: Watch): Promise<void> {
    try {
      for await (const event of watch.watcher) this.#mark(event, watch);
    } catch {
      // The watcher failed (its resource is gone): the next refresh starts again and walks.
    }
    if (this.#watches.includes(watch)) {
      this.#stopWatching();
      this.#walkNeeded = true;
    }
  }

  #mark(event: Deno.FsEvent, watch: Watch): void {
    if (event.flag === "rescan") this.#walkNeeded = true;
    if (watch.fence && event.paths.includes(watch.fence)) watch.arrived?.();
    // Reads change nothing (and a search over the tree reads every file).
    if (event.kind === "access") return;
    for (const path of event.paths) {
      if (!isInside(this.#root, path) || path === this.#root) continue;
      const shown = displayPath(this.#root, path);
      if (UNWATCHED.some((folder) => shown === folder || shown.startsWith(folder + "/"))) continue;
      this.#dirty.add(path);
    }
  }

  /**
   * The root's entry that holds the index (`.llm` by default): touching it is an event of the
   * root's watcher, which the tool owns.
   */
  get #rootFence(): string {
    return join(this.#root, this.store.location.displayPath.split("/")[0]);
  }

  /**
   * Waits until the watchers have reported every change made before now: it touches each
   * watcher's fence and waits for those events (or a short time limit when one does not come).
   * Each watcher reads its own queue of events, so one watcher's fence says nothing of another's;
   * a watcher without a fence gets a timer's turn to read what it was sent.
   */
  async #settle(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeLimit = new Promise<void>((resolve) => timer = setTimeout(resolve, FENCE_TIMEOUT_MS));
    const fenced = this.#watches.filter((watch) => watch.fence !== undefined);
    const arrivals = fenced.map((watch) => new Promise<void>((resolve) => watch.arrived = resolve));
    const now = new Date();
    for (const { fence } of fenced) if (fence) Deno.utimeSync(fence, now, now);
    await Promise.race([Promise.all(arrivals), timeLimit]);
    clearTimeout(timer);
    for (const watch of fenced) watch.arrived = undefined;
    if (fenced.length < this.#watches.length) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** Which indexed files the changed paths touch, or `walk` when only a walk can tell. */
  #plan(paths: readonly string[]): RefreshPlan {
    const changed: Candidate[] = [];
    const gone: string[] = [];
    for (const absPath of paths) {
      const path = displayPath(this.#root, absPath);
      const name = basename(absPath);
      if (IGNORE_FILES.includes(name)) return "walk";
      const row = this.store.file(path);
      const info = statIfPresent(absPath);
      if (row) {
        if (info?.isFile) {
          changed.push({ absPath, path, language: row.language, ...stampOf(info) });
        } else gone.push(path);
      } else if (!info) {
        if (this.store.hasFilesUnder(path)) return "walk";
      } else if (info.isDirectory) return "walk";
      else if (info.isFile && indexedLanguage(name)) return "walk";
    }
    return { changed, gone };
  }
}

/** The index at `location` opened as a host keeps it. */
function openStore(location: DbLocation, writable: boolean): IndexStore {
  const store = IndexStore.open(location, writable ? "write" : "read");
  store.keepPages(HOST_PAGE_CACHE_KIB);
  if (writable) store.deferCheckpoints(HOST_WAL_PAGES);
  return store;
}

/**
 * The database file's device and inode (empty where the system gives none, as on Windows):
 * another value means another file at the same path.
 */
function fileIdentity(location: DbLocation): string {
  const info = statIfPresent(location.absPath);
  return info ? `${info.dev}:${info.ino ?? ""}` : "";
}

/**
 * The live index of `root` kept in a host's cache (opened on first use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryCache } from "../cache.ts";
 * import { liveIndex } from "./live.ts";
 * const root = Deno.makeTempDirSync();
 * assert.throws(() => liveIndex(new MemoryCache(), root, undefined), { code: "MAG-IO-013" }); // no index
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function liveIndex(cache: RunCache, root: string, db: string | undefined): LiveIndex {
  const location = locateDb(root, db, false);
  return cache.resource(`symbols-index\0${location.absPath}`, () => LiveIndex.open(root, db));
}

/** First builds of an index under way in this process, by database path (see below). */
const firstBuilds = new Map<string, Promise<Diagnostic>>();

/**
 * How long a call waits for a first build under way in another thread or process (a host's
 * background build, `llm-symbols index`) before it answers from the files indexed so far.
 */
export const FIRST_BUILD_WAIT_MS = 20_000;

/** Time kept, before a call's deadline, to answer once its wait for a first build ends (ms). */
const ANSWER_MARGIN_MS = 250;

/**
 * How long a call whose answer is needed by `deadline` (epoch ms) may wait for a first build
 * under way elsewhere: {@linkcode FIRST_BUILD_WAIT_MS} at most, and what the deadline leaves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FIRST_BUILD_WAIT_MS, firstBuildWait } from "./live.ts";
 * assert.equal(firstBuildWait(undefined), FIRST_BUILD_WAIT_MS);
 * assert.ok(firstBuildWait(Date.now() + 3_000) <= 2_750);
 * assert.equal(firstBuildWait(Date.now() - 1), 0);
 * ```
 */
export function firstBuildWait(deadline: number | undefined): number {
  if (deadline === undefined) return FIRST_BUILD_WAIT_MS;
  return Math.max(0, Math.min(FIRST_BUILD_WAIT_MS, deadline - Date.now() - ANSWER_MARGIN_MS));
}

/** How often a call waiting for a first build looks whether it has ended (ms). */
const FIRST_BUILD_POLL_MS = 50;

/** Starts the first build of the index at `location` in this process, shared by its calls. */
function startFirstBuild(
  location: DbLocation,
  root: string,
  db: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Diagnostic> {
  let build = firstBuilds.get(location.absPath);
  if (!build) {
    build = buildFirst(root, db, signal);
    firstBuilds.set(location.absPath, build);
    const done = () => firstBuilds.delete(location.absPath);
    build.then(done, done);
  }
  return build;
}

/**
 * The live index of `root` as {@linkcode liveIndex} gives it, built first when there is none
 * yet and this host may write it (the index on first need: an agent's first `repo_map` or
 * `symbols` call on a fresh tree gets its answer, with a note, not `MAG-IO-013`). Calls that
 * need it at once share one build; a build stopped by `signal` is begun again by the next call.
 * A first build under way elsewhere (another thread's, another process's: the index has no
 * completed run yet) is waited for up to `waitMs`, then the call answers from the files indexed
 * so far with a `MAG-IO-029` note (its answer is partial). A host that may not write the index
 * gets `MAG-IO-013`, whose remediation says how to build it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryCache } from "../cache.ts";
 * import { liveIndexOnNeed } from "./live.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n");
 * const cache = new MemoryCache();
 * const { live, notes } = await liveIndexOnNeed(cache, root, undefined);
 * assert.equal(live.store.counts().symbols, 1);
 * assert.deepEqual(notes.map((note) => note.code), ["MAG-IO-028"]);
 * cache.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function liveIndexOnNeed(
  cache: RunCache,
  root: string,
  db: string | undefined,
  signal?: AbortSignal,
  waitMs: number = FIRST_BUILD_WAIT_MS,
): Promise<{ live: LiveIndex; notes: Diagnostic[] }> {
  const location = locateDb(root, db, false);
  const building = firstBuilds.get(location.absPath);
  if (building) return { live: liveIndex(cache, root, db), notes: [await building] };
  let live: LiveIndex;
  try {
    live = liveIndex(cache, root, db);
  } catch (error) {
    if (!(error instanceof ToolError && error.code === "MAG-IO-013")) throw error;
    if (!mayCreate(location)) throw error;
    const note = await startFirstBuild(location, root, db, signal);
    return { live: liveIndex(cache, root, db), notes: [note] };
  }
  if (live.store.meta(INDEXED_AT_KEY) !== undefined) return { live, notes: [] };
  return { live, notes: await awaitFirstBuild(live, waitMs, signal) };
}

/**
 * Waits up to `waitMs` for the first build of `live`'s index under way elsewhere (it holds the
 * refresh claim): the note that it ended, or `MAG-IO-029` with the files indexed so far.
 */
async function awaitFirstBuild(
  live: LiveIndex,
  waitMs: number,
  signal: AbortSignal | undefined,
): Promise<Diagnostic[]> {
  const location = live.store.location;
  const started = Date.now();
  for (;;) {
    const claim = RefreshClaim.tryTake(location);
    if (claim !== "busy") {
      claim?.[Symbol.dispose]();
      // Not ended by a completed run (stopped, or crashed): the call's own refresh goes on.
      if (live.store.meta(INDEXED_AT_KEY) === undefined) return [];
      return [makeDiagnostic(
        LLM_SYMBOLS,
        "MAG-IO-028",
        `there was no symbol index: it was built since this host started (waited ` +
          `${Date.now() - started} ms); later calls keep it fresh`,
        { level: "note", file: location.displayPath },
      )];
    }
    if (signal?.aborted || Date.now() - started >= waitMs) break;
    await new Promise((resolve) => setTimeout(resolve, FIRST_BUILD_POLL_MS));
  }
  const files = live.store.counts().files;
  return [makeDiagnostic(
    LLM_SYMBOLS,
    "MAG-IO-029",
    `the symbol index is still being built: this answer covers the ${files} file(s) indexed so ` +
      `far (waited ${Date.now() - started} ms); call again shortly for every file`,
    { level: "warning", file: location.displayPath },
  )];
}

/** Whether this process may create the index at `location` (its folder, its files). */
function mayCreate(location: DbLocation): boolean {
  const folder = dirname(location.absPath);
  return Deno.permissions.querySync({ name: "write", path: folder }).state === "granted" &&
    hasWritePermission(location.absPath);
}

/** Builds the index of `root` as `llm-symbols index` does; the note that says so. */
async function buildFirst(
  root: string,
  db: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Diagnostic> {
  const { indexRoot } = await import("./indexer.ts");
  const { result } = await indexRoot({ root, db, signal });
  return makeDiagnostic(
    LLM_SYMBOLS,
    "MAG-IO-028",
    `there was no symbol index: built it on first need (${result.parsed} file(s) in ` +
      `${result.duration_ms} ms); later calls keep it fresh`,
    { level: "note", file: result.db_path },
  );
}
