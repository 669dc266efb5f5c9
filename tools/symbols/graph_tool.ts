/**
 * The code-graph subcommands of `llm-symbols`, each defined once through `defineTool` (CLI,
 * `--help`, MCP tool and JSON Schema): `reachable`, `dead-code`, `cycles`, `paths`, `impact`,
 * `export` and `map`. Their MCP descriptions are one line and one example each: every tool's
 * entry is in every client's `tools/list`.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { queryEnvelopeSchema } from "../../schema/envelope.ts";
import { field } from "../../schema/fields.ts";
import {
  CyclesDataSchema,
  DeadCodeDataSchema,
  ExportDataSchema,
  ImpactDataSchema,
  PathsDataSchema,
  ReachableDataSchema,
  RepoMapDataSchema,
} from "../../schema/symbols.ts";
import { LLM_SYMBOLS, SYMBOLS_MCP_NAMES } from "../../schema/tool_names.ts";
import { SYMBOLS_DEFAULTS } from "./defaults.ts";
import { GRAPH_CODE } from "./commands.ts";
import { ALL_EDGES, DEEPER_WALK, MORE_PATHS, WIDER_MAP } from "./next_call.ts";
import {
  count,
  dbField,
  kindField,
  limitField,
  pathsField,
  READ_ONLY,
  symbolIdField,
} from "./tool_fields.ts";

const symbolField = field(
  z.string().min(1).optional().describe("Name, qualified name or symbol_id (first positional)"),
  { aliases: ["symbol"] },
);

const unboundedDepth = field(
  count.default(0).describe("Most calls away, 0 for no limit"),
  { short: "d" },
);

/** The fields every graph subcommand's definition shares (`command`: its CLI name). */
function base(key: keyof typeof SYMBOLS_MCP_NAMES, command: string = key) {
  return {
    name: `${LLM_SYMBOLS} ${command}`,
    mcpName: SYMBOLS_MCP_NAMES[key],
    prefix: "MAG" as const,
    kind: "query" as const,
    permissions: ["read" as const],
    annotations: READ_ONLY,
  };
}

const REACHABLE = base("reachable");

