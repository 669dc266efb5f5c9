/**
 * One file's extraction as the indexer hands it to a worker (or runs it inline): decode the
 * bytes, extract the facts, compute each definition's `symbol_id`. Shared by the worker module
 * and the calling thread so both do exactly the same. It imports no zod.
 *
 * @module
 */
import { symbolId } from "../../schema/ids.ts";
import type { FileFacts } from "./facts.ts";
import { extractFacts } from "./extract.ts";

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
}

/** What an extraction gives back. */
export type ExtractReply =
  | { id: number; facts: FileFacts; symbolIds: string[] }
  | { id: number; failure: { name: string; message: string } };

const decoder = new TextDecoder();

/**
 * Extracts `task`'s facts; a failure is answered, not thrown.
 *
 * @example
 * ```ts
 * import { runExtractTask } from "./extract_job.ts";
 * const bytes = new TextEncoder().encode("def f():\n    pass\n");
 * const reply = await runExtractTask({ id: 1, path: "a.py", language: "python", bytes });
 * "facts" in reply && reply.facts.symbols[0].name; // "f"
 * ```
 */
export async function runExtractTask(task: ExtractTask): Promise<ExtractReply> {
  try {
    const facts = await extractFacts(task.language, decoder.decode(task.bytes));
    const symbolIds = facts.symbols.map((symbol) =>
      symbolId({
        language: task.language,
        file_path: task.path,
        qualified_name: symbol.qualified_name,
        kind: symbol.kind,
      })
    );
    return { id: task.id, facts, symbolIds };
  } catch (error) {
    return {
      id: task.id,
      failure: {
        name: error instanceof Error ? error.name : "Error",
        message: error instanceof Error ? error.message : String(error),
      },
    };
  }
}
