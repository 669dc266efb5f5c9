/**
 * The input schema of `llm-search` (which is also its flag set): the definition (`tool.ts`) takes
 * it, the run (`run.ts`) its type.
 *
 * @module
 */
import { z } from "zod";
import { walkInputShape } from "../../core/walk/walk_input.ts";
import { field } from "../../schema/fields.ts";
import { relationshipInputShape } from "../../core/symbol_index/relationship_input.ts";
import { SEARCH_DEFAULTS } from "./defaults.ts";

const count = z.number().int().nonnegative();

/** Input schema of `llm-search`. */
export const SearchInput = z.object({
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
      "Time budget in ms: patterns then run in linear time and stop when it passes; results so far are kept, partial is set and LMS-QRY-003 names the file being matched; backreferences are refused (LMS-QRY-004) [default: none; the MCP server passes one]",
    ),
    { aliases: ["timeout"] },
  ),
  resume_at: z.string().min(1).optional().describe(
    "Search only the files from this file_path on, in the walk's order: the rest of a search its time budget cut, whose resume_at names it [default: every file]",
  ),
});

/** Input of `llm-search`, as the engine receives it after defaults. */
export type SearchInput = z.output<typeof SearchInput>;
