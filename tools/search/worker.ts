/**
 * Search worker: receives the matcher once, then batches of files, and answers each batch
 * with its results. It imports no zod and nothing heavy, so it starts fast.
 *
 * @module
 */
import { type BatchFile, BatchSearcher } from "./batch.ts";
import type { MatcherSpec } from "./matcher.ts";
import type { SearchFileOptions } from "./searcher.ts";
import { MatchStopped } from "../../core/linear_regex.ts";

/** Messages the engine sends a worker. */
export type WorkerRequest =
  | {
    type: "init";
    spec: MatcherSpec;
    options: SearchFileOptions;
    /** Two slots the worker keeps current: the batch id and the file index it searches. */
    progress: SharedArrayBuffer;
    /**
     * Raised (non-zero) by the engine when the run's budget passes or it is cancelled: a match
     * under way then stops (a terminated worker runs on until it returns to the event loop).
     * Absent for a run with neither a budget nor a cancel: it matches on V8's engine.
     */
    stopFlag?: SharedArrayBuffer;
    /** The run's deadline (epoch ms), checked as a match goes too. */
    deadline?: number;
  }
  | {
    type: "batch";
    id: number;
    files: BatchFile[];
    /** Count the matches only: the listing they would join is full. */
    countOnly: boolean;
  };

/** The parts of a worker's global scope this module uses (typed here, not via a lib directive). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
let searcher: BatchSearcher | undefined;
let progress: Int32Array<ArrayBufferLike> = new Int32Array(2);

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === "init") {
    const flag = request.stopFlag && new Int32Array(request.stopFlag);
    const deadline = request.deadline;
    const stop = flag && (() => {
      if (Atomics.load(flag, 0) !== 0 || (deadline !== undefined && Date.now() >= deadline)) {
        throw new MatchStopped("the search was stopped");
      }
    });
    searcher = new BatchSearcher(request.spec, request.options, stop);
    progress = new Int32Array(request.progress);
    return;
  }
  try {
    if (!searcher) throw new Error("search worker used before init");
    Atomics.store(progress, 0, request.id);
    const outcome = searcher.search(
      request.files,
      (index) => Atomics.store(progress, 1, index),
      request.countOnly,
    );
    scope.postMessage({ id: request.id, outcome });
  } catch (error) {
    // The engine stopped the run and answers for the batch without this worker.
    if (error instanceof MatchStopped) return;
    const refused = error instanceof Deno.errors.NotCapable;
    scope.postMessage({
      id: request.id,
      failure: { message: error instanceof Error ? error.message : String(error), refused },
    });
  }
};
