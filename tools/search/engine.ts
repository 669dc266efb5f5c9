/**
 * The search engine as a library function: walk, dispatch files to workers in batches (or
 * search inline when the tree is small), and collect results in walk order.
 *
 * @module
 */
import { type EngineWalkOptions, type WalkEntry, Walker } from "../../core/walk/walker.ts";
import { permissionError } from "../../core/permissions.ts";
import { threadCount, workersAvailable } from "../../core/workers.ts";
import { Breather } from "../../core/breather.ts";
import { LinearRegExp, MatchStopped, UnsupportedPattern } from "../../core/linear_regex.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import type { SearchData } from "../../schema/search.ts";
import { type BatchFile, type BatchOutcome, BatchSearcher } from "./batch.ts";
import { ResultCollector, type SearchMode } from "./collector.ts";
import { buildMatcher, type MatcherOptions, type MatcherSpec } from "./matcher.ts";
import type { SearchFileOptions } from "./searcher.ts";
import type { WorkerRequest } from "./worker.ts";
import { openSearchIndex } from "./indexed.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { SEARCH_DEFAULTS } from "./defaults.ts";

/** Walk settings a search passes through to the walker. */
export type SearchWalkOptions = EngineWalkOptions;

/** Everything a search needs. */
export interface SearchOptions extends MatcherOptions {
  /** Tool root: relative paths resolve against it, file paths are reported relative to it. */
  cwd: string;
  /** Files or directories to search; default the root. */
  paths?: readonly string[];
  /** What to list. */
  mode?: SearchMode;
  /** Matching lines per file before the file is left (ripgrep's `-m`). */
  maxCount?: number;
  /** Results to list (0: all). */
  limit?: number;
  /** Context lines before each match. */
  before?: number;
  /** Context lines after each match. */
  after?: number;
  /** Longest line text in bytes. */
  maxColumns?: number;
  /** Add checksums to matches. */
  withChecksums?: boolean;
  /** Walker settings. */
  walk?: SearchWalkOptions;
  /** Worker threads; default the number of CPUs. `1` searches on the calling thread. */
  threads?: number;
  /**
   * How long an unindexed search without a time budget runs on the calling thread before it
   * takes workers for the rest (default INLINE_MS, 40 ms): a small tree is done by then.
   */
  inlineMs?: number;
  /** Stream listed results here instead of keeping them in `data`. */
  emit?: (item: unknown) => void;
  /**
   * Cancels the search (an MCP client's cancellation): it stops between files and inside a
   * match (see `timeoutMs`), on the calling thread and in workers alike.
   */
  signal?: AbortSignal;
  /**
   * Time budget in milliseconds. Under a budget or a signal, a pattern that may backtrack is
   * matched by the linear-time engine (`core/linear_regex.ts`), which checks the budget and the
   * signal as it goes, so the bound holds on the calling thread as in workers, whether or not
   * workers can start; a pattern that needs backtracking (a backreference, a look-around of
   * more than one character) is refused with `LMS-QRY-004`. When the budget passes the results
   * found so far are kept, `partial` is set and an `LMS-QRY-003` warning names each file that
   * was being matched.
   */
  timeoutMs?: number;
  /**
   * Keep the worker threads of a run that finished for the next run of this process (a
   * long-lived host such as the MCP server, where every call has a time budget and so uses
   * workers); a one-shot run lets them go. Threads stopped by a deadline or an abort are never
   * kept.
   */
  keepWorkers?: boolean;
  /**
   * Use the repository index `<cwd>/.llm/trigram.idx` when there is one (default `true`); the
   * results are the same either way.
   */
  useIndex?: boolean;
  /**
   * Search only the files from this `file_path` on, in the walk's order: the rest of a search
   * its time budget cut, whose `resume_at` names it. Over one named path (or the root) the walk
   * is in path order, so a file gone since then resumes at the next one.
   */
  resumeAt?: string;
}

/** The result of a search. */
export interface SearchResult {
  /** The envelope's data. */
  data: SearchData;
  /** Walk and read diagnostics. */
  diagnostics: Diagnostic[];
  /** Whether the listing was cut by the limit. */
  partial: boolean;
}

