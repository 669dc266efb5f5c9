/**
 * The command name of every program of the toolkit, each stated once: the `tool` of its
 * envelopes and diagnostics, its executable, its `--help` head.
 *
 * @example Name the tool of an envelope
 * ```ts
 * import assert from "node:assert/strict";
 * import { LLM_SEARCH, queryEnvelope } from "@llm/search/schema";
 * assert.equal(queryEnvelope(LLM_SEARCH, { count: 0 }, []).tool, "llm-search");
 * ```
 *
 * @module
 */

/** `llm-search`: structured text search. */
export const LLM_SEARCH = "llm-search";
/** `llm-ast-search`: structural code search. */
export const LLM_AST_SEARCH = "llm-ast-search";
/** `llm-discover`: fuzzy file finding. */
export const LLM_DISCOVER = "llm-discover";
/** `llm-context`: from a task to the code it needs, in a token budget. */
export const LLM_CONTEXT = "llm-context";
/** `llm-transform`: checksummed edits. */
export const LLM_TRANSFORM = "llm-transform";
/** `llm-symbols`: the symbol index and its queries. */
export const LLM_SYMBOLS = "llm-symbols";
/** The MCP tool name of each `llm-symbols` subcommand. */
export const SYMBOLS_MCP_NAMES = {
  index: "symbols_index",
  status: "symbols_status",
  verify: "symbols_verify",
  find: "symbols_find",
  refs: "symbols_refs",
  callers: "symbols_callers",
  callees: "symbols_callees",
  outline: "symbols_outline",
  imports: "symbols_imports",
  importers: "symbols_importers",
  reachable: "symbols_reachable",
  dead_code: "symbols_dead_code",
  cycles: "symbols_cycles",
  paths: "symbols_paths",
  impact: "symbols_impact",
  export: "symbols_export",
  map: "repo_map",
} as const;
/** `llm-refactor` (coming): refactorings. */
export const LLM_REFACTOR = "llm-refactor";
/** `llm-write` (coming): file writes. */
export const LLM_WRITE = "llm-write";
/** `llm-validate`: the validation gates on given text, writing nothing. */
export const LLM_VALIDATE = "llm-validate";
/** `llm-mcp`: the MCP server. */
export const LLM_MCP = "llm-mcp";
/** `llm-log`: the execution log every run shares. */
export const LLM_LOG = "llm-log";
