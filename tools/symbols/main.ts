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
import { runCli } from "../../core/cli.ts";
import { failureEnvelope } from "../../core/failure.ts";
import { closestNames } from "../../grammars/query.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { newId } from "../../schema/ids.ts";
import { VERSION } from "../../core/version.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { SYMBOLS_SUBCOMMANDS } from "./tool.ts";

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
export {
  repoMapTool,
  symbolsCyclesTool,
  symbolsDeadCodeTool,
  symbolsExportTool,
  symbolsImpactTool,
  symbolsPathsTool,
  symbolsReachableTool,
} from "./graph_tool.ts";
export {
  SYMBOLS_SUBCOMMANDS,
  symbolsCalleesTool,
  symbolsCallersTool,
  symbolsFindTool,
  symbolsImportersTool,
  symbolsImportsTool,
  symbolsIndexTool,
  symbolsOutlineTool,
  symbolsRefsTool,
  symbolsStatusTool,
  symbolsVerifyTool,
} from "./tool.ts";

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
 * The top-level `--help` of `llm-symbols`: its subcommands.
 *
 * @example
 * ```ts
 * import { symbolsHelp } from "@llm/search/symbols";
 * symbolsHelp().includes("callers"); // true
 * ```
 */
export function symbolsHelp(): string {
  const rows = Object.entries(SYMBOLS_SUBCOMMANDS).map(([name, tool]) =>
    `  ${name.padEnd(10)} ${tool.title}`
  );
  return [
    `${LLM_SYMBOLS} ${VERSION} — symbol index and code graph queries`,
    "",
    "USAGE:",
    `  ${LLM_SYMBOLS} SUBCOMMAND [FLAGS] [ARGS]`,
    `  ${LLM_SYMBOLS} SUBCOMMAND --help`,
    "",
    "SUBCOMMANDS:",
    ...rows,
    "",
    "The index is <root>/.llm/index.db (--db to choose); the root is the working directory.",
    "`index` needs --allow-read --allow-write=<root>/.llm; every query needs --allow-read only.",
    "",
  ].join("\n");
}

/**
 * Runs `llm-symbols` with `args`: the first names the subcommand. Returns the exit code.
 *
 * @example
 * ```ts
 * import { runSymbols } from "@llm/search/symbols";
 * typeof runSymbols; // "function"
 * ```
 */
export async function runSymbols(args: string[]): Promise<number> {
  const [first, ...rest] = args;
  const tool = first === undefined ? undefined : SYMBOLS_SUBCOMMANDS[first];
  if (tool) return await runCli(tool, rest);
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    await Deno.stdout.write(new TextEncoder().encode(symbolsHelp()));
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-V") {
    await Deno.stdout.write(new TextEncoder().encode(`${LLM_SYMBOLS} ${VERSION}\n`));
    return 0;
  }
  return unknownSubcommand(first);
}

/** Prints the `MAG-ARG-001` envelope of an unknown subcommand and returns its exit code. */
async function unknownSubcommand(name: string): Promise<number> {
  const names = Object.keys(SYMBOLS_SUBCOMMANDS);
  const close = closestNames(name, names, 1);
  const error = new ToolError(
    "MAG-ARG-001",
    `unknown subcommand '${name}'${close.length ? `; did you mean '${close[0]}'?` : ""}`,
    { note: `subcommands: ${names.join(", ")}` },
  );
  const info = { name: LLM_SYMBOLS, kind: "query" as const, mcpName: LLM_SYMBOLS };
  const envelope = failureEnvelope(info, error, newId());
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(envelope) + "\n"));
  console.error(`${LLM_SYMBOLS}: ${error.code}: ${error.message}`);
  return error.exitCode;
}

if (import.meta.main) Deno.exit(await runSymbols(Deno.args));
