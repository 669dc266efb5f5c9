/**
 * `llm-symbols index`: brings the index of a root up to date. The walk is the toolkit's (the
 * same ignore rules as `llm-search`; `.llm/` is never indexed); a file whose size and
 * modification time match its row is taken as unchanged without being read, any other is read
 * and hashed, and only a file whose content hash changed is parsed again. Files gone from the
 * walk lose all their facts. Extraction runs on worker threads when the run may start them,
 * while the calling thread reads, hashes and writes batches, each in one transaction.
 *
 * @module
 */
import type { EngineWalkOptions } from "../walk/walker.ts";
import { PARSE_BYTES_PER_WORKER, workersAvailable, workersFor } from "../workers.ts";
import { Breather } from "../breather.ts";
import { sha256 } from "../../schema/checksum.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import type { IndexResult } from "../../schema/symbols.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { type Candidate, recordedWalk, walkCandidates } from "./candidates.ts";
import { statIfPresent } from "./file_stat.ts";
import { recordedSize } from "../racy_stamp.ts";
import {
  type ExtractReply,
  type ExtractTask,
  runExtractTask,
  RUNTIME_SPENT,
} from "./extract_job.ts";
import { rowCount, type RowValue } from "./fact_rows.ts";
import {
  ChunkSideBuild,
  clearSideChunksPending,
  markSideChunksPending,
  recoverSideChunks,
} from "./chunk_side.ts";
import { ExtractPool, WORKER_DIED } from "./pool.ts";
import { RefreshClaim } from "./refresh_claim.ts";
import {
  type DbLocation,
  discardIndex,
  type FailureRow,
  type FileRow,
  type FileWrite,
  INDEXED_AT_KEY,
  IndexStore,
  isDamage,
  locateDb,
} from "./store.ts";
import { MAX_FILE_BYTES, MAX_FILE_BYTES_META } from "./defaults.ts";
import {
  deferredRepositoryBuild,
  type RepositoryBuild,
  RepositoryWorker,
} from "../trigram/repository_build.ts";

/** What an index run needs. */
export interface IndexOptions {
  /** The root: every indexed path is relative to it. */
  root: string;
  /** Database path (default `<root>/.llm/index.db`), relative to the root. */
  db?: string;
  /** Walker settings. */
  walk?: EngineWalkOptions;
  /** Files larger than this are not indexed (default 4 MiB). */
  maxFileBytes?: number;
  /** Stop parsing after this many milliseconds (0: no limit); the rest waits for the next run. */
  timeoutMs?: number;
  /**
   * Worker threads (default one per core, none when fewer than 32 files are to be checked; 0
   * parses on the calling thread).
   */
  threads?: number;
  /** Stops the run between files. */
  signal?: AbortSignal;
  /**
   * Test hook: the parser heap of every thread of the run may not grow past this many bytes
   * (default: the runtime's 2 GiB), so that a small input causes a real out-of-memory abort.
   */
  parserHeapCeiling?: number;
  /**
   * Called once the parsed files are written and before the lookup indexes are made, with the
   * run's counts: work it starts (the repository index's build) overlaps their making.
   */
  afterWrite?: (written: WrittenCounts) => Promise<void>;
  /**
   * The caller holds the refresh claim of the index already (`refresh_claim.ts`); else the run
   * takes it, waiting for a run that holds it.
   */
  claimed?: boolean;
  /**
   * Whether a cold run on workers writes the chunks' full-text table on a thread of its own
   * (`chunk_side.ts`; default: yes. On two cores it was as fast as without, within the noise).
   */
  sideChunks?: boolean;
  /**
   * Called once the walk has listed the files to check, with their total size, before the first
   * is read: work under way that should not overlap the parsers (memory) ends first.
   */
  beforeParse?: (bytes: number) => Promise<void>;
}

/** What a run changed, known once its files are written. */
export interface WrittenCounts {
  /** Files parsed. */
  parsed: number;
  /** Files whose facts were removed. */
  removed: number;
  /** Files the walk saw. */
  filesSeen: number;
}

/** What an index run did. */
export interface IndexOutcome {
  /** The mutation envelope's result. */
  result: IndexResult;
  /** Parse errors, skipped files, walk problems. */
  diagnostics: Diagnostic[];
  /** Whether some files were left for the next run (time limit, skipped files). */
  partial: boolean;
}

/** Files written per transaction. */
const BATCH_FILES = 256;
/**
 * Facts written per transaction (a few big files make a batch too). The calling thread is busy
 * for the whole transaction while the workers live on the files queued to them
 * ({@linkcode QUEUED_PER_WORKER}): at 100,000 facts (≈ 0.3 s) they ran dry; at 25,000 their idle
 * share during writes on Linux `kernel/` fell from 70–75 % (100,000 facts, two files queued) to
 * 8–29 %.
 */
