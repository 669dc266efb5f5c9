/**
 * `llm-ast-search`: structural code search with tree-sitter for agents — queries over 33
 * languages, or symbol definitions by kind and name without writing a query. Grammars are
 * embedded, so loading one needs no permission: `--allow-read` for the searched files is all.
 *
 * ```sh
 * deno run --allow-read jsr:@llm/search/ast-search --kind function --name '^parse' src/
 * ```
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { astSearch } from "@llm/search/ast-search";
 * const { data } = await astSearch({ cwd: Deno.cwd(), kinds: ["class"], language: "ts" });
 * for (const match of data.matches) assert.equal(match.kind, "class", match.span.file_path);
 * ```
 *
 * @module
 */
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/ast-search.json" with { type: "json" };
import { LLM_AST_SEARCH } from "../../schema/tool_names.ts";
import { AST_SEARCH_CODE } from "./run.ts";

export {
  astSearch,
  type AstSearchOptions,
  type AstSearchResult,
  type AstSearchWalkOptions,
} from "./engine.ts";
export { closeSharedPool } from "./pool.ts";

/**
 * Runs `llm-ast-search` with `args` and returns the exit code. The command line is parsed,
 * checked and explained by the command's generated table, so no run loads zod.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runAstSearchCli } from "@llm/search/ast-search";
 * assert.equal(await runAstSearchCli(["--version"]), 0); // prints "llm-ast-search <version>"
 * ```
 */
export async function runAstSearchCli(args: string[]): Promise<number> {
  return await runCommand(tableOf(TABLES, LLM_AST_SEARCH), AST_SEARCH_CODE, args);
}

if (import.meta.main) Deno.exit(await runAstSearchCli(Deno.args));
