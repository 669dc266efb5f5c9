/**
 * The `llm-discover` tool definition: its input schema (which is also its flag set), its
 * output schema, and the run function that calls the engine.
 *
 * @module
 */
import { WALK_TUNING_FIELDS } from "../../core/walk/walk_input.ts";
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import {
  CompactDiscoverEnvelopeSchema,
  type DiscoverData,
  DiscoverDataSchema,
} from "../../schema/discover.ts";
import { discoverCompact } from "./compact.ts";
import { type QueryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { discoverPositionals, renderDiscoverText, runDiscover } from "./run.ts";
import { LLM_DISCOVER } from "../../schema/tool_names.ts";
import { DiscoverInput } from "./input.ts";

export type { DiscoverInput } from "./input.ts";

/** Output schema of `llm-discover`. */
export const DiscoverEnvelopeSchema: z.ZodType<QueryEnvelope<DiscoverData | { count: 0 }>> =
  queryEnvelopeSchema(DiscoverDataSchema);

/**
 * The `llm-discover` tool.
 *
 * @example Validate input and run llm-discover
 * ```ts
 * import assert from "node:assert/strict";
 * import { discoverTool } from "@llm/search";
 * const { envelope } = await discoverTool.execute(
 *   { query: "walker" },
 *   { executionId: crypto.randomUUID(), cwd: Deno.cwd() },
 * );
 * assert.equal(envelope.status, "ok");
 * ```
 */
export const discoverTool: Tool = defineTool({
  name: LLM_DISCOVER,
  mcpName: "discover",
  title: "Fuzzy file finding",
  description:
    "Find files (or directories) by fuzzy name, the way fd piped into fzf does, answered as " +
    "ranked JSON: fzf's V2 scoring with its path scheme, a preference for basename and exact-name " +
    "matches, and fzf's extended syntax (space-separated terms all match; 'exact, 'word', " +
    "^prefix, suffix$, !negation, a | b). Each result has a 0..1 score, the raw score, a reason " +
    "and the matched UTF-8 byte positions; ties break by path. Respects .gitignore and skips " +
    "hidden files. Use it to locate a file when you know roughly its name.",
  example: { query: "walker .ts$", paths: ["src"], limit: 5 },
  mcp: {
    description: "Find files by fuzzy name (fzf scoring), ranked. Prefer it to listing " +
      "directories when you know roughly a file's name.",
    unlisted: [
      ...WALK_TUNING_FIELDS,
      "no_index",
      "case",
      "type",
      "glob",
    ],
  },
  prefix: "LMD",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: DiscoverInput,
  output: DiscoverEnvelopeSchema,
  listKey: "results",
  itemType: "result",
  text: renderDiscoverText,
  compact: { form: discoverCompact, output: CompactDiscoverEnvelopeSchema },
  cli: {
    usage: "[FLAGS] [QUERY] [PATH...]",
    positionals: discoverPositionals,
    examples: [
      "llm-discover walker",
      "llm-discover schedcore ~/src/linux --limit 5",
      'llm-discover "^core .ts$ !test"',
      "llm-discover -e md readme",
      "llm-discover --kind dir tools",
      "llm-discover '' src/ --limit 0   # list every file under src/, in path order",
      "deno run --allow-read=. jsr:@llm/search/discover walker",
    ],
  },
  run: runDiscover,
});
