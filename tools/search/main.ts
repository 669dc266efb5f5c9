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

export { search, type SearchOptions, type SearchResult } from "./engine.ts";
export { buildMatcher, type MatcherOptions, type MatcherSpec } from "./matcher.ts";
export { requiredLiteral } from "./literal.ts";
export { translateRipgrepSyntax } from "./rewrite.ts";
export { LiteralPrefilter } from "./prefilter.ts";
export {
  type CompiledMatcher,
  compileMatcher,
  type FileResult,
  searchBytes,
  type SearchFileOptions,
} from "./searcher.ts";
export { type BatchFile, type BatchFileResult, BatchSearcher } from "./batch.ts";
export { type BufferSource, ReusableReader } from "./reader.ts";
export { searchTool } from "./tool.ts";

if (import.meta.main) Deno.exit(await runCli(searchTool, Deno.args));
