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
 * import assert from "node:assert/strict";
 * import { findSymbols, indexRoot } from "@llm/search/symbols";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def greet():\n    pass\n");
 * await indexRoot({ root, threads: 0 });
 * const { data } = await findSymbols({ root }, "greet", "exact");
 * assert.equal(data.results[0].span.file_path, "a.py");
 * Deno.removeSync(root, { recursive: true });
 * ```
 *
 * @module
 */
import { runSubcommand, type SubcommandProgram } from "../../core/subcommands.ts";
import { importPackageModule } from "../../core/workers.ts";
import TABLES from "../../core/tables/symbols.json" with { type: "json" };
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { GRAPH_CODE, indexCode, type IndexerModule, QUERY_CODE, VERIFY_CODE } from "./commands.ts";
import type { IndexOptions, IndexOutcome } from "../../core/symbol_index/indexer.ts";

export type { IndexOptions, IndexOutcome, WrittenCounts } from "../../core/symbol_index/indexer.ts";
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
  type SymbolAsk,
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
 * The indexer, loaded on `index`'s first run only, by a computed specifier: a literal
 * `import("…")` would make every query read and parse its graph at start (the parser and 4.7 MB
 * of embedded grammars: ≈ +10 ms of CPU a query, measured), so a run from a checkout scoped by
 * `--allow-read=<root>` cannot load it (`MAG-PERM-001`, naming the flag that lets it), while one
 * from JSR or a binary can (`scripts/compile.ts` includes it).
 */
const INDEXER = new URL("../../core/symbol_index/indexer.ts", import.meta.url).href;
const loadIndexer = () => importPackageModule<IndexerModule>(INDEXER, "MAG");

/**
 * Brings the index of `options.root` up to date (`llm-symbols index` as a library call). The
 * indexer, and the parser it brings, are loaded on the first call only, so importing this
 * module for the queries stays light.
 *
 * @example Index a folder
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexRoot } from "@llm/search/symbols";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.py`, "def f():\n    pass\n");
 * assert.equal((await indexRoot({ root, threads: 0 })).result.symbols, 1);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function indexRoot(options: IndexOptions): Promise<IndexOutcome> {
  return await (await loadIndexer()).indexRoot(options);
}

/** `llm-symbols` as a program of subcommands, each run by its command table and its code. */
const SYMBOLS_PROGRAM: SubcommandProgram = {
  name: LLM_SYMBOLS,
  summary: "symbol index and code graph queries",
  subcommands: {
    index: indexCode(loadIndexer),
    status: QUERY_CODE.status,
    verify: VERIFY_CODE,
    find: QUERY_CODE.find,
    refs: QUERY_CODE.refs,
    callers: QUERY_CODE.callers,
    callees: QUERY_CODE.callees,
    outline: QUERY_CODE.outline,
    imports: QUERY_CODE.imports,
    importers: QUERY_CODE.importers,
    ...GRAPH_CODE,
  },
  tables: TABLES,
  column: 10,
  notes: [
    "The index is <root>/.llm/index.db (--db to choose); the root is the working directory.",
    "`index` needs --allow-read --allow-write=<root>/.llm; every query needs --allow-read only.",
  ],
  kind: "query",
  unknownCode: "MAG-ARG-001",
};

/**
 * Runs `llm-symbols` with `args`: the first names the subcommand. Returns the exit code. Every
 * subcommand's command line is parsed, checked and explained by its generated table, so no run
 * loads zod.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSymbols } from "@llm/search/symbols";
 * assert.equal(await runSymbols(["--version"]), 0); // prints "llm-symbols <version>"
 * ```
 */
export async function runSymbols(args: string[]): Promise<number> {
  return await runSubcommand(SYMBOLS_PROGRAM, args);
}

if (import.meta.main) Deno.exit(await runSymbols(Deno.args));
