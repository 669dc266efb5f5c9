/**
 * The `llm-discover` tool definition: its input schema (which is also its flag set), its
 * output schema, and the run function that calls the engine.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { type DiscoverData, DiscoverDataSchema } from "../../schema/discover.ts";
import { type QueryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { field } from "../../schema/fields.ts";
import { walkInputShape } from "../../core/walk/walk_input.ts";
import { discoverPositionals, renderDiscoverText, runDiscover } from "./run.ts";
import { LLM_DISCOVER } from "../../schema/tool_names.ts";
import { DISCOVER_DEFAULTS } from "./defaults.ts";

const count = z.number().int().nonnegative();

const DiscoverInput = z.object({
  query: field(
    z.string().default("").describe(
      "fzf extended-syntax query (the first positional argument); empty lists paths in path order",
    ),
    { aliases: ["pattern"] },
  ),
  paths: field(
    z.array(z.string()).default([]).describe("Files or directories to walk [default: the root]"),
    { path: true, aliases: ["path"] },
  ),
  kind: z.enum(["file", "dir"]).default("file").describe("Find files or directories"),
  extension: field(
    z.array(z.string().min(1)).default([]).describe(
      "Only names with this extension (case-insensitive, e.g. ts); repeat for several",
    ),
    { short: "e", aliases: ["extensions", "ext"] },
  ),
  limit: field(
    count.default(DISCOVER_DEFAULTS.limit).describe(
      "Results to list, 0 for all; cut results set partial and total",
    ),
    { short: "n" },
  ),
  case: z.enum(["smart", "sensitive", "insensitive"]).default("smart").describe(
    "Case rule: smart (a term with an upper-case letter is case-sensitive, like fzf)",
  ),
  ...walkInputShape,
  hidden: field(walkInputShape.hidden.clone(), { short: "H" }),
  no_ignore: field(walkInputShape.no_ignore.clone(), { short: "I" }),
});

/** Input of `llm-discover`, as the engine receives it after defaults. */
export type DiscoverInput = z.output<typeof DiscoverInput>;

/** Output schema of `llm-discover`. */
export const DiscoverEnvelopeSchema: z.ZodType<QueryEnvelope<DiscoverData | { count: 0 }>> =
  queryEnvelopeSchema(DiscoverDataSchema);

/**
 * The `llm-discover` tool.
 *
 * @example Validate input and run llm-discover
 * ```ts
 * import { discoverTool } from "@llm/search";
 * const { envelope } = await discoverTool.execute(
 *   { query: "walker" },
 *   { executionId: crypto.randomUUID(), cwd: Deno.cwd() },
 * );
 * envelope.status; // "ok"
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
  prefix: "LMD",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: DiscoverInput,
  output: DiscoverEnvelopeSchema,
  listKey: "results",
  itemType: "result",
  text: renderDiscoverText,
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
