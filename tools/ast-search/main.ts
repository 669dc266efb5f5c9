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
 * import { astSearch } from "@llm/search/ast-search";
 * const { data } = await astSearch({ cwd: Deno.cwd(), kinds: ["class"], language: "ts" });
 * console.log(data.matches.map((match) => `${match.span.file_path}: ${match.name}`));
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
  INLINE_BYTES,
} from "./engine.ts";
export {
  type FileMatch,
  type FileOutcome,
  FileSearcher,
  type FileTask,
  namePrefilter,
  type SearchSpec,
  type SyntaxErrorInfo,
} from "./file_search.ts";
export {
  closestNames,
  compileQuery,
  QueryCompileError,
  type QueryProblem,
  SUPPORTED_PREDICATES,
} from "../../grammars/query.ts";
export { collectDefinitions, type Definition, enclosingDefinition } from "./definitions.ts";
export {
  claimNext,
  type JobMessage,
  stopClaims,
  type WorkerFailure,
  type WorkerReply,
} from "./job.ts";
export { closeSharedPool, type FileListener, ParsePool, sharedPool } from "./pool.ts";
export { workersAvailable } from "../../core/workers.ts";
export { AstSearchEnvelopeSchema, astSearchTool } from "./tool.ts";
export {
  languageByName,
  languageForFile,
  type LanguageInfo,
  LANGUAGES,
  supportedLanguageNames,
} from "../../grammars/languages.ts";
export {
  createParser,
  GrammarLoadError,
  initTreeSitter,
  loadLanguage,
} from "../../grammars/loader.ts";

if (import.meta.main) Deno.exit(await runCli(astSearchTool, Deno.args));
