/**
 * Search worker: receives the matcher once, then batches of files, and answers each batch
 * with its results. It imports no zod and nothing heavy, so it starts fast.
 *
 * @module
 */
import { type BatchFile, BatchSearcher } from "./batch.ts";
import type { MatcherSpec } from "./matcher.ts";
import type { SearchFileOptions } from "./searcher.ts";

/** Messages the engine sends a worker. */
export type WorkerRequest =
  | {
    type: "init";
    spec: MatcherSpec;
    options: SearchFileOptions;
    /** Two slots the worker keeps current: the batch id and the file index it searches. */
    progress: SharedArrayBuffer;
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
    searcher = new BatchSearcher(request.spec, request.options);
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
    const refused = error instanceof Deno.errors.NotCapable;
    scope.postMessage({
      id: request.id,
      failure: { message: error instanceof Error ? error.message : String(error), refused },
    });
  }
};
