/**
 * Extraction worker of the indexer: answers each task (a file's bytes) with its facts. It keeps
 * its grammars and compiled queries for the whole run.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { runtimeAborted } from "../../grammars/loader.ts";
import { type ExtractTask, runExtractTask, type WorkerMessage } from "./extract_job.ts";

/** Answers `task`, or hands its bytes back once this thread's parser runtime has aborted. */
async function answer(task: ExtractTask): Promise<void> {
  if (runtimeAborted()) {
    const message: WorkerMessage = { id: task.id, handedBack: task.bytes };
    self.postMessage(message, [task.bytes.buffer]);
  } else self.postMessage(await runExtractTask(task));
}

// Tasks run one after the other: extraction awaits while a grammar loads.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<ExtractTask>) => {
  const task = event.data;
  queue = queue.then(() => answer(task));
};
