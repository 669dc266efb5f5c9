/**
 * One file's extraction as the indexer hands it to a worker (or runs it inline): decode the
 * bytes, extract the facts (with the terms of the file's text chunks), lay them out as the values
 * of their index rows (each definition with its `symbol_id`). Shared by the worker module and the
 * calling thread so both do exactly the same. It imports no zod.
 *
 * @module
 */
import { runtimeAborted, setParserHeapCeiling } from "../../grammars/loader.ts";
import { decodeFile } from "../utf8.ts";
import { extractFacts } from "./extract.ts";
import { type FactRows, factRows } from "./fact_rows.ts";

/** A file to extract. */
export interface ExtractTask {
  /** Task number, unique per run. */
  id: number;
  /** Root-relative path (part of each `symbol_id`). */
  path: string;
  /** Registry language name. */
  language: string;
  /** The file's bytes. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Test hook: how far the parser heap may grow (see `IndexOptions.parserHeapCeiling`). */
  heapCeiling?: number;
}

/** What an extraction gives back. */
export type ExtractReply =
  | { id: number; rows: FactRows }
  | { id: number; failure: { name: string; message: string } };

/**
 * What a worker posts: a reply, or a file handed back unread (its bytes) because the worker's
 * parser runtime aborted on an earlier file.
 */
export type WorkerMessage = ExtractReply | { id: number; handedBack: Uint8Array<ArrayBuffer> };

/**
 * Name of the failure of a file not parsed because the parser runtime of this thread aborted on
 * an earlier file: the file itself may be fine (the indexer does not record it as failed).
 */
export const RUNTIME_SPENT = "RuntimeSpentError";

/**
 * Extracts `task`'s facts; a failure is answered, not thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runExtractTask } from "./extract_job.ts";
 * const bytes = new TextEncoder().encode("def f():\n    pass\n");
 * const reply = await runExtractTask({ id: 1, path: "a.py", language: "python", bytes });
 * assert.ok("rows" in reply);
 * assert.equal(reply.rows.symbols[1], "f");
 * ```
 */
export async function runExtractTask(
  task: ExtractTask,
  pause?: () => Promise<void>,
): Promise<ExtractReply> {
  if (runtimeAborted()) {
    const message = "not parsed: the parser runtime of this thread aborted on an earlier file";
    return { id: task.id, failure: { name: RUNTIME_SPENT, message } };
  }
  setParserHeapCeiling(task.heapCeiling);
  try {
    const facts = await extractFacts(task.language, decodeFile(task.bytes), pause, {
      chunks: true,
    });
    return { id: task.id, rows: factRows(task.path, facts) };
  } catch (error) {
    // A cancelled run (thrown by `pause`) is the caller's to end, not a failure of the file.
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return {
      id: task.id,
      failure: {
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      },
    };
  }
}
