/**
 * Every tool of the toolkit, in the fixed order the MCP server lists them. A tool added here
 * appears in the MCP server and the JSON Schema files with no further code.
 *
 * @module
 */
import type { Tool } from "../core/tool.ts";
import { astSearchTool } from "./ast-search/tool.ts";
import { discoverTool } from "./discover/tool.ts";
import { contextTool } from "./context/tool.ts";
import { searchTool } from "./search/tool.ts";
import { transformTool } from "./transform/tool.ts";
import { writeTool } from "./write/tool.ts";
import { validateTool } from "./validate/tool.ts";
import {
  refactorDeleteTool,
  refactorInsertTool,
  refactorPatchTool,
  refactorPlanTool,
  refactorRenameTool,
  refactorUndoTool,
} from "./refactor/tool.ts";
import {
  symbolsCalleesTool,
  symbolsCallersTool,
  symbolsFindTool,
  symbolsImportersTool,
  symbolsImportsTool,
  symbolsIndexTool,
  symbolsOutlineTool,
  symbolsRefsTool,
  symbolsStatusTool,
  symbolsVerifyTool,
} from "./symbols/tool.ts";
import {
  repoMapTool,
  symbolsCyclesTool,
  symbolsDeadCodeTool,
  symbolsExportTool,
  symbolsImpactTool,
  symbolsPathsTool,
  symbolsReachableTool,
} from "./symbols/graph_tool.ts";

/**
 * All tools, read-only ones first; `context` leads, as the first call of a new task.
 *
 * @example List the tools an MCP server offers under read-only permissions
 * ```ts
 * import assert from "node:assert/strict";
 * import { TOOLS } from "@llm/search";
 * const readOnly = TOOLS.filter((tool) => !tool.permissions.includes("write"));
 * assert.deepEqual(readOnly.map((tool) => tool.mcpName).slice(0, 4), [
 *   "context",
 *   "search",
 *   "ast_search",
 *   "discover",
 * ]);
 * ```
 */
export const TOOLS: readonly Tool[] = [
  contextTool,
  searchTool,
  astSearchTool,
  discoverTool,
  symbolsFindTool,
  symbolsRefsTool,
  symbolsCallersTool,
  symbolsCalleesTool,
  symbolsOutlineTool,
  symbolsImportsTool,
  symbolsImportersTool,
  symbolsImpactTool,
  repoMapTool,
  symbolsReachableTool,
  symbolsDeadCodeTool,
  symbolsCyclesTool,
  symbolsPathsTool,
  symbolsExportTool,
  symbolsStatusTool,
  symbolsVerifyTool,
  validateTool,
  transformTool,
  writeTool,
  symbolsIndexTool,
  refactorRenameTool,
  refactorPatchTool,
  refactorDeleteTool,
  refactorInsertTool,
  refactorPlanTool,
  refactorUndoTool,
];