/** Below this many files a search runs on the calling thread: starting workers costs more. */
const INLINE_FILES = 400;
/** A search without a time budget runs on the calling thread this long before it takes workers. */
const INLINE_MS = 40;
/**
 * A bounded search on the calling thread lets the event loop run this often (ms), so that a host
 * running it there (the MCP server when it cannot start workers) answers `ping`, `tools/list`
 * and cancellations meanwhile.
 */
const BREATH_MS = 10;
/**
 * Files per batch sent to a worker. Each batch costs a message each way and a wake-up of both
 * threads: on Linux 6.1, 192 files a batch (408 batches) took 45-60 ms less wall time and 90 ms
 * less CPU than 96 (815 batches) for an unindexed literal search; 384 gained no more, and a warm
 * 3,725-file search still has 20 batches to share.
 */
const BATCH_FILES = 192;
/** Batches a worker may hold at once, so it never waits for the walking thread. */
const BATCHES_IN_FLIGHT = 3;
/**
 * Under a time budget each batch of a backtracking pattern is one file, so the results of every
 * file finished before the deadline survive the workers' termination; more of them are kept in
 * flight.
 */
const TIMED_BATCHES_IN_FLIGHT = 32;

const WORKER_URL = new URL("./worker.ts", import.meta.url);

function toBatchFile(entry: WalkEntry): BatchFile {
  return { absPath: entry.absPath, filePath: entry.filePath, explicit: entry.explicit };
}

/** Pulls up to `count` files from the walk. */
function takeFiles(entries: Iterator<WalkEntry>, count: number): BatchFile[] {
  const files: BatchFile[] = [];
  while (files.length < count) {
    const next = entries.next();
    if (next.done) break;
    if (next.value.kind === "file") files.push(toBatchFile(next.value));
  }
  return files;
}

interface WorkerReply {
  id: number;
  outcome?: BatchOutcome;
  failure?: { message: string; refused: boolean };
}

/** A worker thread and the shared slots where it says which batch and file it is on. */
interface SearchThread {
  worker: Worker;
  progress: Int32Array<SharedArrayBuffer>;
}

/** What a worker run hands back besides the collected results. */
interface WorkerRunOutcome {
  /** Files being matched when the time budget ran out (none when the run finished). */
  inFlight: string[];
  /** Files sent to workers whose results the answer lacks because the budget ran out. */
  unsearched: number;
  /** The walk had files left that were never sent. */
  walkLeft: boolean;
  /**
   * The first file, in walk order, whose results the answer lacks, when the budget cut the run:
   * every file before it is answered in full and none after it, so the search resumed there
   * misses and repeats nothing.
   */
  resumeAt?: string;
}

/**
 * Worker threads a long-lived host kept from finished runs. A thread that is not busy reads
 * messages, so its next run re-initialises it with that run's matcher.
 */
const idleThreads: SearchThread[] = [];

function startThread(
  spec: MatcherSpec,
  fileOptions: SearchFileOptions,
  onReply: (reply: WorkerReply) => void,
  stop: { flag: Int32Array<SharedArrayBuffer>; deadline: number | undefined } | undefined,
): SearchThread {
  const thread = idleThreads.pop() ?? {
    worker: new Worker(WORKER_URL, { type: "module" }),
    progress: new Int32Array(new SharedArrayBuffer(8)),
  };
  const { worker, progress } = thread;
  progress.fill(-1);
  worker.onmessage = (event: MessageEvent<WorkerReply>) => onReply(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    onReply({ id: -1, failure: { message: event.message, refused: false } });
  };
  const init: WorkerRequest = {
    type: "init",
    spec,
    options: fileOptions,
    progress: progress.buffer,
  };
  if (stop) {
    init.stopFlag = stop.flag.buffer;
    if (stop.deadline !== undefined) init.deadline = stop.deadline;
  }
  worker.postMessage(init);
  return thread;
}

/** Ends a run's threads: idle ones are kept for the next run when `keep`, the rest stopped. */
function releaseThreads(pool: SearchThread[], keep: boolean): void {
  for (const thread of pool) {
    if (keep) idleThreads.push(thread);
    else thread.worker.terminate();
  }
}