const BATCH_FACTS = 25_000;
/**
 * Runs with fewer files to check than this parse them on the calling thread: starting the
 * workers (each loads the parser runtime and its grammars) costs more than parsing a few files
 * (about 0.4 s of CPU for two workers against 15 ms for a typical C file), and an index after
 * an edit checks a file or two.
 */
const INLINE_FILES = 32;

/** How long extraction on the calling thread runs before a cancellable run lets others in (ms). */
const PAUSE_MS = 20;
/**
 * Files sent to each worker ahead of its replies, so that it keeps parsing while the calling
 * thread writes a batch ({@linkcode BATCH_FACTS}); a worker that dies fails at most these files.
 */
const QUEUED_PER_WORKER = 8;
/** Parse-error warnings listed one by one; the rest are counted in one note. */
const LISTED_PARSE_ERRORS = 20;
/** `meta` key of the walk settings of the last `index` run. */
const WALK_META_KEY = "walk_options";

/** The walk settings that decide which files an index covers (a host's cache is not one). */
function coverageOf(walk: EngineWalkOptions | undefined): EngineWalkOptions {
  const { cache: _, ...coverage } = walk ?? {};
  return coverage;
}

/**
 * The walk settings the index was last built with (ignore files, globs, hidden, …), so that a
 * host refreshing it later covers the same files; none for an index that predates them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexRoot, storedWalkOptions } from "./indexer.ts";
 * import { IndexStore, locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * await indexRoot({ root, threads: 0, walk: { globs: ["!vendor/"] } });
 * const store = IndexStore.open(locateDb(root, undefined, false), "read");
 * assert.deepEqual(storedWalkOptions(store).globs, ["!vendor/"]);
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function storedWalkOptions(store: IndexStore): EngineWalkOptions {
  const stored = store.meta(WALK_META_KEY);
  return stored === undefined ? {} : JSON.parse(stored) as EngineWalkOptions;
}

function note(
  code: string,
  message: string,
  file?: string,
  level: Diagnostic["level"] = "warning",
) {
  return makeDiagnostic(LLM_SYMBOLS, code, message, file ? { level, file } : { level });
}

/**
 * Extracts on workers when the run can start them (and, unless `threads` is given, has `files`
 * enough to check), else on the calling thread.
 */
function extractor(
  threads: number | undefined,
  files: number,
  bytes: number,
  signal: AbortSignal | undefined,
): {
  extract: (task: ExtractTask) => Promise<ExtractReply>;
  inFlight: number;
  /** Worker threads started (0: extraction runs on the calling thread). */
  workers: number;
  close: () => void;
} {
  const few = threads === undefined && files < INLINE_FILES;
  const size = threads === 0 || few ? 0 : workersFor(threads, bytes, PARSE_BYTES_PER_WORKER);
  if (size > 0 && workersAvailable()) {
    const pool = new ExtractPool(size);
    const inFlight = size * QUEUED_PER_WORKER;
    const close = () => pool.close();
    return { extract: (task) => pool.extract(task), inFlight, workers: size, close };
  }
  // On the calling thread, a run that may be cancelled (a host's) lets the event loop run inside
  // a long parse too, so that the host answers other calls meanwhile.
  const breather = signal && new Breather(signal, PAUSE_MS);
  const pause = breather && (() => breather.breathe());
  return {
    extract: (task) => runExtractTask(task, pause),
    inFlight: 1,
    workers: 0,
    close: () => {},
  };
}

/**
 * Writes batches of parsed files, one transaction each; on a cold run whose extraction is on
 * workers, their chunks go to a side build on a thread of its own (`chunk_side.ts`).
 */
class BatchWriter {
  readonly #store: IndexStore;
  readonly #statsFrom: number;
  /** Whether the index holds no file and no chunk, so that a side build may fill its chunks. */
  readonly #cold: boolean;
  #side: ChunkSideBuild | undefined;
  #writes: FileWrite[] = [];
  #touches: Candidate[] = [];
  #failures: FailureRow[] = [];
  #failureTouches: Candidate[] = [];
  #facts = 0;

  /**
   * A writer into `store` of stamps taken by stats at or after `statsFrom` (wall clock, ms);
   * `cold`: the index holds no file and no chunk yet.
   */
  constructor(store: IndexStore, statsFrom: number, cold: boolean) {
    this.#store = store;
    this.#statsFrom = statsFrom;
    this.#cold = cold;
  }

