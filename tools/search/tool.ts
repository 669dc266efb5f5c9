/**
 * The `llm-search` tool definition: its input schema (which is also its flag set), its output
 * schema, and the run function that calls the engine.
 *
 * @module
 */
import { WALK_TUNING_FIELDS } from "../../core/walk/walk_input.ts";
import { RELATIONSHIP_FIELDS } from "../../core/symbol_index/relationship_input.ts";
import { z } from "zod";
import { defineTool, type NextCallLimits, type Tool } from "../../core/tool.ts";
import { type QueryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import {
  CompactSearchEnvelopeSchema,
  type SearchData,
  SearchDataSchema,
} from "../../schema/search.ts";
import { searchCompact } from "./compact.ts";
import { renderSearchText, runSearch, searchPositionals } from "./run.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { SearchInput } from "./input.ts";

export type { SearchInput } from "./input.ts";

/** Output schema of `llm-search`. */
export const SearchEnvelopeSchema: z.ZodType<QueryEnvelope<SearchData | { count: 0 }>> =
  queryEnvelopeSchema(
    SearchDataSchema,
  );

/**
 * The call that answers what a search its time budget cut lacks: the same search from the first
 * file it lacks (`resume_at`), with the host's whole budget when its own `timeout_ms` was
 * smaller. One that finished no file is the same search with the whole budget when it had less,
 * else none: only narrower paths get further.
 */
function nextSearch(
  envelope: QueryEnvelope<SearchData | { count: 0 }>,
  args: Record<string, unknown>,
  limits: NextCallLimits,
): Record<string, unknown> | undefined {
  if (!envelope.diagnostics.some((diagnostic) => diagnostic.code === "LMS-QRY-003")) return;
  const asked = args.timeout_ms;
  const budget = typeof asked === "number" && asked < limits.timeoutMs
    ? { timeout_ms: limits.timeoutMs }
    : undefined;
  const resumeAt = "resume_at" in envelope.data ? envelope.data.resume_at : undefined;
  if (resumeAt !== undefined) return { ...args, resume_at: resumeAt, ...budget };
  return budget && { ...args, ...budget };
}

/**
 * The `llm-search` tool.
 *
 * @example Run llm-search as a library call, input as the CLI would parse it
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchTool } from "@llm/search";
 * const { envelope } = await searchTool.execute(
 *   { patterns: ["TODO"], paths: ["."] },
 *   { executionId: crypto.randomUUID(), cwd: Deno.cwd() },
 * );
 * assert.equal(envelope.tool, "llm-search");
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
  mcp: {
    description: "Regex or text search, ripgrep style (.gitignore respected). Prefer it to the " +
      "client's grep: bounded, paged results with byte-exact spans that transform " +
      "edits take.",
    unlisted: [
      ...WALK_TUNING_FIELDS,
      ...RELATIONSHIP_FIELDS,
      "after_context",
      "before_context",
      "max_count",
      "max_columns",
      "threads",
      "no_index",
      "timeout_ms",
      "resume_at",
      "smart_case",
      "count",
      "multiline",
      "with_context",
      "context_lines",
      "with_checksums",
    ],
  },
  prefix: "LMS",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: SearchInput,
  output: SearchEnvelopeSchema,
  listKey: "matches",
  itemType: "match",
  text: renderSearchText,
  compact: { form: searchCompact, output: CompactSearchEnvelopeSchema },
  nextCall: { next: nextSearch },
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