/**
 * `llm-symbols reachable`: transitive callees (forward) or callers (reverse) of a symbol.
 *
 * @example Ask in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsReachableTool } from "./graph_tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsReachableTool.execute({ name: "main" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsReachableTool: Tool = defineTool({
  ...REACHABLE,
  title: "Symbols reachable through calls",
  description: "Transitive callees (forward) or callers (reverse) of a symbol, with depth.",
  example: { name: "main", direction: "forward", depth: 3 },
  input: z.object({
    name: symbolField,
    symbol_id: symbolIdField,
    direction: z.enum(["forward", "reverse"]).default("forward").describe(
      "forward: what it calls; reverse: what calls it",
    ),
    depth: unboundedDepth,
    paths: pathsField,
    db: dbField,
    limit: limitField(SYMBOLS_DEFAULTS.limit),
    kind: kindField,
  }),
  output: queryEnvelopeSchema(ReachableDataSchema),
  nextCall: DEEPER_WALK,
  listKey: "results",
  itemType: "symbol",
  text: GRAPH_CODE.reachable.text,
  cli: {
    usage: "[FLAGS] SYMBOL [PATH...]",
    positionals: GRAPH_CODE.reachable.positionals,
    examples: [
      "llm-symbols reachable main --depth 3",
      "llm-symbols reachable kfree --direction reverse",
    ],
  },
  run: GRAPH_CODE.reachable.run,
});

const DEAD_CODE = base("dead_code", "dead-code");

/**
 * `llm-symbols dead-code`: functions no entry reaches.
 *
 * @example Ask in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsDeadCodeTool } from "./graph_tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsDeadCodeTool.execute({}, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsDeadCodeTool: Tool = defineTool({
  ...DEAD_CODE,
  title: "Unreachable functions",
  description: "Functions no entry reaches by calls or references; entries default to main, " +
    "exported/public symbols and what top-level code uses.",
  example: { entry: ["main"] },
  input: z.object({
    entry: field(
      z.array(z.string().min(1)).default([]).describe(
        "Entry symbols (every definition of each name); none: the default entries",
      ),
      { aliases: ["entries"] },
    ),
    paths: pathsField,
    db: dbField,
    limit: limitField(SYMBOLS_DEFAULTS.limit),
    kind: kindField,
  }),
  output: queryEnvelopeSchema(DeadCodeDataSchema),
  listKey: "results",
  itemType: "symbol",
  text: GRAPH_CODE["dead-code"].text,
  cli: {
    usage: "[FLAGS] [PATH...]",
    positionals: GRAPH_CODE["dead-code"].positionals,
    examples: ["llm-symbols dead-code", "llm-symbols dead-code --entry main --entry init src/"],
    notes: "Default entries: every main; definitions exported or public by their language " +
      "(export, pub, public, a capitalised Go name, a Python name without _, a C function not " +
      "static; members of such a class unless private); definitions used by top-level code. " +
      "A function some ambiguous call may denote is left out (counted in maybe_used).",
  },
  run: GRAPH_CODE["dead-code"].run,
});

const CYCLES = base("cycles");

/**
 * `llm-symbols cycles`: the call graph's strongly connected components.
 *
 * @example Ask in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsCyclesTool } from "./graph_tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsCyclesTool.execute({}, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsCyclesTool: Tool = defineTool({
  ...CYCLES,
  title: "Call cycles",
  description: "Groups of functions that call each other (strongly connected components) and " +
    "recursive functions, largest first.",
  example: { paths: ["src"] },
  input: z.object({ paths: pathsField, db: dbField, limit: limitField(SYMBOLS_DEFAULTS.limit) }),
  output: queryEnvelopeSchema(CyclesDataSchema),
  listKey: "results",
  itemType: "cycle",
  text: GRAPH_CODE.cycles.text,
  cli: {
    usage: "[FLAGS] [PATH...]",
    positionals: GRAPH_CODE.cycles.positionals,
    examples: ["llm-symbols cycles", "llm-symbols cycles kernel/sched/"],
  },
  run: GRAPH_CODE.cycles.run,
});

const PATHS = base("paths");

/**
 * `llm-symbols paths`: call paths from one symbol to another.
 *
 * @example Ask in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsPathsTool } from "./graph_tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsPathsTool.execute({ from: "main", to: "exit" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsPathsTool: Tool = defineTool({
  ...PATHS,
  title: "Call paths between two symbols",
  description: "Simple call paths from one symbol to another, shortest first; partial when a " +
    "bound (depth, limit) may hide one.",
  example: { from: "main", to: "parse", depth: 6 },
  input: z.object({
    from: field(z.string().min(1).describe("Start: name, qualified name or symbol_id"), {
      aliases: ["source"],
    }),
    to: field(z.string().min(1).describe("End: name, qualified name or symbol_id"), {
      aliases: ["target"],
    }),
    depth: field(
      z.number().int().min(1).max(SYMBOLS_DEFAULTS.maxDepth).default(SYMBOLS_DEFAULTS.pathDepth)
        .describe("Most calls on a path"),
      { short: "d" },
    ),
    db: dbField,
    limit: limitField(SYMBOLS_DEFAULTS.paths),
  }),
  output: queryEnvelopeSchema(PathsDataSchema),
  nextCall: MORE_PATHS,
  listKey: "results",
  itemType: "path",
  text: GRAPH_CODE.paths.text,
  cli: {
    usage: "[FLAGS] --from SYMBOL --to SYMBOL",
    examples: [
      "llm-symbols paths --from main --to parse",
      "llm-symbols paths --from a --to b -d 4",
    ],
  },
  run: GRAPH_CODE.paths.run,
});

const IMPACT = base("impact");

/**
 * `llm-symbols impact`: the blast radius of changing a symbol.
 *
 * @example Ask in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsImpactTool } from "./graph_tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsImpactTool.execute({ name: "parse" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsImpactTool: Tool = defineTool({
  ...IMPACT,
  title: "Blast radius of a change",
  description: "What changing a symbol may break: transitive callers by depth, files touched " +
    "and a score (sum of 1/depth over the callers).",
  example: { name: "parse_args", depth: 3 },
  input: z.object({
    name: symbolField,
    symbol_id: symbolIdField,
    depth: unboundedDepth,
    db: dbField,
    limit: limitField(SYMBOLS_DEFAULTS.limit),
  }),
  output: queryEnvelopeSchema(ImpactDataSchema),
  nextCall: DEEPER_WALK,
  listKey: "results",
  itemType: "symbol",
  text: GRAPH_CODE.impact.text,
  cli: {
    usage: "[FLAGS] SYMBOL",
    positionals: GRAPH_CODE.impact.positionals,
    examples: ["llm-symbols impact parse_args", "llm-symbols impact kfree --depth 2"],
  },
  run: GRAPH_CODE.impact.run,
});

const EXPORT = base("export");

/**
 * `llm-symbols export`: the call graph as JSON, JSON lines or DOT.
 *
 * @example Ask in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsExportTool } from "./graph_tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsExportTool.execute({ graph_format: "dot" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsExportTool: Tool = defineTool({
  ...EXPORT,
  title: "Export the call graph",
  description: "The call graph (edges with both ends in paths; nodes: every definition in " +
    "paths, isolated ones too) as json (nodes, results), or jsonl or dot (text).",
  example: { graph_format: "dot", paths: ["src"] },
  input: z.object({
    graph_format: field(
      z.enum(["json", "jsonl", "dot"]).default("json").describe(
        "json, jsonl or dot (first positional)",
      ),
      { aliases: ["as"] },
    ),
    paths: pathsField,
    db: dbField,
    limit: field(
      count.default(SYMBOLS_DEFAULTS.exportEdges).describe("Edges to list, 0 for all"),
      { short: "n" },
    ),
  }),
  output: queryEnvelopeSchema(ExportDataSchema),
  nextCall: ALL_EDGES,
  text: GRAPH_CODE.export.text,
  cli: {
    usage: "[FLAGS] [json|jsonl|dot] [PATH...]",
    positionals: GRAPH_CODE.export.positionals,
    examples: [
      "llm-symbols export dot src/ --format text > calls.dot",
      "llm-symbols export jsonl -n 0",
    ],
    notes: "--format text prints the graph itself (DOT, JSON lines or JSON), not the envelope.",
  },
  run: GRAPH_CODE.export.run,
});

const MAP = base("map");

/**
 * `llm-symbols map`: the ranked repository map.
 *
 * @example Ask in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { repoMapTool } from "./graph_tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = repoMapTool.execute({}, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const repoMapTool: Tool = defineTool({
  ...MAP,
  title: "Ranked repository map",
  description: "The repository's most used definitions (PageRank over references, restarted " +
    "at focus files or symbols) as file headers and signature lines within tokens; read it first.",
  example: { focus: ["src/main.rs"], tokens: 1000 },
  mcp: {
    description: "The repository's most used definitions as signature lines within a token " +
      "budget. Read it first in an unknown repository, instead of listing and opening files.",
    unlisted: ["db"],
  },
  input: z.object({
    focus: field(
      z.array(z.string().min(1)).default([]).describe(
        "Files or symbols to rank around (positionals)",
      ),
      { path: true },
    ),
    tokens: count.default(SYMBOLS_DEFAULTS.mapTokens).describe("Budget, characters / 4"),
    paths: pathsField,
    db: dbField,
    kind: kindField,
  }),
  output: queryEnvelopeSchema(RepoMapDataSchema),
  nextCall: WIDER_MAP,
  text: GRAPH_CODE.map.text,
  cli: {
    usage: "[FLAGS] [FOCUS...]",
    positionals: GRAPH_CODE.map.positionals,
    examples: ["llm-symbols map --format text", "llm-symbols map src/parser.c --tokens 1000"],
  },
  run: GRAPH_CODE.map.run,
});

/** The graph subcommands, by their command-line names. */
export const GRAPH_SUBCOMMANDS: Readonly<Record<string, Tool>> = {
  reachable: symbolsReachableTool,
  "dead-code": symbolsDeadCodeTool,
  cycles: symbolsCyclesTool,
  paths: symbolsPathsTool,
  impact: symbolsImpactTool,
  export: symbolsExportTool,
  map: repoMapTool,
};
