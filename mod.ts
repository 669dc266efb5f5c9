/**
 * `@llm/search`: code tools for LLM agents that answer in one JSON contract: byte-exact spans,
 * stable ids, SHA-256 checksums and coded diagnostics.
 *
 * Run as a program, this module is `llm-search` (structured text search); the command's own
 * entrypoint `@llm/search/search` starts about 0.1 s sooner, since it loads only the search:
 *
 * ```sh
 * deno run --allow-read jsr:@llm/search/search 'fn\s+main' src/
 * ```
 *
 * As a library it exports, for each tool, its engine as a plain function with its options and
 * result types ({@linkcode search}, {@linkcode astSearch}, {@linkcode discover},
 * {@linkcode transform}, {@linkcode write}), its definition ({@linkcode searchTool}, …, all in
 * {@linkcode TOOLS}), the framework a new tool is written with ({@linkcode defineTool},
 * {@linkcode runCli}), the contract's types and the error-code registry
 * ({@linkcode ERROR_CODES}, {@linkcode explainCode}). The zod schemas, ids, checksums and the
 * line index are in `@llm/search/schema`; each tool's program is its own entrypoint
 * (`@llm/search/search`, `@llm/search/ast-search`, `@llm/search/discover`,
 * `@llm/search/transform`, `@llm/search/write`, `@llm/search/validate`, `@llm/search/mcp`). The
 * two tools built on the symbol index (SQLite) export their engines from their own entrypoints
 * only, so that this module does not load SQLite: `@llm/search/symbols` (`indexRoot` and the
 * queries) and `@llm/search/refactor` (`refactor`).
 *
 * @example Search a tree
 * ```ts
 * import assert from "node:assert/strict";
 * import { search } from "@llm/search";
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/notes.txt`, "one\nTODO: two\n");
 * const { data } = await search({ patterns: ["TODO"], cwd });
 * assert.equal(data.match_count, 1);
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 *
 * @example Explain an error code
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainCode } from "@llm/search";
 * assert.equal(explainCode("LMS-QRY-001")?.exit, 2);
 * ```
 *
 * @module
 */
import { runCli } from "./core/cli.ts";
import { searchTool } from "./tools/search/tool.ts";

// The engines: each tool as a plain library function.
export {
  search,
  type SearchOptions,
  type SearchResult,
  type SearchWalkOptions,
} from "./tools/search/engine.ts";
export type { MatcherOptions } from "./tools/search/matcher.ts";
export type { SearchMode } from "./tools/search/collector.ts";
export {
  astSearch,
  type AstSearchOptions,
  type AstSearchResult,
  type AstSearchWalkOptions,
} from "./tools/ast-search/engine.ts";
export { closeSharedPool } from "./tools/ast-search/pool.ts";
export {
  discover,
  type DiscoverOptions,
  type DiscoverOutcome,
  type DiscoverWalkOptions,
} from "./tools/discover/engine.ts";
export type { CaseMode } from "./core/fuzzy/query.ts";
export { transform } from "./tools/transform/engine.ts";
export {
  buildRequest,
  type PlanRequest,
  type PlanSource,
  type ReplaceRequest,
  type RequestInput,
  type TransformRequest,
} from "./tools/transform/request.ts";
export type { TransformOptions, TransformReport } from "./tools/transform/report.ts";
export type { ValidationMode } from "./tools/transform/report.ts";
export { write, type WriteOptions, type WriteReport } from "./tools/write/engine.ts";
export {
  buildWriteRequest,
  type WriteRequest,
  type WriteRequestInput,
  type WriteSource,
} from "./tools/write/request.ts";
export type { EngineWalkOptions, WalkOptions } from "./core/walk/walker.ts";
export { validate, type ValidateOptions, type ValidateOutcome } from "./tools/validate/engine.ts";
export {
  GATE_TIMEOUT_MS,
  type GateSelection,
  validateFile,
  type ValidateOptions as ValidateFileOptions,
} from "./core/gates/mod.ts";

// The tool definitions, and the registry the MCP server and the JSON Schema files come from.
export { searchTool } from "./tools/search/tool.ts";
export { astSearchTool } from "./tools/ast-search/tool.ts";
export { discoverTool } from "./tools/discover/tool.ts";
export { transformTool } from "./tools/transform/tool.ts";
export { writeTool } from "./tools/write/tool.ts";
export { validateTool } from "./tools/validate/tool.ts";
export { TOOLS } from "./tools/registry.ts";

// The framework a tool is written with.
export {
  type CliSpec,
  defineTool,
  type InputSchema,
  type NextCall,
  type NextCallLimits,
  type PositionalMapper,
  type RunContext,
  type Schema,
  type SchemaIssue,
  type SchemaResult,
  type StandardSchema,
  type Tool,
  type ToolAnnotations,
  type ToolCompact,
  type ToolDefinition,
  type ToolInfo,
  type ToolOutcome,
  type ToolPermission,
} from "./core/tool.ts";
export { runCli } from "./core/cli.ts";
export { classifyError, describeCauses } from "./core/failure.ts";
export { type FileVersion, MemoryCache, type RunCache } from "./core/cache.ts";
export { VERSION } from "./core/version.ts";

// The contract: every type of the output, the coded error and the error-code registry.
export type {
  AstCapture,
  AstMatch,
  AstSearchData,
  Checksum,
  CodePrefix,
  CompactAnswer,
  CompactEnvelope,
  CompactForm,
  CompactGateRefusal,
  CompactMutationEnvelope,
  ContextLine,
  Diagnostic,
  DiagnosticDetails,
  DiagnosticExample,
  DiagnosticLevel,
  DiagnosticSummary,
  DiscoverData,
  DiscoverReason,
  DiscoverResult,
  Edit,
  EditOutcome,
  EditPlan,
  EditStatus,
  Envelope,
  ErrorCodeEntry,
  FileCount,
  FileOutcome,
  FileStatus,
  GateFailureKind,
  GateOutcome,
  GatePrefix,
  GateRefusal,
  GateReport,
  GateStatus,
  JournalState,
  LimitedFiles,
  MutationEnvelope,
  MutationError,
  MutationStatus,
  NextPage,
  QueryData,
  QueryEnvelope,
  QueryStatus,
  RecoveredFile,
  RecoveredFileAction,
  RecoveredJournal,
  RecoverResult,
  RecoveryOutcome,
  Relationships,
  SearchData,
  SearchIndexUse,
  SearchMatch,
  Semantics,
  Span,
  SpanChecksums,
  SpanExtensions,
  SuggestedAction,
  SymbolRef,
  TransformOutput,
  TransformResult,
  UndoneFile,
  UndoResult,
  ValidateData,
  WriteFile,
  WriteFileStatus,
  WriteOutput,
  WritePlan,
  WriteResult,
  WrittenFile,
} from "./schema/mod.ts";
export { ERROR_CODES, EXIT, explainCode, ToolError } from "./schema/mod.ts";

if (import.meta.main) Deno.exit(await runCli(searchTool, Deno.args));
