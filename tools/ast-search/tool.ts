/**
 * The `llm-ast-search` tool definition: its input schema (which is also its flag set), its
 * output schema, and the run function that calls the engine.
 *
 * @module
 */
import { WALK_TUNING_FIELDS } from "../../core/walk/walk_input.ts";
import { RELATIONSHIP_FIELDS } from "../../core/symbol_index/relationship_input.ts";
import type { z } from "zod";
import { defineTool, type NextCall, type Tool } from "../../core/tool.ts";
import {
  type AstSearchData,
  AstSearchDataSchema,
  CompactAstSearchEnvelopeSchema,
} from "../../schema/ast_search.ts";
import { type QueryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { LLM_AST_SEARCH } from "../../schema/tool_names.ts";
import { astSearchCompact } from "./compact.ts";
import { AstSearchInput } from "./input.ts";
import { AST_SEARCH_CODE, runAstSearch } from "./run.ts";

export type { AstSearchInput } from "./input.ts";

/** Output schema of `llm-ast-search`. */
export const AstSearchEnvelopeSchema: z.ZodType<QueryEnvelope<AstSearchData | { count: 0 }>> =
  queryEnvelopeSchema(AstSearchDataSchema);

/**
 * The call that searches the files a parse limit stopped: the same query over them with the
 * limits that let them through (`data.limited`), the time a file may take kept within the
 * host's budget.
 */
const LIMITED_FILES: NextCall = {
  next(envelope, args, limits) {
    if (!("data" in envelope) || !("limited" in envelope.data)) return;
    const limited = (envelope.data as AstSearchData).limited;
    if (!limited) return;
    const { paths, file_timeout, ...raised } = limited;
    const timeout = file_timeout && Math.min(file_timeout, limits.timeoutMs);
    return { ...args, ...raised, ...(timeout ? { file_timeout: timeout } : {}), paths };
  },
};

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
  mcp: {
    description: "Search by syntax: definitions by kind and name, or a tree-sitter query, in " +
      "33 languages. Prefer it to grep when the match is a function, class or call, " +
      "not a line.",
    unlisted: [
      ...WALK_TUNING_FIELDS,
      ...RELATIONSHIP_FIELDS,
      "query_file",
      "max_columns",
      "max_parse_bytes",
      "max_parse_memory",
      "file_timeout",
      "threads",
      "with_semantics",
      "with_context",
      "context_lines",
      "with_checksums",
    ],
  },
  prefix: "LMA",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: AstSearchInput,
  output: AstSearchEnvelopeSchema,
  listKey: "matches",
  itemType: "match",
  text: AST_SEARCH_CODE.text,
  compact: { form: astSearchCompact, output: CompactAstSearchEnvelopeSchema },
  nextCall: LIMITED_FILES,
  cli: {
    usage: "[FLAGS] QUERY [PATH...]\n  llm-ast-search [FLAGS] --kind KIND [--name REGEX] [PATH...]",
    positionals: AST_SEARCH_CODE.positionals,
    examples: [
      "llm-ast-search --kind function --name '^parse' src/",
      "llm-ast-search -k class -k interface -S -l ts",
      "llm-ast-search '(call_expression function: (identifier) @f (#eq? @f \"eval\"))' -l js",
      "llm-ast-search --query-file unsafe.scm -l rust --with-context --context-lines 2",
      "llm-ast-search --kind function kernel/ --format text   # path:line:col:kind name",
      "deno run --allow-read=. jsr:@llm/search/ast-search --kind struct -l c",
    ],
  },
  run: runAstSearch,
});
