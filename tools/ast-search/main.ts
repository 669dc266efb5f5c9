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
import { runCli } from "../../core/cli.ts";
import { astSearchTool } from "./tool.ts";

export {
  astSearch,
  type AstSearchOptions,
  type AstSearchResult,
  type AstSearchWalkOptions,
} from "./engine.ts";
export { closeSharedPool } from "./pool.ts";
export { astSearchTool } from "./tool.ts";

if (import.meta.main) Deno.exit(await runCli(astSearchTool, Deno.args));
