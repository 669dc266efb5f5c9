/**
 * @llm/search — code tools for LLM agents that answer in one JSON contract: byte-exact spans,
 * stable ids, SHA-256 checksums and coded diagnostics.
 *
 * Run as a program, this module is `llm-search` (structured text search):
 *
 * ```sh
 * deno run --allow-read jsr:@llm/search 'fn\s+main' src/
 * ```
 *
 * As a library it exports the tool framework (define a tool once; get its CLI, JSON Schema and
 * MCP tool), the shared walker and the search engine. The contract types live in
 * `@llm/search/schema`; each tool has its own entrypoint (`@llm/search/search`, …).
 *
 * @example
 * ```ts
 * import { search } from "@llm/search";
 * const { data } = await search({ patterns: ["TODO"], cwd: Deno.cwd() });
 * console.log(data.match_count);
 * ```
 *
 * @module
 */
import { runCli } from "./core/cli.ts";
import { searchTool } from "./tools/search/tool.ts";

export * from "./core/mod.ts";
export { search, type SearchOptions, type SearchResult } from "./tools/search/engine.ts";
export { searchTool } from "./tools/search/tool.ts";
export { TOOLS } from "./tools/registry.ts";

if (import.meta.main) Deno.exit(await runCli(searchTool, Deno.args));