/** Resolves at the next reply, at the deadline, or on abort, whichever comes first. */
function nextEvent(
  setWake: (wake: (() => void) | undefined) => void,
  deadline: number | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = deadline === undefined
      ? undefined
      : setTimeout(resolve, Math.max(0, deadline - Date.now()));
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      setWake(undefined);
      resolve();
    };
    signal?.addEventListener("abort", done);
    setWake(done);
  });
}

/**
 * Runs batches on a pool of workers and hands results back in batch order. With a `deadline`
 * (epoch ms), workers are terminated when it passes, even inside a regular expression that
 * backtracks catastrophically (V8 cannot interrupt one on its own thread): the results of
 * finished batches are kept and the files then being matched are returned. An abort of
 * `signal` terminates them the same way and throws.
 */
async function searchWithWorkers(
  first: BatchFile[],
  entries: Iterator<WalkEntry>,
  spec: MatcherSpec,
  fileOptions: SearchFileOptions,
  threads: number,
  collector: ResultCollector,
  signal: AbortSignal | undefined,
  deadline: number | undefined,
  keep: boolean,
): Promise<WorkerRunOutcome> {
  const inbox: WorkerReply[] = [];
  let wake: (() => void) | undefined;
  // Raised when the run ends early, so that a match under way in a worker stops too.
  const stop = deadline !== undefined || signal !== undefined
    ? { flag: new Int32Array(new SharedArrayBuffer(4)), deadline }
    : undefined;
  const pool = Array.from({ length: threads }, () =>
    startThread(spec, fileOptions, (reply) => {
      inbox.push(reply);
      wake?.();
    }, stop));
  const load = new Array<number>(threads).fill(0);
  const owner = new Map<number, number>();
  const sent = new Map<number, BatchFile[]>();
  const done = new Map<number, BatchOutcome>();
  let nextId = 0;
  let nextToCollect = 0;
  const pending = [...first];
  // Under a budget, a file a message, so that every file matched before it ends is answered;
  // plain text takes whole batches (a file a message cost a third of a warm 3,725-file search),
  // and a batch cut by the budget loses at most a few milliseconds of matching.
  const oneByOne = deadline !== undefined && !spec.linear;
  // Files per batch of the walk's first files: without a budget, all of them at once.
  const pendingBatchFiles = oneByOne ? 1 : deadline === undefined ? pending.length : BATCH_FILES;
  const nextBatch = () =>
    pending.length > 0
      ? pending.splice(0, pendingBatchFiles)
      : takeFiles(entries, oneByOne ? 1 : BATCH_FILES);
  const capacity = oneByOne ? TIMED_BATCHES_IN_FLIGHT : BATCHES_IN_FLIGHT;
  let walkDone = false;
  // Threads are kept only after a run that ended with every batch answered: a thread stopped
  // by a deadline, an abort or a failure may still be computing.
  let finished = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      if (deadline !== undefined && Date.now() >= deadline) {
        const next = walkDone ? undefined : pending[0] ?? takeFiles(entries, 1)[0];
        return stopAtDeadline(pool, sent, done, nextToCollect, next, walkDone || !next);
      }
      // Keep every worker supplied while the walk lasts.
      for (let slot = 0; !walkDone && slot < threads; slot++) {
        while (load[slot] < capacity) {
          const files = nextBatch();
          if (files.length === 0) {
            walkDone = true;
            break;
          }
          const id = nextId++;
          owner.set(id, slot);
          sent.set(id, files);
          load[slot]++;
          pool[slot].worker.postMessage(
            {
              type: "batch",
              id,
              files,
              countOnly: collector.countsSuffice,
            } satisfies WorkerRequest,
          );
        }
      }
      if (walkDone && nextToCollect === nextId) {
        finished = true;
        return { inFlight: [], unsearched: 0, walkLeft: false };
      }
      if (inbox.length === 0) await nextEvent((w) => (wake = w), deadline, signal);
      for (const reply of inbox.splice(0)) {
        if (reply.failure) {
          const error = new Error(reply.failure.message);
          throw reply.failure.refused ? permissionError("LMS", error) : error;
        }
        load[owner.get(reply.id) ?? 0]--;
        owner.delete(reply.id);
        done.set(reply.id, reply.outcome ?? { unmatched: 0, notable: [] });
      }
      for (let ready = done.get(nextToCollect); ready; ready = done.get(nextToCollect)) {
        done.delete(nextToCollect);
        sent.delete(nextToCollect++);
        collector.add(ready);
      }
    }
  } finally {
    if (!finished && stop) Atomics.store(stop.flag, 0, 1);
    releaseThreads(pool, keep && finished);
  }
}

