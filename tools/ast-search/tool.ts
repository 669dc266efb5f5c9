/**
 * The `llm-ast-search` tool definition: its input schema (which is also its flag set), its
 * output schema, and the run function that calls the engine.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import {
  type AstSearchData,
  AstSearchDataSchema,
  CompactAstSearchEnvelopeSchema,
  SYMBOL_KINDS,
} from "../../schema/ast_search.ts";
import { type QueryEnvelope, queryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { field } from "../../schema/fields.ts";
import {
  relationshipInputShape,
  relationshipKinds,
  withRelations,
} from "../../core/symbol_index/relationship_input.ts";
import { walkInputShape, walkOptionsFrom } from "../../core/walk/walk_input.ts";
import { astSearch } from "./engine.ts";
import { DEFAULT_PARSE_LIMITS } from "./file_search.ts";
import { LLM_AST_SEARCH } from "../../schema/tool_names.ts";
import { AST_SEARCH_DEFAULTS } from "./defaults.ts";
import { astSearchCompact } from "./compact.ts";

const MIB = 1024 * 1024;

const count = z.number().int().nonnegative();

const AstSearchInput = z.object({
  query: field(
    z.string().optional().describe(
      "Tree-sitter query (S-expression patterns with @captures and #eq?/#match?/#any-of? predicates); " +
        "on the command line, the first positional argument unless query_file, kind or name is given",
    ),
    { short: "q" },
  ),
  query_file: field(z.string().optional().describe("Read the query from this file"), {
    path: true,
  }),
  paths: field(
    z.array(z.string()).default([]).describe("Files or directories to search [default: the root]"),
    { path: true, aliases: ["path"] },
  ),
  language: field(
    z.string().optional().describe(
      "Search only this language (name or alias, e.g. rust, ts, c++); named files are parsed as it " +
        "[default: each file's language by its extension]",
    ),
    { short: "l", aliases: ["lang"] },
  ),
  kind: field(
    z.array(z.enum(SYMBOL_KINDS)).default([]).describe(
      `Find symbol definitions of this kind, no query needed (repeatable): ${
        SYMBOL_KINDS.join("|")
      }`,
    ),
    { short: "k", aliases: ["kinds"] },
  ),
  name: field(
    z.string().optional().describe(
      "Only symbols whose name matches this regular expression (the @name capture of a query)",
    ),
    { short: "n" },
  ),
  limit: count.default(AST_SEARCH_DEFAULTS.limit).describe(
    "Matches to list, 0 for all; cut results set partial and total",
  ),
  with_semantics: field(
    z.boolean().default(false).describe(
      "Add semantics: normalised kind (or node type), language, enclosing symbol",
    ),
    { short: "S" },
  ),
  with_context: field(
    z.boolean().default(false).describe("Add context lines (context_lines of them)"),
    { short: "C" },
  ),
  context_lines: count.default(AST_SEARCH_DEFAULTS.contextLines).describe(
    "Context lines for with_context",
  ),
  with_checksums: z.boolean().default(false).describe(
    "Add span and file sha256 checksums to matches",
  ),
  max_columns: field(
    count.default(AST_SEARCH_DEFAULTS.maxColumns).describe(
      "Cut match, capture and context text longer than N bytes (0: never)",
    ),
    { short: "M" },
  ),
  max_parse_bytes: z.number().int().positive().default(DEFAULT_PARSE_LIMITS.maxParseBytes)
    .describe("Do not parse files larger than N bytes (reported, the run is partial)"),
  max_parse_memory: z.number().int().min(64).max(1536).default(
    DEFAULT_PARSE_LIMITS.maxParseMemory / MIB,
  ).describe(
    "Stop a parse once it has grown the parser heap by N MiB (the runtime aborts at 2048)",
  ),
  file_timeout: z.number().int().positive().default(DEFAULT_PARSE_LIMITS.fileTimeoutMs)
    .describe("Stop the parse and query of one file after N milliseconds"),
  ...relationshipInputShape,
  ...walkInputShape,
  threads: field(
    z.number().int().positive().optional().describe("Threads to parse on [default: CPU count]"),
    { short: "j" },
  ),
});

/** Input of `llm-ast-search`, as the engine receives it after defaults. */
export type AstSearchInput = z.output<typeof AstSearchInput>;

