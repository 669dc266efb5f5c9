/**
 * The input schema of `llm-ast-search` (which is also its flag set): the definition (`tool.ts`)
 * takes it, the run (`run.ts`) its type.
 *
 * @module
 */
import { z } from "zod";
import { SYMBOL_KINDS } from "../../schema/ast_search.ts";
import { field } from "../../schema/fields.ts";
import { relationshipInputShape } from "../../core/symbol_index/relationship_input.ts";
import { walkInputShape } from "../../core/walk/walk_input.ts";
import { DEFAULT_PARSE_LIMITS } from "./file_search.ts";
import { AST_SEARCH_DEFAULTS } from "./defaults.ts";

/** Bytes in a MiB: `max_parse_memory` is given in MiB. */
export const MIB = 1024 * 1024;

const count = z.number().int().nonnegative();

/** Input schema of `llm-ast-search`. */
export const AstSearchInput = z.object({
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