/**
 * The deadline passed: stops the workers and names the files they were matching. The answer
 * keeps the batches collected so far, every one before the first unfinished batch: those
 * finished past it are dropped with it, so that the search resumed at that batch's first file
 * (`resumeAt`; else at `next`, the walk's next file) repeats no result and misses none.
 */
function stopAtDeadline(
  pool: SearchThread[],
  sent: Map<number, BatchFile[]>,
  done: Map<number, BatchOutcome>,
  nextToCollect: number,
  next: BatchFile | undefined,
  walkDone: boolean,
): WorkerRunOutcome {
  for (const { worker } of pool) worker.terminate();
  const inFlight: string[] = [];
  // Every batch not collected: unanswered, or answered past the first unanswered one.
  let unsearched = [...sent.values()].reduce((sum, files) => sum + files.length, 0);
  for (const { progress } of pool) {
    const batch = Atomics.load(progress, 0);
    const index = Atomics.load(progress, 1);
    const file = done.has(batch) ? undefined : sent.get(batch)?.[index];
    if (!file) continue;
    inFlight.push(file.filePath);
    // Named apart; the files of its batch before it were matched, but their results died with
    // the worker, so they count among the files the answer lacks.
    unsearched--;
  }
  const resumeAt = sent.get(nextToCollect)?.[0]?.filePath ?? next?.filePath;
  return { inFlight: inFlight.sort(), unsearched, walkLeft: !walkDone, resumeAt };
}

/**
 * One `LMS-QRY-003` warning per file being matched when the budget ran out, naming where the
 * search resumes (`resumeAt`, when it got past its first file) or, when it did not, that only
 * narrower paths get further.
 */
function timeoutDiagnostics(outcome: WorkerRunOutcome, timeoutMs: number): Diagnostic[] {
  const left = outcome.unsearched > 0 || outcome.walkLeft;
  const resume = outcome.resumeAt === undefined
    ? "; no file was searched in full: search narrower paths"
    : `; the same search with resume_at ${JSON.stringify(outcome.resumeAt)} searches the rest`;
  const rest = left
    ? `; ${outcome.unsearched} queued file(s)${
      outcome.walkLeft ? " and the rest of the tree" : ""
    } not searched${resume}`
    : outcome.inFlight.length > 0
    ? resume
    : "";
  const files = outcome.inFlight.length > 0 ? outcome.inFlight : [undefined];
  if (outcome.inFlight.length === 0 && !left) return [];
  return files.map((file) =>
    makeDiagnostic(
      LLM_SEARCH,
      "LMS-QRY-003",
      `search timed out after ${timeoutMs} ms${file ? ` while matching ${file}` : ""}${rest}`,
      file ? { level: "warning", file } : { level: "warning" },
    )
  );
}

/** What stops a match under way: the signal's abort (thrown as its reason) or the deadline. */
function stopCheck(deadline: number | undefined, signal: AbortSignal | undefined) {
  return () => {
    signal?.throwIfAborted();
    if (deadline !== undefined && Date.now() >= deadline) {
      throw new MatchStopped("the search's time budget passed");
    }
  };
}

/**
 * Refuses, before the walk, a pattern that a bounded search cannot run: one that may backtrack
 * must run on the linear-time engine, and one it cannot run (a backreference, a look-around of
 * more than one character) would hold a thread that no budget or cancel can stop.
 */
function refuseBacktracking(spec: MatcherSpec, patterns: readonly string[]): void {
  if (spec.linear) return;
  try {
    new LinearRegExp(spec.source, spec.flags);
  } catch (error) {
    if (!(error instanceof UnsupportedPattern)) throw error;
    throw new ToolError(
      "LMS-QRY-004",
      `a search with a time budget or a cancel cannot run this pattern: ${error.message}`,
      { note: `patterns: ${patterns.join(" | ")}` },
    );
  }
}

