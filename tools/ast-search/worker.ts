/**
 * Parse worker: receives jobs (a spec, the file list and a shared claim counter), claims files
 * one at a time from the counter it shares with the other workers and the main thread, and
 * answers each file with its outcome. It keeps its grammars and compiled queries between jobs
 * of the same spec, so a long-lived host pays for them once. It imports no zod.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import {
  DEFAULT_PARSE_LIMITS,
  FileSearcher,
  type FileTask,
  RunStoppedError,
  type SearchSpec,
} from "./file_search.ts";
import { claimNext, claimsStopped, type JobMessage, type WorkerReply } from "./job.ts";
import { ParserAbortedError, setParserHeapCeiling } from "../../grammars/loader.ts";

let searcher: FileSearcher | undefined;
let searcherKey = "";

function failureOf(error: unknown): { message: string; name: string } {
  return {
    message: error instanceof Error ? error.message : String(error),
    name: error instanceof Error ? error.name : "Error",
  };
}

async function runJob(job: JobMessage): Promise<void> {
  setParserHeapCeiling(job.heapCeiling);
  const key = JSON.stringify([job.spec, job.limits]);
  if (!searcher || searcherKey !== key) {
    searcher?.dispose();
    searcher = new FileSearcher(job.spec as SearchSpec, job.limits ?? DEFAULT_PARSE_LIMITS);
    searcherKey = key;
  }
  for (const language of job.languages) await searcher.prepare(language);
  const counter = new Int32Array(job.counter);
  const current = new Int32Array(job.current);
  const stop = job.stopFlag ? new Int32Array(job.stopFlag) : undefined;
  const stopped = () =>
    claimsStopped(counter) || (stop !== undefined && Atomics.load(stop, 0) !== 0);
  for (let index = claimNext(counter); index < job.files.length; index = claimNext(counter)) {
    const task: FileTask = job.files[index];
    Atomics.store(current, job.slot, index);
    try {
      const outcome = await searcher.searchFile(task, stopped);
      self.postMessage({ type: "file", job: job.id, index, outcome } satisfies WorkerReply);
    } catch (error) {
      // The job was stopped (its caller no longer waits): its file has no result.
      if (error instanceof RunStoppedError) return;
      const failure = failureOf(error);
      self.postMessage({ type: "file", job: job.id, index, failure } satisfies WorkerReply);
      // The runtime of this worker is gone: the pool replaces the worker.
      if (error instanceof ParserAbortedError) throw error;
    } finally {
      Atomics.store(current, job.slot, -1);
    }
  }
}

async function handle(job: JobMessage): Promise<void> {
  try {
    await runJob(job);
    self.postMessage({ type: "done", job: job.id } satisfies WorkerReply);
  } catch (error) {
    self.postMessage(
      { type: "done", job: job.id, failure: failureOf(error) } satisfies WorkerReply,
    );
  }
}

// Jobs run one after the other: a job awaits while it loads grammars, and a second job must
// not swap the searcher under it.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<JobMessage>) => {
  const job = event.data;
  queue = queue.then(() => handle(job));
};
