/**
 * The indexing command's one call for the repository index: builds `.llm/trigram.idx` and
 * turns a failure into an `MAG-IO-021` warning (the symbol index is still written).
 *
 * @module
 */
import type { EngineWalkOptions } from "../walk/walker.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import type { TrigramIndexResult } from "../../schema/symbols.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { buildTrigramIndex } from "./build.ts";

/** What writing the repository index gave. */
export interface RepositoryIndexOutcome {
  /** What was written, when it was. */
  result?: TrigramIndexResult;
  /** `MAG-IO-021` when it could not be written. */
  diagnostics: Diagnostic[];
}

/**
 * Rebuilds the repository index of `root` over the same walk as the symbol index.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeRepositoryIndex } from "./refresh.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.txt`, "hello\n");
 * assert.equal(writeRepositoryIndex(root).result?.indexed_files, 1);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function writeRepositoryIndex(
  root: string,
  walk?: EngineWalkOptions,
  signal?: AbortSignal,
): RepositoryIndexOutcome {
  try {
    const built = buildTrigramIndex({ root, walk, signal });
    return {
      result: {
        path: built.path,
        files: built.files,
        indexed_files: built.indexedFiles,
        indexed_bytes: built.indexedBytes,
        trigrams: built.trigrams,
        index_bytes: built.indexBytes,
        duration_ms: built.durationMs,
      },
      diagnostics: [],
    };
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    return {
      diagnostics: [
        makeDiagnostic(
          LLM_SYMBOLS,
          "MAG-IO-021",
          `the repository index .llm/trigram.idx was not written: ${reason}`,
          { level: "warning" },
        ),
      ],
    };
  }
}
