/**
 * The repository index, `<root>/.llm/trigram.idx`: a trigram index of the root's files that
 * `llm-search` narrows its candidates with and `llm-discover` takes its walk from. Its build
 * (`build.ts`; `refresh.ts` writes it, `repository_build.ts` runs that on a worker while
 * `llm-symbols index` extracts), its reader (`reader.ts`, `open.ts`), the walk it records
 * (`walk_source.ts`), the stats of its entries taken now (`entry_stats.ts`) and a long-lived
 * host's watched view of it (`live.ts`). The layout is in `format.ts`.
 *
 * The worker modules (`stat_worker.ts`, `repository_worker.ts`) are not exported: each sets
 * its thread's `onmessage` when loaded.
 *
 * @example Build the index of a tree, then open it
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexPathOf, openIndex, writeRepositoryIndex } from "./mod.ts";
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.writeTextFileSync(`${root}/a.txt`, "hello\n");
 * assert.equal(writeRepositoryIndex(root).result?.indexed_files, 1);
 * const index = openIndex(indexPathOf(root));
 * assert.ok(index?.paths.includes("a.txt"));
 * index?.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 *
 * @module
 */
export * from "./build.ts";
export * from "./entry_stats.ts";
export * from "./format.ts";
export * from "./live.ts";
export * from "./meta.ts";
export * from "./open.ts";
export * from "./reader.ts";
export * from "./refresh.ts";
export * from "./repository_build.ts";
export * from "./walk_source.ts";