  /**
   * Sends the chunks to a side build from now on, when the index is cold. Until the index has
   * taken them ({@linkcode BatchWriter.adoptChunks}) it is marked as waiting for them, so that
   * the next run recovers what a run stopped before had written (`recoverSideChunks`).
   */
  divertChunks(): void {
    if (!this.#cold || this.#side) return;
    markSideChunksPending(this.#store);
    this.#side = new ChunkSideBuild(this.#store.location.absPath);
  }

  /** Answers once the side build, if any, has room for more batches. */
  room(): Promise<void> {
    return this.#side?.room() ?? Promise.resolve();
  }

  /**
   * Once every batch is flushed: waits for the side build to write its last batch, has the
   * index take its chunks, and marks the facts current again.
   */
  async adoptChunks(): Promise<void> {
    const side = this.#side;
    if (!side) return;
    await side.finish();
    this.#store.adoptChunks(side.path);
    clearSideChunksPending(this.#store);
    side.remove();
    this.#side = undefined;
  }

  /**
   * Stops the side build, if the index has not taken its chunks: its database and the index's
   * mark stay for the next run to recover.
   */
  async close(): Promise<void> {
    await this.#side?.stop();
    this.#side = undefined;
  }

  /** The stamp to record for `file`: its size smudged when the stamp is racy. */
  #stamp<T extends { size: number; mtime: number }>(file: T): T {
    return { ...file, size: recordedSize(file.size, file.mtime, this.#statsFrom) };
  }

  add(write: FileWrite): void {
    this.#writes.push(this.#stamp(write));
    this.#facts += rowCount(write.rows) + 1;
    if (this.#writes.length >= BATCH_FILES || this.#facts >= BATCH_FACTS) this.flush();
  }

  touch(candidate: Candidate): void {
    this.#touches.push(this.#stamp(candidate));
    if (this.#touches.length >= BATCH_FILES * 16) this.flush();
  }

  fail(failure: FailureRow): void {
    this.#failures.push(this.#stamp(failure));
    if (this.#failures.length >= BATCH_FILES) this.flush();
  }

  touchFailure(candidate: Candidate): void {
    this.#failureTouches.push(this.#stamp(candidate));
    if (this.#failureTouches.length >= BATCH_FILES * 16) this.flush();
  }

  flush(): void {
    const writes = this.#writes;
    const touches = this.#touches;
    const failures = this.#failures;
    const failureTouches = this.#failureTouches;
    if (writes.length + touches.length + failures.length + failureTouches.length === 0) return;
    this.#writes = [];
    this.#touches = [];
    this.#failures = [];
    this.#failureTouches = [];
    this.#facts = 0;
    const chunks: RowValue[] = [];
    const sink = this.#side && ((values: RowValue[]) => {
      for (const value of values) chunks.push(value);
    });
    this.#store.transaction(() => {
      for (const write of writes) this.#store.writeFile(write, sink);
      for (const file of touches) this.#store.touchFile(file.path, file.size, file.mtime);
      for (const failure of failures) this.#store.recordFailure(failure);
      for (const file of failureTouches) this.#store.touchFailure(file.path, file.size, file.mtime);
    });
    // Once committed: a batch rolled back sends no chunk.
    this.#side?.write(chunks);
  }
}

interface RunState {
  parsed: number;
  unchanged: number;
  skipped: number;
  /** Files that failed before on the same content: not parsed again. */
  failedBefore: number;
  parseErrorFiles: number;
  timedOut: boolean;
}

/** Reads, hashes and (when its content changed) extracts and queues each candidate. */
async function processCandidates(
  candidates: Candidate[],
  known: Map<string, FileRow>,
  failed: Map<string, FailureRow>,
  options: IndexOptions,
  writer: BatchWriter,
  diagnostics: Diagnostic[],
): Promise<RunState> {
  const state: RunState = {
    parsed: 0,
    unchanged: 0,
    skipped: 0,
    failedBefore: 0,
    parseErrorFiles: 0,
    timedOut: false,
  };
  const deadline = options.timeoutMs ? Date.now() + options.timeoutMs : Infinity;
  // Sized by the files whose stamp changed: the others are most likely only read and hashed.
  let changedBytes = 0;
  for (const candidate of candidates) {
    const row = known.get(candidate.path);
    if (!row || row.size !== candidate.size || row.mtime !== candidate.mtime) {
      changedBytes += candidate.size;
    }
  }
  const { extract, inFlight, workers, close } = extractor(
    options.threads,
    candidates.length,
    changedBytes,
    options.signal,
  );
  // With the parse spread over workers, the writes are what the run waits for: the chunks go to
  // a thread of their own (extraction on the calling thread leaves no thread to overlap).
  if (workers > 0 && options.sideChunks !== false) writer.divertChunks();
  const running = new Set<Promise<void>>();
  const parseErrors: Diagnostic[] = [];
  try {
    let nextId = 0;
    for (const candidate of candidates) {
      options.signal?.throwIfAborted();
      if (Date.now() > deadline) {
        state.timedOut = true;
        break;
      }
      await writer.room();
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = await Deno.readFile(candidate.absPath);
      } catch (error) {
        state.skipped++;
        diagnostics.push(
          note(
            "MAG-IO-015",
            `${candidate.path} could not be read: ${String(error)}`,
            candidate.path,
          ),
        );
        continue;
      }
      const hash = sha256(bytes);
      if (known.get(candidate.path)?.hash === hash) {
        state.unchanged++;
        writer.touch(candidate);
        continue;
      }
      if (failed.get(candidate.path)?.hash === hash) {
        state.failedBefore++;
        writer.touchFailure(candidate);
        continue;
      }
      const task: ExtractTask = {
        id: nextId++,
        path: candidate.path,
        language: candidate.language,
        bytes,
        heapCeiling: options.parserHeapCeiling,
      };
      const job = extract(task).then((reply) => {
        if ("failure" in reply) {
          state.skipped++;
          const reason = `${reply.failure.name}: ${reply.failure.message}`;
          diagnostics.push(
            note("MAG-IO-015", `${candidate.path} was not indexed: ${reason}`, candidate.path),
          );
          // A dead worker fails every file it held, not only the one it died on; a spent
          // runtime fails every file after the one it aborted on.
          if (reply.failure.name !== WORKER_DIED && reply.failure.name !== RUNTIME_SPENT) {
            const { path, size, mtime } = candidate;
            writer.fail({ path, hash, size, mtime, reason });
          }
          return;
        }
        state.parsed++;
        const cut = reply.rows.cut;
        if (cut) {
          diagnostics.push(note(
            "MAG-IO-026",
            `${candidate.path}: its facts stop at line ${cut.line}, the rest has none: its ` +
              `syntax tree has more than the ${cut.budget} nodes a file's facts are taken from ` +
              "(a generated or data file?)",
            candidate.path,
          ));
        }
        if (reply.rows.parse_errors > 0) {
          state.parseErrorFiles++;
          parseErrors.push(note(
            "MAG-AST-001",
            `${candidate.path} has ${reply.rows.parse_errors} syntax error(s); indexed as far as its tree allows`,
            candidate.path,
          ));
        }
        writer.add({
          path: candidate.path,
          hash,
          size: candidate.size,
          mtime: candidate.mtime,
          rows: reply.rows,
        });
      });
      running.add(job);
      job.finally(() => running.delete(job));
      if (running.size >= inFlight) await Promise.race(running);
    }
    await Promise.all(running);
  } finally {
    close();
  }
  diagnostics.push(...parseErrors.slice(0, LISTED_PARSE_ERRORS));
  if (parseErrors.length > LISTED_PARSE_ERRORS) {
    diagnostics.push(note(
      "MAG-AST-001",
      `${
        parseErrors.length - LISTED_PARSE_ERRORS
      } more file(s) have syntax errors (\`llm-symbols status\` counts them)`,
      undefined,
      "note",
    ));
  }
  return state;
}

/**
 * Brings the index of `options.root` up to date and reports what it did.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexRoot } from "./indexer.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n");
 * const { result } = await indexRoot({ root, threads: 0 });
 * assert.equal(result.symbols, 1);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function indexRoot(options: IndexOptions): Promise<IndexOutcome> {
  const location = locateDb(options.root, options.db, true);
  // The whole run holds the refresh claim, its deletion of a damaged index included: a host
  // still connected to the deleted file reopens the index only while no run holds it.
  using _claim = await RefreshClaim.take(location);
  const claimed = { ...options, claimed: true };
  try {
    return await indexInto(openChecked(location), claimed);
  } catch (error) {
    if (!isDamage(error)) throw error;
    // A damaged or crafted index holds nothing the files cannot give again: it is deleted and
    // built anew, once (a second refusal is reported as it is).
    discardIndex(location);
    const outcome = await indexInto(IndexStore.open(location, "write"), claimed);
    outcome.diagnostics.unshift(note(
      "MAG-IO-024",
      `the index ${location.displayPath} was deleted and built anew from the files: ${error.message}`,
      location.displayPath,
      "note",
    ));
    return outcome;
  }
}

/**
 * Builds the index of `options.root` in memory ({@linkcode IndexStore.inMemory}) and answers it
 * open, with what the run did; the caller queries it and closes it. The files are walked,
 * extracted (on workers when the run may start them, as {@linkcode indexRoot} does; on the
 * calling thread otherwise, such as under a read permission scoped to the root) and written
 * exactly as `indexRoot` writes them into `.llm/index.db`, so the rows are the same; but nothing
 * is written to disk: no database file, no refresh claim, no `.llm/` folder and no repository
 * index (`.llm/trigram.idx`). It needs only read permission for the root. The run's `written`
 * list is empty and its `db_path` is `:memory:` (`IN_MEMORY` of `store.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexInMemory } from "./indexer.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n\ndef g():\n    f()\n");
 * const { store, outcome } = await indexInMemory({ root, threads: 0 });
 * try {
 *   assert.equal(outcome.result.symbols, 2);
 *   assert.deepEqual(store.refsNamed("f", true).map((use) => use.enclosing), ["g"]);
 * } finally {
 *   store.close();
 * }
 * assert.deepEqual([...Deno.readDirSync(root)].map((entry) => entry.name), ["a.py"]); // no .llm
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function indexInMemory(
  options: Omit<IndexOptions, "db" | "claimed" | "afterWrite" | "beforeParse">,
): Promise<{ store: IndexStore; outcome: IndexOutcome }> {
  // What `indexInto` does with a file's index less the repository index and the store's
  // closing: the refresh itself. A caller's stray `db`, `claimed`, `afterWrite` or
  // `beforeParse` (the type leaves them out) is dropped, so that no file is named and no work
  // is hooked in.
  const { db: _db, claimed: _claimed, afterWrite: _a, beforeParse: _b, ...rest } =
    options as IndexOptions;
  const store = IndexStore.inMemory(rest.root);
  try {
    return { store, outcome: await refreshIndex(store, rest) };
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * Largest index (database and log, bytes) that every `index` run checks whole with SQLite's
 * `PRAGMA quick_check` before using it. The check reads every page: 2.9 s for a 973 MB index
 * (57,000 files, 7.9 million uses) and 30 ms for this repository's 6 MB one, on the 2-core
 * machine; under this bound it stays under about 0.2 s, beside runs that take longer (at that
 * rate, checking the Linux tree's 2.8 GB index would add about 8 s to the 1.1 s `index` after an
 * edit). A larger index is checked as it is read: damage SQLite meets in the pages a run
 * reads is repaired the same way; damage only a query meets is refused there (`MAG-IO-022`,
 * whose remediation says to delete the file then).
 */
const QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024;

/** The index at `location` opened for writing, checked whole when it is small enough. */
function openChecked(location: DbLocation): IndexStore {
  const store = IndexStore.open(location, "write");
  try {
    const bytes = ["", "-wal"].reduce(
      (sum, suffix) => sum + (statIfPresent(location.absPath + suffix)?.size ?? 0),
      0,
    );
    if (bytes <= QUICK_CHECK_MAX_BYTES) store.checkWhole();
    return store;
  } catch (error) {
    store.close();
    throw error;
  }
}

/** What {@linkcode indexRoot} does with the index open in `store` (closed at its end). */
async function indexInto(store: IndexStore, options: IndexOptions): Promise<IndexOutcome> {
  let outcome: IndexOutcome;
  try {
    const first = await repositoryFirst(store, options);
    let plan: RepositoryPlan = { build: first, drift: 0 };
    const early = first ? undefined : await earlyRepositoryWorker(options);
    const afterWrite = async (written: WrittenCounts) => {
      plan = await planRepositoryIndex(store, options, written, early);
    };
    const beforeParse = async (bytes: number) => {
      await options.beforeParse?.(bytes);
      if (bytes > OVERLAPPED_BUILD_BYTES) await first?.outcome().catch(() => {});
    };
    try {
      outcome = await refreshIndex(
        store,
        first ? { ...options, beforeParse } : { ...options, afterWrite },
      );
    } catch (error) {
      (plan.build ?? early)?.cancel();
      throw error;
    }
    await finishRepositoryIndex(store, plan, outcome);
  } finally {
    store.close();
  }
  return outcome;
}

/** `meta` key: files re-parsed or removed since the repository index was last built. */
const TRIGRAM_DRIFT_KEY = "trigram_drift";

/**
 * Share of the indexed files that may have changed since the repository index was built before
 * the indexing command builds it again. Below it, the existing index stays: `llm-search` searches
 * the files changed since the build directly (results stay exact), and an index run after one
 * edit stays incremental instead of re-reading the whole tree (128 s on the Linux tree).
 */
export const TRIGRAM_REBUILD_DRIFT = 0.02;

/** Whether the run rebuilds the repository index (the build, started), else its new drift. */
interface RepositoryPlan {
  build?: RepositoryBuild;
  drift: number;
}

/**
 * One command builds everything an index holds: the search's repository index
 * (`.llm/trigram.idx`) too, when there is none, when it cannot be read, or when the files changed
 * since its build pass {@linkcode TRIGRAM_REBUILD_DRIFT}. The build starts on a worker thread,
 * when the run may start one, so that it overlaps the making of the lookup indexes.
 */
async function planRepositoryIndex(
  store: IndexStore,
  options: IndexOptions,
  written: WrittenCounts,
  early: RepositoryWorker | undefined,
): Promise<RepositoryPlan> {
  const drift = Number(store.meta(TRIGRAM_DRIFT_KEY) ?? "Infinity") + written.parsed +
    written.removed;
  const { existingIndex } = await import("../trigram/open.ts");
  const kept = existingIndex(options.root) !== undefined &&
    drift <= TRIGRAM_REBUILD_DRIFT * written.filesSeen &&
    await repositoryIndexReadable(options.root);
  if (kept) {
    early?.cancel();
    return { drift };
  }
  const worker = early ?? (mayOverlap(options) ? new RepositoryWorker() : undefined);
  const build = worker
    ? worker.build(options.root, coverageOf(options.walk), options.signal)
    : deferredRepositoryBuild(options.root, options.walk, options.signal);
  return { build, drift };
}

/**
 * Most bytes of files to parse beside which the repository index's build started first runs on
 * (the parsers start with it): its worker holds about three times the bytes it reads, at most
 * about 0.2 GB then, and on many cores its 0.35 s (Linux `kernel/`) left the cores idle.
 */
const OVERLAPPED_BUILD_BYTES = 64 * 1024 * 1024;

/**
 * The repository index's build, started first when the run is known to rebuild it (there is
 * none, it cannot be read, or the symbol index has no record of it) and may build it on a
 * worker. On a large tree it runs to its end before any file is parsed
 * ({@linkcode OVERLAPPED_BUILD_BYTES}): built at the end instead, beside the memory the run
 * holds by then, it took the cold run over the Linux tree to 1.63 GB; built first, the worker's
 * memory is gone before the parsers' comes. Its failure is thrown where the build's outcome is
 * asked for, after the symbol index, as before.
 */
async function repositoryFirst(
  store: IndexStore,
  options: IndexOptions,
): Promise<RepositoryBuild | undefined> {
  if (!mayOverlap(options)) return undefined;
  const { existingIndex } = await import("../trigram/open.ts");
  const known = store.meta(TRIGRAM_DRIFT_KEY) === undefined ||
    existingIndex(options.root) === undefined || !await repositoryIndexReadable(options.root);
  if (!known) return undefined;
  return new RepositoryWorker().build(options.root, coverageOf(options.walk), options.signal);
}

/**
 * Whether the repository index may be built on a worker thread while the symbol index is
 * written. A hidden walk lists `.llm/` too, so it waits until the symbol index is written.
 */
function mayOverlap(options: IndexOptions): boolean {
  return options.threads !== 0 && !options.walk?.hidden && workersAvailable();
}

/**
 * A repository worker started with the run when the run will build the repository index
 * (there is none yet) and may overlap it.
 */
async function earlyRepositoryWorker(
  options: IndexOptions,
): Promise<RepositoryWorker | undefined> {
  if (!mayOverlap(options)) return undefined;
  const { existingIndex } = await import("../trigram/open.ts");
  return existingIndex(options.root) === undefined ? new RepositoryWorker() : undefined;
}

/** Records the repository index's build (its result, or why it was not written) or drift. */
async function finishRepositoryIndex(
  store: IndexStore,
  plan: RepositoryPlan,
  outcome: IndexOutcome,
): Promise<void> {
  if (!plan.build) {
    store.setMeta(TRIGRAM_DRIFT_KEY, String(plan.drift));
    return;
  }
  const repository = await plan.build.outcome();
  outcome.diagnostics.push(...repository.diagnostics);
  if (!repository.result) return;
  outcome.result.trigram_index = repository.result;
  outcome.result.written.push({ file_path: repository.result.path });
  store.setMeta(TRIGRAM_DRIFT_KEY, "0");
}

/** Whether the repository index of `root` opens (header, checksums, built for this root). */
async function repositoryIndexReadable(root: string): Promise<boolean> {
  const { indexPathOf, openIndex, IndexRefusal } = await import("../trigram/reader.ts");
  try {
    // Not closed: openIndex keeps it for the process's searches (a long-lived host's too).
    const index = openIndex(indexPathOf(root));
    return index !== undefined && index.meta.root === Deno.realPathSync(root);
  } catch (error) {
    // A damaged index is rebuilt, which is what the caller does when this says no.
    if (error instanceof IndexRefusal) return false;
    throw error;
  }
}

/**
 * Brings an index opened for writing up to date with the walk of `options.root` (what
 * {@linkcode indexRoot} does, on a store a long-lived host keeps open). It holds the index's
 * refresh claim while it runs, waiting first for another run that holds it (unless the caller
 * holds it: `claimed`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refreshIndex } from "./indexer.ts";
 * import { IndexStore, locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n");
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * assert.equal((await refreshIndex(store, { root, threads: 0 })).result.parsed, 1);
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function refreshIndex(
  store: IndexStore,
  options: IndexOptions,
): Promise<IndexOutcome> {
  const location = store.location;
  // Another run under way parses what this one would: its files are written when it ends. An
  // index in memory is this run's alone, and has no file beside which to claim it.
  using _claim = options.claimed || location.inMemory
    ? undefined
    : await RefreshClaim.take(location);
  const started = Date.now();
  const diagnostics: Diagnostic[] = [];
  // Before the index's rows are compared with the walk: the files a stopped side build left
  // without chunks lose their rows, and are extracted again as new.
  recoverSideChunks(store);
  // The walk the repository index recorded, when it still holds, saves reading every folder.
  const recorded = options.walk?.cache ? undefined : await recordedWalk(options.root);
  const walk = { ...options.walk, cache: options.walk?.cache ?? recorded?.cache };
  let candidates: Candidate[];
  try {
    candidates = walkCandidates(
      { ...options, walk, stat: recorded?.stat },
      // No walked path is empty: a file named `:memory:` is no index in memory to leave out.
      location.inMemory ? "" : location.displayPath,
      diagnostics,
    );
  } finally {
    recorded?.close();
  }
  const indexed = new Map(store.fileStamps().map((stamp) => [stamp[0], stamp]));
  const failed = new Map(store.failures().map((row) => [row.path, row]));
  const walked = new Set(candidates.map((candidate) => candidate.path));
  const gone = [...indexed.keys()].filter((path) => !walked.has(path));
  const goneFailures = [...failed.keys()].filter((path) => !walked.has(path));
  if (indexed.size > 0) store.ensureLookupIndexes();
  if (gone.length + goneFailures.length > 0) {
    store.transaction(() => {
      gone.forEach((path) => store.removeFile(path));
      goneFailures.forEach((path) => store.clearFailure(path));
    });
  }
  const maxBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  const toCheck: Candidate[] = [];
  let sameStamp = 0;
  let failedSameStamp = 0;
  let tooLarge = 0;
  // Facts of an older extraction are re-extracted, whatever the files' stamps and hashes.
  const factsCurrent = store.factsCurrent();
  for (const candidate of candidates) {
    const stamp = indexed.get(candidate.path);
    const failure = failed.get(candidate.path);
    if (factsCurrent && stamp && stamp[1] === candidate.size && stamp[2] === candidate.mtime) {
      sameStamp++;
    } else if (!stamp && failure?.size === candidate.size && failure.mtime === candidate.mtime) {
      failedSameStamp++;
    } else if (candidate.size > maxBytes) {
      tooLarge++;
      diagnostics.push(tooLargeNote(candidate, maxBytes));
    } else toCheck.push(candidate);
  }
  if (indexed.size === gone.length) store.dropLookupIndexes();
  const known = factsCurrent ? indexedRows(store, toCheck, indexed) : new Map<string, FileRow>();
  await options.beforeParse?.(toCheck.reduce((sum, candidate) => sum + candidate.size, 0));
  // Every stat of this run comes after its start.
  const cold = !location.inMemory && indexed.size === 0 && store.chunksEmpty();
  const writer = new BatchWriter(store, started, cold);
  let state: RunState;
  try {
    state = await processCandidates(toCheck, known, failed, options, writer, diagnostics);
    writer.flush();
    if (!factsCurrent && !state.timedOut) store.markFactsCurrent();
    await options.afterWrite?.({
      parsed: state.parsed,
      removed: gone.length,
      filesSeen: candidates.length,
    });
    store.ensureLookupIndexes();
    // After the lookup indexes, which the side build's last batches overlap.
    await writer.adoptChunks();
  } finally {
    await writer.close();
  }
  const failedBefore = failedSameStamp + state.failedBefore;
  if (failedBefore > 0) diagnostics.push(failedBeforeNote(failedBefore));
  store.setMeta(INDEXED_AT_KEY, new Date().toISOString());
  store.setMeta(WALK_META_KEY, JSON.stringify(coverageOf(options.walk)));
  store.setMeta(MAX_FILE_BYTES_META, String(maxBytes));
  if (state.timedOut) {
    diagnostics.push(note(
      "MAG-IO-016",
      `the run stopped at its time limit (${options.timeoutMs} ms); run \`llm-symbols index\` again for the rest`,
    ));
  }
  const counts = store.counts();
  return {
    result: {
      db_path: location.displayPath,
      files_seen: candidates.length,
      parsed: state.parsed,
      unchanged: sameStamp + state.unchanged,
      removed: gone.length,
      parse_error_files: state.parseErrorFiles,
      skipped: state.skipped + tooLarge + failedBefore,
      symbols: counts.symbols,
      references: counts.references,
      imports: counts.imports,
      duration_ms: Date.now() - started,
      written: location.inMemory
        ? []
        : ["", "-wal", "-shm"].map((suffix) => ({ file_path: location.displayPath + suffix })),
    },
    diagnostics,
    partial: state.timedOut || state.skipped + tooLarge + failedBefore > 0,
  };
}

/**
 * The index rows (with their content hashes) of the candidates to check that are indexed: read
 * one by one, since after an edit they are a handful of the index's files.
 */
function indexedRows(
  store: IndexStore,
  candidates: readonly Candidate[],
  indexed: ReadonlyMap<string, unknown>,
): Map<string, FileRow> {
  const rows = new Map<string, FileRow>();
  for (const { path } of candidates) {
    const row = indexed.has(path) ? store.file(path) : undefined;
    if (row) rows.set(path, row);
  }
  return rows;
}

/** One note for the files whose extraction failed before on the content they still have. */
function failedBeforeNote(files: number): Diagnostic {
  return note(
    "MAG-IO-020",
    `${files} file(s) failed extraction before and are unchanged: not parsed again (\`llm-symbols status\` lists them)`,
  );
}

function tooLargeNote(candidate: Candidate, maxBytes: number): Diagnostic {
  return note(
    "MAG-IO-015",
    `${candidate.path} (${candidate.size} bytes) is larger than max_file_bytes ${maxBytes}`,
    candidate.path,
  );
}

/** What re-indexing named files did. */
export interface ReindexOutcome {
  /** Files parsed again. */
  parsed: number;
  /** Files whose facts were removed. */
  removed: number;
  /** Parse errors and files that could not be read. */
  diagnostics: Diagnostic[];
}

/**
 * Re-indexes the named files only, without a walk (a file watcher's changed paths): each of
 * `gone` loses its facts; each of `changed` whose size or time moved (or whose recorded stamp is
 * racy) is hashed and, when its content changed, parsed again on the calling thread (a handful
 * of files: no worker to start). The stamps of `changed` come from stats made at or after
 * `statsFrom` (wall clock, ms).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reindexFiles } from "./indexer.ts";
 * import { IndexStore, locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * assert.equal((await reindexFiles(store, [], ["gone.py"], Date.now())).removed, 0); // not indexed
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function reindexFiles(
  store: IndexStore,
  changed: readonly Candidate[],
  gone: readonly string[],
  statsFrom: number,
  signal?: AbortSignal,
): Promise<ReindexOutcome> {
  const diagnostics: Diagnostic[] = [];
  const indexed = gone.filter((path) => store.file(path) !== undefined);
  store.transaction(() => {
    indexed.forEach((path) => store.removeFile(path));
    gone.forEach((path) => store.clearFailure(path));
  });
  const known = new Map<string, FileRow>();
  const failed = new Map(store.failures().map((row) => [row.path, row]));
  const toCheck: Candidate[] = [];
  for (const candidate of changed) {
    const row = store.file(candidate.path) ?? failed.get(candidate.path);
    if (row && "id" in row) known.set(candidate.path, row);
    if (row && row.size === candidate.size && row.mtime === candidate.mtime) continue;
    if (candidate.size > MAX_FILE_BYTES) {
      diagnostics.push(tooLargeNote(candidate, MAX_FILE_BYTES));
    } else toCheck.push(candidate);
  }
  // A few files, on the calling thread (`threads: 0`): no side build.
  const writer = new BatchWriter(store, statsFrom, false);
  const options = { root: "", threads: 0, signal };
  const state = await processCandidates(toCheck, known, failed, options, writer, diagnostics);
  writer.flush();
  return { parsed: state.parsed, removed: indexed.length, diagnostics };
}
