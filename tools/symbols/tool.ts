/**
 * The `llm-symbols` subcommands, each defined once through `defineTool` (so each has its CLI,
 * `--help`, MCP tool and JSON Schema): `index` (the one that writes, and only the index),
 * `status`, `verify`, `find`, `refs`, `callers`, `callees`, `outline`, `imports`, `importers`,
 * and the code-graph subcommands of `graph_tool.ts`.
 * The root is the working directory (the MCP server's root).
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { walkInputShape } from "../../core/walk/walk_input.ts";
import { mutationEnvelopeSchema, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { field } from "../../schema/fields.ts";
import {
  ImportListDataSchema,
  IndexResultSchema,
  IndexStatusDataSchema,
  SymbolListDataSchema,
  UseListDataSchema,
  VerifyDataSchema,
} from "../../schema/symbols.ts";
import { LLM_SYMBOLS, SYMBOLS_MCP_NAMES } from "../../schema/tool_names.ts";
import { SYMBOLS_DEFAULTS } from "./defaults.ts";
// Loaded with the definitions: the engines name these modules by computed specifiers (so that
// a query's command line does not read their graphs at start), and a run of a definition
// (`verify`, or a long-lived host's queries with its live index) then finds them loaded, which
// needs no read permission for the package.
import "../../core/symbol_index/candidates.ts";
import "../../core/symbol_index/live.ts";
import { GRAPH_SUBCOMMANDS } from "./graph_tool.ts";
import { indexCode, QUERY_CODE, VERIFY_CODE } from "./commands.ts";
import {
  count,
  dbField,
  kindField,
  limitField,
  nameField,
  pathsField,
  READ_ONLY,
  symbolIdField,
} from "./tool_fields.ts";

const INDEX = `${LLM_SYMBOLS} index`;

/**
 * `index`'s code, its indexer named by a literal import: the graph of whatever loads the
 * definitions (the MCP server, the root module) holds it, so a host scoped to its root indexes.
 */
const INDEX_CODE = indexCode(() => import("../../core/symbol_index/indexer.ts"));
const STATUS = `${LLM_SYMBOLS} status`;
const VERIFY = `${LLM_SYMBOLS} verify`;
const FIND = `${LLM_SYMBOLS} find`;
const OUTLINE = `${LLM_SYMBOLS} outline`;

const fileField = field(
  z.string().min(1).describe("A file of the index (the first positional argument)"),
  { path: true, aliases: ["file_path", "path"] },
);

const depthField = field(
  z.number().int().min(1).max(SYMBOLS_DEFAULTS.maxDepth).default(SYMBOLS_DEFAULTS.depth)
    .describe("Levels to follow transitively (1: direct only)"),
  { short: "d" },
);

const queryShape = { db: dbField, limit: limitField(SYMBOLS_DEFAULTS.limit), kind: kindField };

const IndexInput = z.object({
  db: dbField,
  max_file_bytes: count.default(SYMBOLS_DEFAULTS.maxFileBytes).describe(
    "Do not index files larger than this many bytes",
  ),
  timeout_ms: field(
    count.default(0).describe(
      "Stop parsing after N milliseconds (0: no limit); the next run indexes the rest",
    ),
    { aliases: ["timeout"] },
  ),
  ...walkInputShape,
  hidden: field(walkInputShape.hidden.clone(), { short: "H" }),
  no_ignore: field(walkInputShape.no_ignore.clone(), { short: "I" }),
  threads: field(
    count.optional().describe(
      "Worker threads to parse on, 0 for none [default: CPU count; none under 32 files to check]",
    ),
    { short: "j" },
  ),
});

