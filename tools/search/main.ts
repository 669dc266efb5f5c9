/**
 * `llm-search`: structured text search (ripgrep class) for agents.
 *
 * ```sh
 * deno run --allow-read jsr:@llm/search/search 'fn\s+main' src/
 * ```
 *
 * @example
 * ```ts
 * import { search } from "@llm/search/search";
 * const { data } = await search({ patterns: ["TODO"], cwd: Deno.cwd() });
 * console.log(data.match_count);
 * ```
 *
 * @module
 */
import { runCli } from "../../core/cli.ts";
import { searchTool } from "./tool.ts";

export { search, type SearchOptions, type SearchResult, type SearchWalkOptions } from "./engine.ts";
export type { MatcherOptions } from "./matcher.ts";
export type { SearchMode } from "./collector.ts";
export { searchTool } from "./tool.ts";

if (import.meta.main) Deno.exit(await runCli(searchTool, Deno.args));
