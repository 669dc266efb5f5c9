/**
 * The `llm-search` tool definition: its input schema (which is also its flag set), its output
 * schema, and the run function that calls the engine.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { walkInputShape } from "../../core/walk/walk_input.ts";
import { type QueryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { field } from "../../schema/fields.ts";
import { relationshipInputShape } from "../symbols/relationship_input.ts";
import { type SearchData, SearchDataSchema } from "../../schema/search.ts";
import { renderSearchText, runSearch, searchPositionals } from "./run.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { SEARCH_DEFAULTS } from "./defaults.ts";

const count = z.number().int().nonnegative();

const SearchInput = z.object({
  patterns: field(
    z.array(z.string()).default([]).describe(
      "Patterns (JavaScript regular expressions); a match of any is a match. On the command line, the first positional argument unless -e is given",
    ),
    { short: "e", aliases: ["regexp", "pattern", "regex"] },
  ),
  paths: field(
    z.array(z.string()).default([]).describe("Files or directories to search [default: the root]"),
    { path: true, aliases: ["path"] },
  ),
  fixed_strings: field(z.boolean().default(false).describe("Treat patterns as literal text"), {
    short: "F",
  }),
  ignore_case: field(z.boolean().default(false).describe("Match case-insensitively"), {
    short: "i",
  }),
  smart_case: field(
    z.boolean().default(false).describe(
      "Case-insensitive unless a pattern has an upper-case letter",
    ),
    { short: "S" },
  ),
  word_regexp: field(
    z.boolean().default(false).describe("Only matches surrounded by word boundaries"),
    { short: "w" },
  ),
  multiline: field(z.boolean().default(false).describe("Let matches span lines"), { short: "U" }),
  max_count: field(count.optional().describe("Stop after N matching lines per file"), {
    short: "m",
  }),
  limit: count.default(SEARCH_DEFAULTS.limit).describe(
    "Results to list, 0 for all; cut results set partial and total",
  ),
  after_context: field(count.optional().describe("Lines of context after each match"), {
    short: "A",
  }),
  before_context: field(count.optional().describe("Lines of context before each match"), {
    short: "B",
  }),
  context: field(count.optional().describe("Lines of context before and after each match"), {
    short: "C",
  }),
  with_context: z.boolean().default(false).describe("Add context lines (context_lines of them)"),
  context_lines: count.default(SEARCH_DEFAULTS.contextLines).describe(
    "Context lines for with_context",
  ),
  files_with_matches: field(
    z.boolean().default(false).describe("List files with matches instead of matches"),
    { short: "l" },
  ),
  count: field(
    z.boolean().default(false).describe("List per-file counts (matching lines and matches)"),
    { short: "c" },
  ),
  max_columns: field(
    count.default(SEARCH_DEFAULTS.maxColumns).describe(
      "Cut line text longer than N bytes (a window around the match)",
    ),
    { short: "M" },
  ),
  ...relationshipInputShape,
  ...walkInputShape,
  with_checksums: z.boolean().default(false).describe(
    "Add span and file sha256 checksums to matches",
  ),
  threads: field(
    z.number().int().positive().max(1024).optional().describe(
      "Worker threads [default: CPU count]",
    ),
    { short: "j" },
  ),
  no_index: z.boolean().default(false).describe(
    "Do not use the repository index (.llm/trigram.idx from `llm-symbols index`); scan the files. Results are the same either way",
  ),
  timeout_ms: field(
    z.number().int().positive().max(2 ** 31 - 1).optional().describe(
      "Time budget in ms: matching runs in worker threads stopped when it passes; results so far are kept, partial is set and LMS-QRY-003 names the file being matched [default: none; the MCP server passes one]",
    ),
    { aliases: ["timeout"] },
  ),
});

/** Input of `llm-search`, as the engine receives it after defaults. */
export type SearchInput = z.output<typeof SearchInput>;

/** Output schema of `llm-search`. */
export const SearchEnvelopeSchema: z.ZodType<QueryEnvelope<SearchData | { count: 0 }>> =
  queryEnvelopeSchema(
    SearchDataSchema,
  );

/**
 * The `llm-search` tool.
 *
 * @example Run llm-search as a library call, input as the CLI would parse it
 * ```ts
 * import { searchTool } from "@llm/search";
 * const { envelope } = await searchTool.execute(
 *   { patterns: ["TODO"], paths: ["."] },
 *   { executionId: crypto.randomUUID(), cwd: Deno.cwd() },
 * );
 * envelope.tool; // "llm-search"
 * ```
 */
export const searchTool: Tool = defineTool({
  name: LLM_SEARCH,
  mcpName: "search",
  title: "Structured text search",
  description:
    "Search file contents with JavaScript regular expressions, ripgrep style: respects .gitignore, " +
    "skips hidden and binary files, and answers with byte-exact spans (file_path, byte offsets, " +
    "1-based lines, 0-based byte columns), stable span ids and optional checksums, sorted by file " +
    "and offset. Use it to find code by text before reading or editing it.",
  example: { patterns: ["fn\\s+main"], paths: ["src"], glob: ["*.rs"] },
  prefix: "LMS",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: SearchInput,
  output: SearchEnvelopeSchema,
  listKey: "matches",
  itemType: "match",
  text: renderSearchText,
  cli: {
    usage: "[FLAGS] PATTERN [PATH...]\n  llm-search [FLAGS] -e PATTERN... [PATH...]",
    positionals: searchPositionals,
    examples: [
      "llm-search 'fn\\s+main' src/",
      "llm-search -F -w TODO -t ts --limit 20",
      "llm-search -e PM_RESUME -e PM_SUSPEND -c",
      "llm-search -U 'struct \\w+ \\{[^}]*\\}' --format jsonl",
      "llm-search parse --format text   # path:line:col:text, col 1-based like rg --vimgrep",
      "deno run --allow-read=. jsr:@llm/search 'class \\w+'",
    ],
  },
  run: runSearch,
});
