/**
 * The symbol index, `<root>/.llm/index.db`: what `llm-symbols` answers from and what
 * `llm-refactor` resolves names through, `llm-search` and `llm-ast-search` their relationships
 * (`--with-callers`, …). Extraction (`extract.ts`: a file's definitions, references and imports
 * from tree-sitter, on worker threads by `pool.ts`), the store (`store.ts`, SQLite), its
 * maintenance (`indexer.ts`: a refresh reads only files whose stamp moved; `refresh_claim.ts`
 * lets one process refresh at a time), the candidate files of a refresh (`candidates.ts`),
 * name resolution (`resolve.ts`, `import_paths.ts`), the records queries report
 * (`records.ts`), relationships (`relationships.ts`, and `relationship_run.ts`, the run-time
 * half of the fields whose schema is `relationship_input.ts`), the text chunks of definitions
 * and files (`extract_chunks.ts`) whose terms (`chunk_terms.ts`) the store scores by BM25, and a
 * long-lived host's live index (`live.ts`). A file's stamp and the racy-stamp rule are
 * `core/racy_stamp.ts`.
 *
 * Not exported here: the worker module (`worker.ts`, which sets its thread's `onmessage`), the
 * zod fields (`relationship_input.ts`) and the parts of extraction and of the store's schema.
 *
 * @example Index a tree and look a symbol up
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexRoot, IndexStore, locateDb } from "./mod.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n");
 * const { result } = await indexRoot({ root, threads: 0 });
 * assert.equal(result.symbols, 1);
 * const store = IndexStore.open(locateDb(root, undefined, false), "read");
 * assert.deepEqual(store.symbolsNamed("f").map((row) => row.kind), ["function"]);
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 *
 * @module
 */
export * from "./candidates.ts";
export * from "./chunk_terms.ts";
export * from "./defaults.ts";
export * from "./extract.ts";
export * from "./extract_job.ts";
export * from "./fact_rows.ts";
export * from "./facts.ts";
export * from "./file_stat.ts";
export * from "./import_paths.ts";
export * from "./indexer.ts";
export * from "./live.ts";
export * from "./records.ts";
export * from "./refresh_claim.ts";
export * from "./relationship_run.ts";
export * from "./relationships.ts";
export * from "./resolve.ts";
export * from "./store.ts";
