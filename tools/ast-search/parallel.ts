/**
 * Parsing a work list on every core: the calling thread and the workers of a pool claim files,
 * largest first, from one shared counter; files of languages too small to be worth a grammar in
 * another isolate stay on the calling thread, and small work lists never start a worker.
 *
 * @module
 */
import { Breather } from "../../core/breather.ts";
import { stopFlagOf } from "../../core/stop_flag.ts";
import type { FileVersion } from "../../core/cache.ts";
import { GrammarLoadError, ParserAbortedError, runtimeAborted } from "../../grammars/loader.ts";
import {
  type FileOutcome,
  type FileSearcher,
  type FileTask,
  RunStoppedError,
} from "./file_search.ts";
import { claimNext, type JobMessage, stopClaims, type WorkerFailure } from "./job.ts";
import type { AstSearchOptions } from "./options.ts";
import { PARSE_BYTES_PER_WORKER, workersAvailable, workersFor } from "../../core/workers.ts";
import { ParsePool, sharedPool } from "./pool.ts";

/**
 * Below this many bytes to parse, the calling thread parses alone: a worker spends about
 * 300 ms of CPU (start, runtime, grammar, query, cold code) before it parses at full speed,
 * which is what parsing this much costs.
 */
export const INLINE_BYTES = 1536 * 1024;

/** A language's files go to workers only from this many bytes: loading its grammar in another
 * isolate costs about as much as parsing that much. */
const SHARE_BYTES = 512 * 1024;

/** A file to parse, with what the walk knew of it. */
export interface Task extends FileTask {
  /** Size in bytes. */
  size: number;
  /** Size and mtime, when known (the version the cache keeps its result for). */
  version?: FileVersion;
  /** Named on the command line. */
  explicit: boolean;
}

/** What parsing one file gave. */
export type Result = { outcome: FileOutcome } | { failure: WorkerFailure };

/** What parsing the work list gave. */
export interface Parsed {
  /** The result of each file. */
  results: Map<Task, Result>;
  /** Workers that gave up (their files were parsed here). */
  workerFailures: WorkerFailure[];
  /** Workers were wanted but could not load: everything was parsed on this thread. */
  single: boolean;
}

/**
 * Splits the work into files worth sharing with workers (their language has enough bytes to
 * pay for loading its grammar in another isolate) and files this thread parses alone.
 */
function shareable(
  work: Task[],
  threads: number,
  threshold: number,
): { shared: Task[]; own: Task[] } {
  if (threads < 2) return { shared: [], own: work };
  const bytes = new Map<string, number>();
  for (const task of work) bytes.set(task.language, (bytes.get(task.language) ?? 0) + task.size);
  const enough = Math.min(SHARE_BYTES, threshold);
  const shared = work.filter((task) => (bytes.get(task.language) ?? 0) >= enough);
  const sharedBytes = shared.reduce((sum, task) => sum + task.size, 0);
  if (shared.length < 2 || sharedBytes < threshold) return { shared: [], own: work };
  return { shared, own: work.filter((task) => !shared.includes(task)) };
}

/** Failure of a file not searched because the parser runtime of the calling thread is gone. */
function notParsedHere(reason: string): WorkerFailure {
  return { name: "ParserAbortedError", message: `not searched: ${reason}` };
}

/** How long this thread parses without letting an abort through, when the run has a signal. */
const YIELD_MS = 50;

/**
 * Races `work` against an abort of `signal`, which is also polled every {@linkcode YIELD_MS}: a
 * call worker's signal reads a shared flag and aborts only when checked. The abort resolves the
 * race (the caller then checks the signal).
 */
async function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  if (!signal) return await work;
  let poll: ReturnType<typeof setInterval> | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    const done = () => resolve(undefined);
    signal.addEventListener("abort", done, { once: true });
    poll = setInterval(() => signal.aborted && done(), YIELD_MS);
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    clearInterval(poll);
  }
}

