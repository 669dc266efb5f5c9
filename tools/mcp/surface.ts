/**
 * The MCP surface: what `llm-mcp` lists, derived from the registry's definitions. By default one
 * tool per capability (contract §9), in a fixed order: the registry's tools as they are, with
 * what the model reads said for MCP (what the tool is for and when to prefer it over a client's
 * built-in grep, read or edit; the arguments' own descriptions say the rest), and `symbols`,
 * `graph` and `refactor`, each merged from its subcommands' definitions by
 * {@linkcode mergeTools} with a `relation`, `algorithm` or `op` argument. The server adds
 * `get_execution` last.
 *
 * The index maintenance tools (`symbols_index`, `symbols_verify`) and each merged member by its
 * own name (`symbols_find`, `refactor_rename`, …) are served only when `--tools` names them.
 *
 * @module
 */
import type { Tool } from "../../core/tool.ts";
import { TOOLS } from "../registry.ts";
import { contextTool } from "../context/tool.ts";
import { searchTool } from "../search/tool.ts";
import { astSearchTool } from "../ast-search/tool.ts";
import { discoverTool } from "../discover/tool.ts";
import { validateTool } from "../validate/tool.ts";
import { transformTool } from "../transform/tool.ts";
import { writeTool } from "../write/tool.ts";
import {
  refactorDeleteTool,
  refactorInsertTool,
  refactorPatchTool,
  refactorPlanTool,
  refactorRenameTool,
  refactorUndoTool,
} from "../refactor/tool.ts";
import {
  symbolsCalleesTool,
  symbolsCallersTool,
  symbolsFindTool,
  symbolsImportersTool,
  symbolsImportsTool,
  symbolsOutlineTool,
  symbolsRefsTool,
  symbolsStatusTool,
} from "../symbols/tool.ts";
import {
  repoMapTool,
  symbolsCyclesTool,
  symbolsDeadCodeTool,
  symbolsExportTool,
  symbolsImpactTool,
  symbolsPathsTool,
  symbolsReachableTool,
} from "../symbols/graph_tool.ts";
import { mergeTools } from "./merge.ts";
import { LLM_REFACTOR, LLM_SYMBOLS } from "../../schema/tool_names.ts";

/**
 * `tool` as the model reads it: its MCP description in place of the command's, and the
 * arguments it accepts without listing them (both from its definition's `mcp`).
 */
function described(tool: Tool): Tool {
  if (!tool.mcp) return tool;
  const { description, unlisted } = tool.mcp;
  return { ...tool, description, ...(unlisted?.length ? { unlisted } : {}) };
}

/** `symbols`: the symbol index's queries, one `relation` argument. */
export const symbolsTool: Tool = mergeTools({
  name: LLM_SYMBOLS,
  mcpName: "symbols",
  title: "Symbols: definitions, references, calls, outlines and imports",
  description: "Symbol index queries: where a name is defined, its uses, callers, callees, a " +
    "file's outline, imports, importers. Prefer it to grep for a name: no comments, strings " +
    "or same-named locals; an ambiguous name lists candidates (pick by symbol_id).",
  discriminator: "relation",
  discriminatorDescription: "The question",
  members: {
    find: symbolsFindTool,
    refs: symbolsRefsTool,
    callers: symbolsCallersTool,
    callees: symbolsCalleesTool,
    outline: symbolsOutlineTool,
    imports: symbolsImportsTool,
    importers: symbolsImportersTool,
    status: symbolsStatusTool,
  },
  example: { relation: "callers", name: "parse_args", depth: 2 },
  unlisted: ["db", "match"],
});

/** `graph`: the code graph's algorithms over the symbol index, one `algorithm` argument. */
export const graphTool: Tool = mergeTools({
  name: LLM_SYMBOLS,
  mcpName: "graph",
  title: "Graph: reachability, dead code, cycles, paths, impact, export",
  description: "Whole-program questions over the symbol index's call graph that no text " +
    "search answers: reachability, dead code, cycles, call paths, the impact of a change, " +
    "export as DOT or JSON. Use it before changing or deleting a widely used definition.",
  discriminator: "algorithm",
  discriminatorDescription: "The algorithm",
  members: {
    reachable: symbolsReachableTool,
    dead_code: symbolsDeadCodeTool,
    cycles: symbolsCyclesTool,
    paths: symbolsPathsTool,
    impact: symbolsImpactTool,
    export: symbolsExportTool,
  },
  example: { algorithm: "impact", name: "parse_args", depth: 3 },
  unlisted: ["db", "entry"],
});