/**
 * `llm-symbols index`: builds or refreshes the index of the root.
 *
 * @example Index a folder
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsIndexTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/a.py`, "def f():\n    pass\n");
 * const { envelope } = await symbolsIndexTool.execute({ threads: 0 }, { executionId: crypto.randomUUID(), cwd });
 * assert.equal(envelope.status, "ok");
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsIndexTool: Tool = defineTool({
  name: INDEX,
  mcpName: SYMBOLS_MCP_NAMES.index,
  title: "Build or refresh the symbol index",
  description:
    "Index the root's code into <root>/.llm/index.db (or db): definitions, calls and other " +
    "references, imports, for every language with a grammar. Incremental: only files whose " +
    "content hash changed are parsed again, deleted files lose their facts. Run it before the " +
    "symbol queries (symbols_find, symbols_refs, symbols_callers, …) and after editing code.",
  example: { timeout_ms: 60000 },
  prefix: "MAG",
  kind: "mutation",
  operationType: "index",
  permissions: ["read", "write"],
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  input: IndexInput,
  output: mutationEnvelopeSchema(IndexResultSchema),
  text: INDEX_CODE.text,
  cli: {
    usage: "[FLAGS]",
    examples: [
      "llm-symbols index",
      "llm-symbols index --glob '!vendor/' --timeout-ms 60000",
      "deno run --allow-read --allow-write=.llm jsr:@llm/search/symbols index",
    ],
    notes:
      "Writes only the index database (and its -wal/-shm files, and the .lock file a refresh claims) under the root.",
  },
  run: INDEX_CODE.run,
});

/**
 * `llm-symbols status`: counts and freshness of the index.
 *
 * @example Ask for the status of a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsStatusTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsStatusTool.execute({}, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsStatusTool: Tool = defineTool({
  name: STATUS,
  mcpName: SYMBOLS_MCP_NAMES.status,
  title: "Symbol index status",
  description:
    "Counts of the symbol index (files, symbols, references, imports, files with parse errors) " +
    "and its freshness: indexed files whose size and time still match the disk, changed since " +
    "(stale), or gone (missing). Run symbols_index when stale or missing is not 0.",
  example: {},
  prefix: "MAG",
  kind: "query",
  permissions: ["read"],
  annotations: READ_ONLY,
  input: z.object({ db: dbField }),
  output: queryEnvelopeSchema(IndexStatusDataSchema),
  text: QUERY_CODE.status.text,
  cli: { usage: "[FLAGS]", examples: ["llm-symbols status"] },
  run: QUERY_CODE.status.run,
});

const VerifyInput = z.object({
  db: dbField,
  limit: limitField(0),
  max_file_bytes: count.optional().describe(
    "Files larger than this are not indexed, so one left out is no drift [default: the last " +
      "index run's]",
  ),
  ...walkInputShape,
  hidden: field(walkInputShape.hidden.clone(), { short: "H" }),
  no_ignore: field(walkInputShape.no_ignore.clone(), { short: "I" }),
});

/**
 * `llm-symbols verify`: the index against the disk by content hash; exit 1 on drift.
 *
 * @example Verify a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsVerifyTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsVerifyTool.execute({}, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsVerifyTool: Tool = defineTool({
  name: VERIFY,
  mcpName: SYMBOLS_MCP_NAMES.verify,
  title: "Verify the symbol index against the disk",
  description:
    "Compare the index with the files on disk by content hash and list every drift: changed, " +
    "missing (indexed, gone) or new (not indexed; one larger than max_file_bytes is not drift). " +
    "in_sync is true when there is none. Give the same walk settings (glob, hidden, …) as the " +
    "index run.",
  example: { limit: 20 },
  prefix: "MAG",
  kind: "query",
  permissions: ["read"],
  annotations: READ_ONLY,
  input: VerifyInput,
  output: queryEnvelopeSchema(VerifyDataSchema),
  listKey: "results",
  itemType: "drift",
  text: VERIFY_CODE.text,
  cli: {
    usage: "[FLAGS]",
    examples: ["llm-symbols verify", "llm-symbols verify --format text"],
    exitCodes: "  0  the index matches the disk\n  1  drift found (listed)\n" +
      "  2  bad input   3  refused (no index, foreign database)   4  permission   5  internal",
  },
  run: VERIFY_CODE.run,
});

/**
 * `llm-symbols find`: definitions by exact, prefix or fuzzy name.
 *
 * @example Find a symbol in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsFindTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsFindTool.execute({ name: "main" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsFindTool: Tool = defineTool({
  name: FIND,
  mcpName: SYMBOLS_MCP_NAMES.find,
  title: "Find symbol definitions",
  description:
    "Find where symbols are defined, from the symbol index: by exact name or qualified name " +
    "(several definitions are all listed and ambiguous is true: nothing is picked for you), " +
    "by symbol_id, " +
    "by prefix, or fuzzy (fzf scoring). An unknown exact name fails with MAG-REF-001 and close " +
    "names. Each result has its span, kind, qualified name, signature line and symbol_id.",
  example: { name: "parse_args", kind: ["function"] },
  prefix: "MAG",
  kind: "query",
  permissions: ["read"],
  annotations: READ_ONLY,
  input: z.object({
    name: nameField,
    symbol_id: symbolIdField,
    match: z.enum(["exact", "prefix", "fuzzy"]).default("exact").describe(
      "How the name matches: exact (or qualified), prefix, fuzzy",
    ),
    paths: pathsField,
    ...queryShape,
  }),
  output: queryEnvelopeSchema(SymbolListDataSchema),
  listKey: "results",
  itemType: "symbol",
  text: QUERY_CODE.find.text,
  cli: {
    usage: "[FLAGS] NAME [PATH...]",
    positionals: QUERY_CODE.find.positionals,
    examples: [
      "llm-symbols find main",
      "llm-symbols find --match prefix sched_ kernel/",
      "llm-symbols find --match fuzzy schedcore --limit 5",
    ],
  },
  run: QUERY_CODE.find.run,
});

function useTool(
  subcommand: "refs" | "callers" | "callees",
  text: { title: string; description: string; example: Record<string, unknown> },
): Tool {
  const name = `${LLM_SYMBOLS} ${subcommand}`;
  return defineTool({
    name,
    mcpName: SYMBOLS_MCP_NAMES[subcommand],
    title: text.title,
    description: text.description,
    example: text.example,
    prefix: "MAG",
    kind: "query",
    permissions: ["read"],
    annotations: READ_ONLY,
    input: z.object({
      name: nameField,
      symbol_id: symbolIdField,
      depth: depthField,
      paths: pathsField,
      ...queryShape,
    }),
    output: queryEnvelopeSchema(UseListDataSchema),
    listKey: "results",
    itemType: "use",
    text: QUERY_CODE[subcommand].text,
    cli: {
      usage: "[FLAGS] NAME [PATH...]",
      positionals: QUERY_CODE[subcommand].positionals,
      examples: [
        `llm-symbols ${subcommand} parse_args`,
        `llm-symbols ${subcommand} Parser.parse --depth 2 src/`,
        `llm-symbols ${subcommand} --symbol-id 3f2a9c01d4e5b687`,
      ],
    },
    run: QUERY_CODE[subcommand].run,
  });
}

const RESOLUTION_NOTE = "Each use is resolved to a definition: its own file (and scope) " +
  "first, then the files its file imports or includes, then a name defined once in the index; " +
  "ambiguous and unresolved uses are kept and marked. Name the symbol by name, or by the " +
  "symbol_id symbols_find lists to take one of several same-named definitions.";

/**
 * `llm-symbols refs`: every use of a symbol, resolved.
 *
 * @example Ask for references in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsRefsTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsRefsTool.execute({ name: "main" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsRefsTool: Tool = useTool("refs", {
  title: "References to a symbol",
  description:
    "List the uses (calls and other references) of a symbol from the symbol index, each with " +
    "its span, the definition it sits in (caller) and its resolution. " + RESOLUTION_NOTE +
    " depth is ignored.",
  example: { name: "parse_args" },
});

/**
 * `llm-symbols callers`: call sites of a symbol, transitively with `depth`.
 *
 * @example Ask for callers in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsCallersTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsCallersTool.execute({ name: "main" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsCallersTool: Tool = useTool("callers", {
  title: "Callers of a symbol",
  description: "List the call sites of a function or method from the symbol index, each with the " +
    "definition that makes the call (caller); depth > 1 also lists the callers of those " +
    "callers. " + RESOLUTION_NOTE,
  example: { name: "parse_args", depth: 2 },
});

/**
 * `llm-symbols callees`: the calls a symbol makes, transitively with `depth`.
 *
 * @example Ask for callees in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsCalleesTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsCalleesTool.execute({ name: "main" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsCalleesTool: Tool = useTool("callees", {
  title: "Calls a symbol makes",
  description:
    "List the calls made inside a function or method, from the symbol index, each resolved to " +
    "the definition it calls; depth > 1 follows the resolved callees. " + RESOLUTION_NOTE,
  example: { name: "main", depth: 2 },
});

/**
 * `llm-symbols outline`: the definitions of one file.
 *
 * @example Outline a file in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsOutlineTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsOutlineTool.execute({ file: "a.c" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsOutlineTool: Tool = defineTool({
  name: OUTLINE,
  mcpName: SYMBOLS_MCP_NAMES.outline,
  title: "Outline of a file",
  description:
    "List the definitions of one indexed file in source order, with kinds, qualified names, " +
    "parents and signature lines: what a file holds without reading it.",
  example: { file: "src/main.rs" },
  prefix: "MAG",
  kind: "query",
  permissions: ["read"],
  annotations: READ_ONLY,
  input: z.object({ file: fileField, db: dbField, limit: limitField(0), kind: kindField }),
  output: queryEnvelopeSchema(SymbolListDataSchema),
  listKey: "results",
  itemType: "symbol",
  text: QUERY_CODE.outline.text,
  cli: {
    usage: "[FLAGS] FILE",
    positionals: QUERY_CODE.outline.positionals,
    examples: ["llm-symbols outline src/main.c", "llm-symbols outline -k function src/main.c"],
  },
  run: QUERY_CODE.outline.run,
});

function importTool(subcommand: "imports" | "importers", title: string, description: string): Tool {
  return defineTool({
    name: `${LLM_SYMBOLS} ${subcommand}`,
    mcpName: SYMBOLS_MCP_NAMES[subcommand],
    title,
    description,
    example: { file: "src/util.h" },
    prefix: "MAG",
    kind: "query",
    permissions: ["read"],
    annotations: READ_ONLY,
    input: z.object({
      file: fileField,
      db: dbField,
      limit: limitField(subcommand === "imports" ? 0 : SYMBOLS_DEFAULTS.limit),
    }),
    output: queryEnvelopeSchema(ImportListDataSchema),
    listKey: "results",
    itemType: "import",
    text: QUERY_CODE[subcommand].text,
    cli: {
      usage: "[FLAGS] FILE",
      positionals: QUERY_CODE[subcommand].positionals,
      examples: [`llm-symbols ${subcommand} src/util.h`],
    },
    run: QUERY_CODE[subcommand].run,
  });
}

/**
 * `llm-symbols imports`: what one file imports or includes.
 *
 * @example Ask for the imports of a file in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsImportsTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsImportsTool.execute({ file: "a.c" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsImportsTool: Tool = importTool(
  "imports",
  "Imports of a file",
  "List the imports and includes of one indexed file, each with the indexed file it reaches " +
    "(resolved_path) when one does.",
);

/**
 * `llm-symbols importers`: the files that import or include one file.
 *
 * @example Ask for the importers of a file in a folder without an index
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsImportersTool } from "./tool.ts";
 * const cwd = Deno.makeTempDirSync();
 * const answer = symbolsImportersTool.execute({ file: "a.h" }, { executionId: crypto.randomUUID(), cwd });
 * await assert.rejects(answer, { code: "MAG-IO-013" });
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export const symbolsImportersTool: Tool = importTool(
  "importers",
  "Files that import a file",
  "List the imports and includes, in other indexed files, that reach one file: who depends on " +
    "it.",
);

/** Every subcommand of `llm-symbols`, by its command-line name. */
export const SYMBOLS_SUBCOMMANDS: Readonly<Record<string, Tool>> = {
  index: symbolsIndexTool,
  status: symbolsStatusTool,
  verify: symbolsVerifyTool,
  find: symbolsFindTool,
  refs: symbolsRefsTool,
  callers: symbolsCallersTool,
  callees: symbolsCalleesTool,
  outline: symbolsOutlineTool,
  imports: symbolsImportsTool,
  importers: symbolsImportersTool,
  ...GRAPH_SUBCOMMANDS,
};