/**
 * Parses `work` (largest first) on this thread and, for larger inputs, on workers: they claim
 * files of the shared languages from one counter, while this thread parses the other files
 * first and then claims with them. A file that cannot be read, or on which a parser failed,
 * has a failure as its result; when the parser runtime of this thread aborts, the files left
 * go to a fresh worker. A grammar that cannot load throws; an abort of `options.signal`
 * terminates the workers and throws its reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAll } from "./parallel.ts";
 * import { FileSearcher } from "./file_search.ts";
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/a.py`, "def f():\n  pass\n");
 * const task = { absPath: `${cwd}/a.py`, filePath: "a.py", language: "python", size: 17, explicit: true };
 * const searcher = new FileSearcher({
 *   mode: "kind", query: "", kinds: ["function"], semantics: false, contextLines: 0,
 *   checksums: false, maxColumns: 500,
 * });
 * const { results } = await parseAll([task], searcher, { cwd });
 * const result = results.get(task);
 * assert.ok(result && "outcome" in result);
 * assert.equal(result.outcome.matches[0].name, "f");
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export async function parseAll(
  work: Task[],
  searcher: FileSearcher,
  options: AstSearchOptions,
): Promise<Parsed> {
  const { signal } = options;
  const bytes = work.reduce((sum, task) => sum + task.size, 0);
  // Parsing threads, this one included (it claims files beside the workers).
  const threads = workersFor(options.threads, bytes, PARSE_BYTES_PER_WORKER);
  const keep = options.keepWorkers ?? options.cache !== undefined;
  const { shared, own, single } = divideWork(work, threads, options);
  const results = new Map<Task, Result>();
  let allDone: (() => void) | undefined;
  const settle = (task: Task, result: Result) => {
    results.set(task, result);
    if (results.size === work.length) allDone?.();
  };
  // Set when the runtime of this thread aborts: the file it aborted on.
  let abortedOn: Task | undefined;
  // Checked inside each parse and query of this thread: a cancelled call stops within ms.
  const stopCheck = signal ? () => signal.aborted : undefined;
  const breather = new Breather(signal, YIELD_MS);
  // On the calling thread a parse also halts now and then and lets the event loop run, so that
  // a host that may cancel (and cannot start workers) keeps answering, and sees the cancel.
  const pause = signal ? () => breather.breathe() : undefined;
  const parseHere = async (task: Task) => {
    if (abortedOn || runtimeAborted()) return;
    try {
      settle(task, { outcome: await searcher.searchFile(task, stopCheck, pause) });
    } catch (error) {
      if (error instanceof GrammarLoadError) throw error;
      if (error instanceof RunStoppedError) {
        signal?.throwIfAborted();
        throw error;
      }
      if (error instanceof ParserAbortedError) abortedOn = task;
      settle(task, { failure: failureOf(error) });
    }
  };
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const job = {
    spec: searcher.spec,
    limits: searcher.limits,
    counter: counter.buffer as SharedArrayBuffer,
    // The stop of a call worker's run reaches its parse workers even if the call worker is
    // terminated before it can stop their claims.
    ...(stopFlagOf(signal) ? { stopFlag: stopFlagOf(signal)!.buffer } : {}),
    ...(options.parserHeapCeiling === undefined ? {} : { heapCeiling: options.parserHeapCeiling }),
  };
  let pool: ParsePool | undefined;
  let running: Promise<WorkerFailure[]> | undefined;
  if (shared.length > 0) {
    pool = keep ? sharedPool(threads - 1 || 1) : new ParsePool(threads - 1 || 1);
    running = runOnPool(pool, job, shared, settle);
  }
  let workerFailures: WorkerFailure[] = [];
  try {
    for (const task of own) {
      await breather.breathe();
      await parseHere(task);
    }
    for (let index = claimNext(counter); index < shared.length; index = claimNext(counter)) {
      await breather.breathe();
      await parseHere(shared[index]);
      if (abortedOn) break;
    }
    if (running && results.size < work.length) {
      // Wait for the files workers claimed; a worker that claimed none (still loading its
      // grammars) is not waited for.
      const finished = new Promise<void>((resolve) => (allDone = resolve));
      const outcome = await untilAborted(Promise.race([running, finished]), signal);
      signal?.throwIfAborted();
      if (outcome) workerFailures = outcome;
    }
  } catch (error) {
    stopClaims(counter);
    pool?.close();
    throw error;
  } finally {
    if (pool && !keep) pool.close();
  }
  signal?.throwIfAborted();
  const left = work.filter((task) => !results.has(task));
  if (left.length === 0) return { results, workerFailures, single };
  if (abortedOn || runtimeAborted()) {
    // This thread cannot parse any more: a fresh worker takes what is left.
    const reason = `the parser of the calling thread aborted on ${
      abortedOn?.filePath ?? "an earlier file"
    }`;
    if (workersAvailable()) await rescue(left, job, settle, signal);
    for (const task of left) {
      if (!results.has(task)) settle(task, { failure: notParsedHere(reason) });
    }
    return { results, workerFailures, single };
  }
  // Files a failed worker had claimed but not finished are parsed here.
  for (const task of left) await parseHere(task);
  return { results, workerFailures, single };
}

/** The work of a parse divided into what workers share and what this thread parses alone. */
interface Division {
  /** Files of the languages worth sharing: workers and this thread claim them from a counter. */
  shared: Task[];
  /** Files this thread parses first, alone. */
  own: Task[];
  /** Whether workers were worth starting but cannot start: everything is parsed here. */
  single: boolean;
}

/**
 * Divides `work` between the workers and this thread. A thread whose runtime aborted in an
 * earlier run parses nothing: workers take it all.
 */
function divideWork(work: Task[], threads: number, options: AstSearchOptions): Division {
  const { shared, own } = runtimeAborted()
    ? { shared: work, own: [] as Task[] }
    : shareable(work, threads, options.parallelBytes ?? INLINE_BYTES);
  const single = shared.length > 0 && !workersAvailable();
  return single ? { shared: [], own: work, single } : { shared, own, single };
}

/** Parses `left` on one fresh worker, after the runtime of this thread aborted. */
async function rescue(
  left: Task[],
  job: Omit<JobMessage, "id" | "slot" | "current" | "languages" | "files">,
  settle: (task: Task, result: Result) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const pool = new ParsePool(1);
  try {
    const fresh = new Int32Array(new SharedArrayBuffer(4));
    await untilAborted(
      runOnPool(pool, { ...job, counter: fresh.buffer as SharedArrayBuffer }, left, settle),
      signal,
    );
  } finally {
    pool.close();
  }
  signal?.throwIfAborted();
}

/** Runs `files` as one job of `pool`, settling each file's result. */
function runOnPool(
  pool: ParsePool,
  job: Omit<JobMessage, "id" | "slot" | "current" | "languages" | "files">,
  files: Task[],
  settle: (task: Task, result: Result) => void,
): Promise<WorkerFailure[]> {
  const list: FileTask[] = files.map(({ absPath, filePath, language }) => ({
    absPath,
    filePath,
    language,
  }));
  return pool.run({
    ...job,
    languages: [...new Set(list.map((file) => file.language))],
    files: list,
  }, (index, outcome, failure) => {
    settle(
      files[index],
      outcome ? { outcome } : { failure: failure ?? { name: "Error", message: "" } },
    );
  });
}

/** An error as it crosses into a file's result. */
function failureOf(error: unknown): WorkerFailure {
  return {
    name: error instanceof Error ? error.name : "Error",
    message: error instanceof Error ? error.message : String(error),
  };
}