/** Output schema of `llm-ast-search`. */
export const AstSearchEnvelopeSchema: z.ZodType<QueryEnvelope<AstSearchData | { count: 0 }>> =
  queryEnvelopeSchema(AstSearchDataSchema);

function renderText(envelope: QueryEnvelope<AstSearchData>): string {
  return (envelope.data.matches ?? []).map((match) => {
    const where = `${match.span.file_path}:${match.span.start_line}:${match.span.start_col + 1}:`;
    const what = match.kind && match.name
      ? `${match.kind} ${match.name}`
      : match.text.split("\n", 1)[0];
    return `${where}${what}\n`;
  }).join("");
}

/**
 * The `llm-ast-search` tool.
 *
 * @example Read what llm-ast-search needs
 * ```ts
 * import assert from "node:assert/strict";
 * import { astSearchTool } from "@llm/search";
 * assert.equal(astSearchTool.name, "llm-ast-search");
 * assert.deepEqual(astSearchTool.permissions, ["read"]);
 * ```
 */
export const astSearchTool: Tool = defineTool({
  name: LLM_AST_SEARCH,
  mcpName: "ast_search",
  title: "Structural code search (tree-sitter)",
  description:
    "Search code by syntax, not text: run a tree-sitter query (S-expression patterns with " +
    "@captures and #eq?/#match?/#any-of? predicates) over files of 33 languages, or ask for " +
    'symbol definitions by kind and name without writing a query (kind: ["function"], name: ' +
    '"^parse"; kinds are the same for every language: function, method, class, struct, enum, ' +
    "interface, trait, type, module, constant, variable, macro, union). Each match gives its " +
    "byte-exact span, its text and its captures (name, span, text); with_semantics adds the " +
    "enclosing symbol. Files with syntax errors are still searched and reported as warnings.",
  example: { kind: ["function"], name: "^parse", paths: ["src"], language: "ts" },
  prefix: "LMA",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: AstSearchInput,
  output: AstSearchEnvelopeSchema,
  listKey: "matches",
  itemType: "match",
  text: (envelope) => renderText(envelope as QueryEnvelope<AstSearchData>),
  compact: { form: astSearchCompact, output: CompactAstSearchEnvelopeSchema },
  cli: {
    usage: "[FLAGS] QUERY [PATH...]\n  llm-ast-search [FLAGS] --kind KIND [--name REGEX] [PATH...]",
    positionals: (positionals, flags) => {
      const hasQuery = flags.query !== undefined || flags.query_file !== undefined ||
        (flags.kind as string[] | undefined)?.length || flags.name !== undefined;
      if (hasQuery) return { paths: positionals };
      const [query, ...paths] = positionals;
      return query === undefined ? {} : { query, paths };
    },
    examples: [
      "llm-ast-search --kind function --name '^parse' src/",
      "llm-ast-search -k class -k interface -S -l ts",
      "llm-ast-search '(call_expression function: (identifier) @f (#eq? @f \"eval\"))' -l js",
      "llm-ast-search --query-file unsafe.scm -l rust --with-context --context-lines 2",
      "llm-ast-search --kind function kernel/ --format text   # path:line:col:kind name",
      "deno run --allow-read=. jsr:@llm/search/ast-search --kind struct -l c",
    ],
  },
  run: async (input, context) => {
    const kinds = relationshipKinds(input);
    const result = await withRelations(
      LLM_AST_SEARCH,
      context.cwd,
      kinds,
      context.emit,
      (emit) =>
        astSearch({
          cwd: context.cwd,
          paths: input.paths,
          query: input.query,
          queryFile: input.query_file,
          language: input.language,
          kinds: input.kind,
          name: input.name,
          semantics: input.with_semantics,
          contextLines: input.with_context ? input.context_lines : 0,
          checksums: input.with_checksums,
          maxColumns: input.max_columns,
          limit: input.limit,
          threads: input.threads,
          maxParseBytes: input.max_parse_bytes,
          maxParseMemory: input.max_parse_memory * MIB,
          fileTimeoutMs: input.file_timeout,
          cache: context.cache,
          signal: context.signal,
          emit,
          walk: { ...walkOptionsFrom(input, "LMA"), cache: context.cache },
        }),
    );
    return {
      envelope: queryEnvelope(LLM_AST_SEARCH, result.data, result.diagnostics, {
        partial: result.partial,
        executionId: context.executionId,
      }),
    };
  },
});