/**
 * Searches on the calling thread under a time budget or a cancel: both are checked between files
 * and, for a pattern that may backtrack, as it is matched (the linear engine's stop check); the
 * event loop runs every BREATH_MS when there is a signal (a host that may cancel). Returns what
 * the budget left undone; an abort throws the signal's reason.
 */
async function searchInlineBounded(
  first: BatchFile[],
  entries: Iterator<WalkEntry>,
  spec: MatcherSpec,
  fileOptions: SearchFileOptions,
  collector: ResultCollector,
  deadline: number | undefined,
  signal: AbortSignal | undefined,
): Promise<WorkerRunOutcome> {
  const searcher = new BatchSearcher(spec, fileOptions, stopCheck(deadline, signal));
  const breather = new Breather(signal, BREATH_MS);
  const pause = () => breather.breathe();
  let files = first;
  let walkDone = first.length < INLINE_FILES;
  while (files.length > 0) {
    for (const [at, file] of files.entries()) {
      await pause();
      if (deadline !== undefined && Date.now() >= deadline) {
        return {
          inFlight: [],
          unsearched: files.length - at,
          walkLeft: !walkDone,
          resumeAt: file.filePath,
        };
      }
      try {
        collector.add(await searcher.searchPausing(file, pause, collector.countsSuffice));
      } catch (error) {
        if (!(error instanceof MatchStopped)) throw error;
        return {
          inFlight: [file.filePath],
          unsearched: files.length - at - 1,
          walkLeft: !walkDone,
          resumeAt: file.filePath,
        };
      }
    }
    files = walkDone ? [] : takeFiles(entries, BATCH_FILES);
    walkDone ||= files.length < BATCH_FILES;
  }
  return { inFlight: [], unsearched: 0, walkLeft: false };
}

/**
 * Searches `first`, then the walk's next files, on the calling thread for at most `inlineMs`;
 * returns the files it did not reach (the first batch of the rest), empty when the walk is done.
 * Starting workers costs more than such a start (a search of this repository's 568 files took
 * 117 ms with them and 83 ms without), and an unindexed search of Linux lost nothing measurable.
 * An indexed search keeps its calling thread for the freshness check: there this cost 60 ms.
 */
function searchInlineFor(
  first: BatchFile[],
  entries: Iterator<WalkEntry>,
  spec: MatcherSpec,
  fileOptions: SearchFileOptions,
  collector: ResultCollector,
  inlineMs: number,
  { signal }: SearchOptions,
): BatchFile[] {
  const searcher = new BatchSearcher(
    spec,
    fileOptions,
    signal ? stopCheck(undefined, signal) : undefined,
  );
  const until = performance.now() + inlineMs;
  let files = first;
  while (files.length > 0 && performance.now() < until) {
    signal?.throwIfAborted();
    collector.add(searcher.search(files.slice(0, BATCH_FILES), undefined, collector.countsSuffice));
    files = files.length > BATCH_FILES ? files.slice(BATCH_FILES) : takeFiles(entries, BATCH_FILES);
  }
  return files;
}

/**
 * The walk's entries from the file `resumeAt` on. In a walk in path order (`ordered`: one named
 * path) a later path also ends the skip, so a file removed since the cut does not skip the rest;
 * over several named paths, each walked in turn, only the file itself does.
 */
function* resumeFrom(
  entries: Iterator<WalkEntry>,
  resumeAt: string,
  ordered: boolean,
): Generator<WalkEntry> {
  for (let next = entries.next(); !next.done; next = entries.next()) {
    const { filePath } = next.value;
    if (filePath === resumeAt || (ordered && filePath > resumeAt)) {
      yield next.value;
      break;
    }
  }
  for (let next = entries.next(); !next.done; next = entries.next()) yield next.value;
}

/**
 * Where a run cut by its budget resumes: nowhere when it finished no file (it stopped in the
 * first file it took, where resuming would only start it over).
 */
function progressed(outcome: WorkerRunOutcome, first: BatchFile[]): string | undefined {
  return outcome.resumeAt === first[0]?.filePath ? undefined : outcome.resumeAt;
}

