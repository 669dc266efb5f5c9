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
import { runFastOrFull } from "../../core/cli_entry.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { renderSearchText, runSearch, searchPositionals } from "./run.ts";

export { search, type SearchOptions, type SearchResult, type SearchWalkOptions } from "./engine.ts";
export type { MatcherOptions } from "./matcher.ts";
export type { SearchMode } from "./collector.ts";

/**
 * Runs `llm-search` with `args` and returns the exit code. A command line whose flags the flag
 * table can check runs without loading zod; anything else (`--help`, `--max-filesize`, a refused
 * flag) loads the definition (`tool.ts`, `searchTool`) and takes the full path, with the same
 * answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSearchCli } from "@llm/search/search";
 * assert.equal(await runSearchCli(["--version"]), 0); // prints "llm-search <version>"
 * ```
 */
export async function runSearchCli(args: string[]): Promise<number> {
  const code = { run: runSearch, text: renderSearchText, positionals: searchPositionals };
  return await runFastOrFull(
    LLM_SEARCH,
    code,
    args,
    async () => (await import("./tool.ts")).searchTool,
  );
}

if (import.meta.main) Deno.exit(await runSearchCli(Deno.args));
