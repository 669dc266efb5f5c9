/**
 * Worker of `symbols_floor.ts`: parses a file and frees its tree (`parse`), or does what an
 * index worker does with it (`extract`: parse, facts, rows) and posts the rows back.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import type { Parser } from "web-tree-sitter";
import { createParser } from "../grammars/loader.ts";
import { type ExtractTask, runExtractTask } from "../core/symbol_index/extract_job.ts";

/** A file to handle, and how far. */
export interface FloorTask extends ExtractTask {
  mode: "parse" | "extract";
}

const parsers = new Map<string, Promise<Parser>>();
const decoder = new TextDecoder();

async function handle(task: FloorTask): Promise<void> {
  if (task.mode === "extract") {
    self.postMessage(await runExtractTask(task));
    return;
  }
  let parser = parsers.get(task.language);
  if (!parser) parsers.set(task.language, parser = createParser(task.language));
  (await parser).parse(decoder.decode(task.bytes))?.delete();
  self.postMessage({ id: task.id });
}

let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<FloorTask>) => {
  const task = event.data;
  queue = queue.then(() => handle(task));
};
