/**
 * `llm-symbols`: a symbol index of a repository (definitions, calls and references, imports)
 * in SQLite, and the questions an agent asks it in milliseconds: `find`, `refs`, `callers`,
 * `callees`, `outline`, `imports`, `importers`, with `index`, `status` and `verify` to keep it;
 * and the code graph: `reachable`, `dead-code`, `cycles`, `paths`, `impact`, `export`, `map`.
 * The first argument names the subcommand; each is its own tool definition.
 *
 * ```sh
 * deno run --allow-read --allow-write=.llm jsr:@llm/search/symbols index
 * deno run --allow-read jsr:@llm/search/symbols callers parse_args
 * ```
 *
 * @example
 * ```ts
 * import { findSymbols, indexRoot } from "@llm/search/symbols";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def greet():\n    pass\n");
 * await indexRoot({ root, threads: 0 });
 * const { data } = await findSymbols({ root }, "greet", "exact");
 * data.results[0].span.file_path; // "a.py"
 * ```
 *
 * @module
 */
import { type FastCode, fastCommand, runFast } from "../../core/cli_fast.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { QUERY_CODE } from "./commands.ts";

import type { IndexOptions, IndexOutcome } from "./indexer.ts";

export type { IndexOptions, IndexOutcome } from "./indexer.ts";
export {
  fileImporters,
  fileImports,
  findCallees,
  findSymbols,
  findUses,
  type NameMatch,
  outlineFile,
  type QueryOptions,
  type QueryOutcome,
} from "./queries.ts";
export { type FreshnessOptions, indexStatus, verifyIndex } from "./freshness.ts";
export {
  cycleList,
  deadCodeSymbols,
  type ExportFormat,
  exportGraph,
  impactOf,
  pathList,
  reachableSymbols,
  repoMap,
} from "./graph_queries.ts";

/**
 * Brings the index of `options.root` up to date (`llm-symbols index` as a library call). The
 * indexer, and the parser it brings, are loaded on the first call only, so importing this
 * module for the queries stays light.
 *
 * @example Index a folder
 * ```ts
 * import { indexRoot } from "@llm/search/symbols";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n");
 * (await indexRoot({ root, threads: 0 })).result.symbols; // 1
 * ```
 */
export async function indexRoot(options: IndexOptions): Promise<IndexOutcome> {
  const engine = await import("./indexer.ts");
  return await engine.indexRoot(options);
}

/**
 * Runs `llm-symbols` with `args`: the first names the subcommand. Returns the exit code. A
 * read-only query whose flags the fast path can check runs without loading zod; anything else
 * (`index`, `--help`, a refused flag…) loads the definitions (`dispatch.ts`).
 *
 * @example
 * ```ts
 * import { runSymbols } from "@llm/search/symbols";
 * typeof runSymbols; // "function"
 * ```
 */
export async function runSymbols(args: string[]): Promise<number> {
  const [first, ...rest] = args;
  if (first !== undefined && Object.hasOwn(QUERY_CODE, first)) {
    const code: FastCode<never> = QUERY_CODE[first as keyof typeof QUERY_CODE];
    const command = fastCommand(`${LLM_SYMBOLS} ${first}`, code);
    const exitCode = command && await runFast(command, rest);
    if (exitCode !== undefined) return exitCode;
  }
  const { runSymbolsCommand } = await import("./dispatch.ts");
  return await runSymbolsCommand(args);
}

if (import.meta.main) Deno.exit(await runSymbols(Deno.args));
