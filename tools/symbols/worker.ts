/**
 * Extraction worker of the indexer: answers each task (a file's bytes) with its facts. It keeps
 * its grammars and compiled queries for the whole run.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { type ExtractTask, runExtractTask } from "./extract_job.ts";

// Tasks run one after the other: extraction awaits while a grammar loads.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<ExtractTask>) => {
  const task = event.data;
  queue = queue.then(async () => self.postMessage(await runExtractTask(task)));
};
