/**
 * Every tool of the toolkit, in the fixed order the MCP server lists them. A tool added here
 * appears in the MCP server and the JSON Schema files with no further code.
 *
 * @module
 */
import type { Tool } from "../core/tool.ts";
import { astSearchTool } from "./ast-search/tool.ts";
import { discoverTool } from "./discover/tool.ts";
import { searchTool } from "./search/tool.ts";
import { transformTool } from "./transform/tool.ts";

/**
 * All tools, read-only ones first.
 *
 * @example List the tools an MCP server offers under read-only permissions
 * ```ts
 * import { TOOLS } from "@llm/search";
 * const readOnly = TOOLS.filter((tool) => !tool.permissions.includes("write"));
 * readOnly.map((tool) => tool.mcpName); // ["search", "ast_search", "discover"]
 * ```
 */
export const TOOLS: readonly Tool[] = [
  searchTool,
  astSearchTool,
  discoverTool,
  transformTool,
];