/** `refactor`: symbol-level edits through the code graph, one `op` argument. */
export const refactorTool: Tool = mergeTools({
  name: LLM_REFACTOR,
  mcpName: "refactor",
  title: "Refactor: rename, patch, delete or insert symbols, all or nothing",
  description: "Edits code by symbol: rename everywhere it resolves, replace, delete or " +
    "insert a definition, several steps at once, undo. Prefer it to the client's edit for " +
    "renames and whole definitions: files pass the compiler before one atomic write. " +
    "Previews unless dry_run: false.",
  discriminator: "op",
  discriminatorDescription: "The edit",
  members: {
    rename: refactorRenameTool,
    patch: refactorPatchTool,
    delete: refactorDeleteTool,
    insert: refactorInsertTool,
    plan: refactorPlanTool,
    undo: refactorUndoTool,
  },
  example: { op: "rename", symbol: "parse_config", to: "load_config", dry_run: false },
  unlisted: [
    "root",
    "allow_build_scripts",
    "refresh",
    "with_diff",
    "plan",
    "with",
    "proof",
    "expected_checksums",
    "after",
    "kind",
  ],
});

/**
 * The default surface, in listing order (the server adds `get_execution` last): at most 12
 * tools with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_TOOLS } from "./surface.ts";
 * assert.deepEqual(DEFAULT_TOOLS.map((tool) => tool.mcpName), [
 *   "context", "search", "ast_search", "discover", "symbols", "graph", "repo_map",
 *   "validate", "transform", "write", "refactor",
 * ]);
 * ```
 */
export const DEFAULT_TOOLS: readonly Tool[] = [
  contextTool,
  searchTool,
  astSearchTool,
  discoverTool,
  symbolsTool,
  graphTool,
  repoMapTool,
  validateTool,
  transformTool,
  writeTool,
  refactorTool,
].map(described);

/** The MCP names of the default surface, `get_execution` included. */
export const DEFAULT_TOOL_NAMES: readonly string[] = [
  ...DEFAULT_TOOLS.map((tool) => tool.mcpName),
  "get_execution",
];

/**
 * Every tool the server can serve, in listing order: the default surface, then the registry's
 * other tools (the maintenance tools and the merged tools' members by their own names), served
 * only when `--tools` names them.
 */
export const ALL_TOOLS: readonly Tool[] = [
  ...DEFAULT_TOOLS,
  ...TOOLS.filter((tool) => !DEFAULT_TOOLS.some((listed) => listed.mcpName === tool.mcpName)),
];

/**
 * The tool the server serves as `name` (the default surface first, then the registry), or
 * `undefined`: how a call worker finds the tool of a call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpTool } from "./surface.ts";
 * assert.equal(mcpTool("symbols")?.mcpName, "symbols");
 * assert.equal(mcpTool("symbols_index")?.name, "llm-symbols index");
 * assert.equal(mcpTool("grep"), undefined);
 * ```
 */
export function mcpTool(name: string): Tool | undefined {
  return ALL_TOOLS.find((tool) => tool.mcpName === name);
}

/** A tool as `tools/list` lists it: what {@linkcode surfaceBlock} reads. */
export interface ListedTool {
  /** MCP name. */
  name: string;
  /** What the model reads of it. */
  description: string;
  /** JSON Schema of its arguments. */
  inputSchema: unknown;
}

/** Bytes of `value` as compact JSON. */
function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/**
 * The README's account of the surface, from a `tools/list` answer (`listing`) and the server's
 * instructions: its figures, then a row per tool with the first sentence of its description.
 * `deno task surface` writes it between the README's `mcp-surface` markers, and
 * `tests/mcp_surface_test.ts` checks it is current.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { surfaceBlock } from "./surface.ts";
 * const block = surfaceBlock({ tools: [{ name: "x", description: "Does x. More.", inputSchema: {} }] }, "i");
 * assert.match(block, /\| `x` \| Does x\. \|/);
 * ```
 */
export function surfaceBlock(
  listing: { tools: readonly ListedTool[] },
  instructions: string,
): string {
  const { tools } = listing;
  const model = tools.reduce(
    (sum, tool) =>
      sum +
      jsonBytes({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
    0,
  );
  const longest = Math.max(...tools.map((tool) => tool.description.length));
  const figures = `${tools.length} tools by default; what the model reads of them (name, ` +
    `description, input schema as compact JSON) is ${model.toLocaleString("en")} bytes, the ` +
    `whole \`tools/list\` answer ${jsonBytes(listing).toLocaleString("en")} bytes (no output ` +
    `schemas unless \`--output-schemas\`), the longest description ${longest} characters and ` +
    `the server's instructions ${instructions.length}.`;
  const rows = tools.map((tool) => {
    const first = /^.*?[.!?](?=\s|$)/.exec(tool.description)?.[0] ?? tool.description;
    return `| \`${tool.name}\` | ${first.replaceAll("|", "\\|")} |`;
  });
  return [figures, "", "| tool | for |", "| --- | --- |", ...rows].join("\n");
}