/**
 * Searches files under `options.cwd` and returns the data of an `llm-search` envelope.
 * Throws a `ToolError` for bad patterns (`LMS-QRY-*`), bad filters (`LMS-ARG-*`) and missing
 * permissions (`LMS-PERM-*`).
 *
 * @example Count the matches of a pattern
 * ```ts
 * import assert from "node:assert/strict";
 * import { search } from "@llm/search/search";
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/mod.ts`, "export const a = 1;\nexport function f() {}\n");
 * const result = await search({ patterns: ["export"], cwd, paths: ["mod.ts"] });
 * assert.equal(result.data.match_count, 2);
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export async function search(options: SearchOptions): Promise<SearchResult> {
  const spec = buildMatcher(options);
  const indexDiagnostics: Diagnostic[] = [];
  const index = options.useIndex === false
    ? undefined
    : await openSearchIndex(options.cwd, spec, indexDiagnostics, options.walk?.cache);
  const walker = new Walker({
    ...options.walk,
    cache: index ? index.walkCache(options.walk?.cache) : options.walk?.cache,
    tool: LLM_SEARCH,
    prefix: "LMS",
    cwd: options.cwd,
    paths: options.paths,
  });
  const fileOptions: SearchFileOptions = {
    mode: options.mode ?? "matches",
    maxCount: options.maxCount,
    before: options.before ?? 0,
    after: options.after ?? 0,
    maxColumns: options.maxColumns ?? SEARCH_DEFAULTS.maxColumns,
    withChecksums: options.withChecksums ?? false,
  };
  const collector = new ResultCollector(
    [...options.patterns],
    fileOptions.mode,
    options.limit ?? SEARCH_DEFAULTS.limit,
    options.emit,
  );
  const walked = walker.listOrWalk();
  const listed = index ? index.filter(walked) : walked[Symbol.iterator]();
  const entries = options.resumeAt === undefined
    ? listed
    : resumeFrom(listed, options.resumeAt, (options.paths?.length ?? 0) <= 1);
  const first = takeFiles(entries, INLINE_FILES);
  const threads = threadCount(options.threads);
  const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
  const small = first.length < INLINE_FILES || threads === 1;
  const bounded = deadline !== undefined || options.signal !== undefined;
  if (bounded) refuseBacktracking(spec, options.patterns);
  const timeDiagnostics: Diagnostic[] = [];
  let resumeAt: string | undefined;
  if (bounded && (small || !workersAvailable())) {
    const outcome = await searchInlineBounded(
      first,
      entries,
      spec,
      fileOptions,
      collector,
      deadline,
      options.signal,
    );
    resumeAt = progressed(outcome, first);
    timeDiagnostics.push(...timeoutDiagnostics({ ...outcome, resumeAt }, options.timeoutMs ?? 0));
  } else if (small || !workersAvailable()) {
    const searcher = new BatchSearcher(spec, fileOptions);
    for (let files = first; files.length > 0; files = takeFiles(entries, BATCH_FILES)) {
      collector.add(searcher.search(files, undefined, collector.countsSuffice));
    }
  } else if (deadline === undefined && !index) {
    const inlineMs = options.inlineMs ?? INLINE_MS;
    const rest = searchInlineFor(first, entries, spec, fileOptions, collector, inlineMs, options);
    if (rest.length > 0) {
      await searchWithWorkers(
        rest,
        entries,
        spec,
        fileOptions,
        threads,
        collector,
        options.signal,
        undefined,
        options.keepWorkers ?? false,
      );
    }
  } else {
    const outcome = await searchWithWorkers(
      first,
      entries,
      spec,
      fileOptions,
      threads,
      collector,
      options.signal,
      deadline,
      options.keepWorkers ?? false,
    );
    resumeAt = progressed(outcome, first);
    timeDiagnostics.push(...timeoutDiagnostics({ ...outcome, resumeAt }, options.timeoutMs ?? 0));
  }
  const data = collector.finish();
  if (resumeAt !== undefined) data.resume_at = resumeAt;
  if (index) {
    data.files_searched += index.ruledOut;
    data.index = index.use();
  }
  return {
    data,
    diagnostics: [
      ...indexDiagnostics,
      ...walker.diagnostics,
      ...collector.diagnostics,
      ...timeDiagnostics,
    ],
    partial: collector.partial || timeDiagnostics.length > 0,
  };
}
