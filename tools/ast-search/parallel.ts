/**
 * Parsing a work list on every core: the calling thread and the workers of a pool claim files,
 * largest first, from one shared counter; files of languages too small to be worth a grammar in
 * another isolate stay on the calling thread, and small work lists never start a worker.
 *
 * @module
 */
import type { FileStamp } from "../../core/cache.ts";
import { GrammarLoadError } from "../../grammars/loader.ts";
import type { FileOutcome, FileSearcher, FileTask } from "./file_search.ts";
import { claimNext, stopClaims, type WorkerFailure } from "./job.ts";
import type { AstSearchOptions } from "./options.ts";
import { ParsePool, sharedPool, workersAvailable } from "./pool.ts";

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
  /** Size and mtime, when known (the cache's key). */
  stamp?: FileStamp;
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

/**
 * Parses `work` (largest first) on this thread and, for larger inputs, on workers: they claim
 * files of the shared languages from one counter, while this thread parses the other files
 * first and then claims with them. A file that cannot be read has a failure as its result; a
 * grammar that cannot load throws.
 *
 * @example
 * ```ts
 * import { parseAll } from "./parallel.ts";
 * import { FileSearcher } from "./file_search.ts";
 * const searcher = new FileSearcher({
 *   mode: "kind", query: "", kinds: [], semantics: false, contextLines: 0, checksums: false,
 *   maxColumns: 500,
 * });
 * const { results } = await parseAll([], searcher, { cwd: "." });
 * results.size; // 0
 * ```
 */
export async function parseAll(
  work: Task[],
  searcher: FileSearcher,
  options: AstSearchOptions,
): Promise<Parsed> {
  const threads = Math.max(1, options.threads ?? navigator.hardwareConcurrency ?? 1);
  const keep = options.keepWorkers ?? options.cache !== undefined;
  let { shared, own } = shareable(work, threads, options.parallelBytes ?? INLINE_BYTES);
  const single = shared.length > 0 && !workersAvailable();
  if (single) [shared, own] = [[], work];
  const results = new Map<Task, Result>();
  let allDone: (() => void) | undefined;
  const settle = (task: Task, result: Result) => {
    results.set(task, result);
    if (results.size === work.length) allDone?.();
  };
  const parseHere = async (task: Task) => {
    try {
      settle(task, { outcome: await searcher.searchFile(task) });
    } catch (error) {
      if (error instanceof GrammarLoadError) throw error;
      settle(task, {
        failure: {
          name: error instanceof Error ? error.name : "Error",
          message: error instanceof Error ? error.message : String(error),
        },
      });
    }
  };
  const counter = new Int32Array(new SharedArrayBuffer(4));
  let pool: ParsePool | undefined;
  let running: Promise<WorkerFailure[]> | undefined;
  if (shared.length > 0) {
    pool = keep ? sharedPool(threads - 1) : new ParsePool(threads - 1);
    const files: FileTask[] = shared.map(({ absPath, filePath, language }) => ({
      absPath,
      filePath,
      language,
    }));
    running = pool.run({
      spec: searcher.spec,
      languages: [...new Set(files.map((file) => file.language))],
      files,
      counter: counter.buffer as SharedArrayBuffer,
    }, (index, outcome, failure) => {
      settle(
        shared[index],
        outcome ? { outcome } : { failure: failure ?? { name: "Error", message: "" } },
      );
    });
  }
  let workerFailures: WorkerFailure[] = [];
  try {
    for (const task of own) {
      options.signal?.throwIfAborted();
      await parseHere(task);
    }
    for (let index = claimNext(counter); index < shared.length; index = claimNext(counter)) {
      if (options.signal?.aborted) {
        stopClaims(counter);
        break;
      }
      await parseHere(shared[index]);
    }
    if (running && results.size < work.length) {
      // Wait for the files workers claimed; a worker that claimed none (still loading its
      // grammars) is not waited for.
      const finished = new Promise<void>((resolve) => (allDone = resolve));
      const outcome = await Promise.race([running, finished]);
      if (outcome) workerFailures = outcome;
    }
  } finally {
    if (pool && !keep) pool.close();
  }
  options.signal?.throwIfAborted();
  // Files a failed worker had claimed but not finished are parsed here.
  for (const task of shared) if (!results.has(task)) await parseHere(task);
  return { results, workerFailures, single };
}
