/**
 * `llm-search`: structured text search (ripgrep class) for agents.
 *
 * ```sh
 * deno run --allow-read jsr:@llm/search/search 'fn\s+main' src/
 * ```
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { search } from "@llm/search/search";
 * const { data } = await search({ patterns: ["TODO"], cwd: Deno.cwd() });
 * assert.ok(data.match_count >= data.matches.length); // a limit lists the first matches
 * for (const match of data.matches) assert.equal(match.matched_text, "TODO");
 * ```
 *
 * @module
 */
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/search.json" with { type: "json" };
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { SEARCH_CODE } from "./run.ts";

export { search, type SearchOptions, type SearchResult, type SearchWalkOptions } from "./engine.ts";
export type { MatcherOptions } from "./matcher.ts";
export type { SearchMode } from "./collector.ts";

/**
 * Runs `llm-search` with `args` and returns the exit code. The command line is parsed, checked
 * and explained by the command's generated table, so no run loads zod.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSearchCli } from "@llm/search/search";
 * assert.equal(await runSearchCli(["--version"]), 0); // prints "llm-search <version>"
 * ```
 */
export async function runSearchCli(args: string[]): Promise<number> {
  return await runCommand(tableOf(TABLES, LLM_SEARCH), SEARCH_CODE, args);
}

if (import.meta.main) Deno.exit(await runSearchCli(Deno.args));
