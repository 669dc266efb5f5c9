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
import { type FastCode, fastCommand, runFast } from "../../core/cli_fast.ts";
import { failureEnvelope } from "../../core/failure.ts";
import { isPermissionRefusal, permissionError } from "../../core/permissions.ts";
import { newId } from "../../schema/ids.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { packageDirectory } from "../../core/workers.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { QUERY_CODE } from "./commands.ts";

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
  const engine: typeof import("../../core/symbol_index/indexer.ts") = await import(INDEXER);
  return await engine.indexRoot(options);
}

/**
 * Runs `llm-symbols` with `args`: the first names the subcommand. Returns the exit code. A
 * read-only query whose flags the fast path can check runs without loading zod; anything else
 * (`index`, `--help`, a refused flag…) loads the definitions (`dispatch.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSymbols } from "@llm/search/symbols";
 * assert.equal(await runSymbols(["--version"]), 0); // prints "llm-symbols <version>"
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
  let dispatch: typeof import("./dispatch.ts");
  try {
    dispatch = await import(DISPATCH);
  } catch (error) {
    return refusedFullPath(error);
  }
  return await dispatch.runSymbolsCommand(args);
}

/**
 * The modules loaded only when asked for, named by computed specifiers: Deno reads and parses
 * the whole graph of every literal `import("…")` when the program starts, called or not
 * (denoland/deno#23149), and the graph of `dispatch.ts` (zod, every definition) and of the
 * indexer (the parser, the grammars) would cost a query more than its own work. A module loaded
 * this way needs read permission for its file (`refusedFullPath`); `scripts/compile.ts` includes
 * them in the executable.
 */
const DISPATCH = new URL("./dispatch.ts", import.meta.url).href;
const INDEXER = new URL("../../core/symbol_index/indexer.ts", import.meta.url).href;

/**
 * The envelope of a full command line whose definitions could not be loaded (a run from a local
 * checkout with read permission scoped to the project): `MAG-PERM-001`, exit 4, with the exact
 * flag that lets it load the package's own modules (a run from JSR or a binary needs none).
 */
function refusedFullPath(error: unknown): number {
  if (!isPermissionRefusal(error)) throw error;
  const module = permissionError("MAG", error);
  const refusal = new ToolError(
    module.code,
    `this command loads the package's own modules (${module.details.file}), which a run from a ` +
      "checkout with read permission scoped to the project may not read",
    {
      file: module.details.file,
      remediation: `Run again with --allow-read=${packageDirectory()} added (a run from JSR or ` +
        "a compiled binary needs no more).",
    },
  );
  const envelope = failureEnvelope(
    { name: LLM_SYMBOLS, kind: "query", mcpName: LLM_SYMBOLS },
    refusal,
    newId(),
  );
  Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(envelope) + "\n"));
  console.error(`${LLM_SYMBOLS}: ${refusal.code}: ${refusal.message}`);
  return refusal.exitCode;
}

if (import.meta.main) Deno.exit(await runSymbols(Deno.args));
