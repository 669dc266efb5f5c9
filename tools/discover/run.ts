/**
 * What `llm-discover` runs once its input is checked, how its command line maps positionals,
 * and how its answer reads as text: shared by the definition (`tool.ts`, which loads zod) and by
 * the command line (`main.ts`, which does not).
 *
 * @module
 */
import type { CommandCode } from "../../core/cli_table.ts";
import type { PositionalMapper, RunContext, ToolOutcome } from "../../core/tool.ts";
import type { CompactForm } from "../../schema/compact.ts";
import { walkOptionsFrom } from "../../core/walk/walk_options.ts";
import type { DiscoverData } from "../../schema/discover.ts";
import { type Envelope, type QueryEnvelope, queryEnvelope } from "../../schema/envelope_build.ts";
import { LLM_DISCOVER } from "../../schema/tool_names.ts";
import { discover } from "./engine.ts";
import type { DiscoverInput } from "./input.ts";
import { discoverCompact } from "./compact.ts";

/**
 * The text form of an `llm-discover` answer: a line per result, score then path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryEnvelope } from "@llm/search/schema";
 * import { renderDiscoverText } from "./run.ts";
 * const results = [{ path: "src", kind: "dir", score: 0.5 }];
 * const answer = queryEnvelope("llm-discover", { count: 1, results }, []);
 * assert.equal(renderDiscoverText(answer), "0.5000  src/\n");
 * ```
 */
export function renderDiscoverText(answer: Envelope): string {
  // llm-discover answers with query envelopes of its own data only (runDiscover).
  const envelope = answer as QueryEnvelope<DiscoverData>;
  return (envelope.data.results ?? []).map((result) =>
    `${result.score.toFixed(4)}  ${result.path}${result.kind === "dir" ? "/" : ""}\n`
  ).join("");
}

/**
 * `llm-discover QUERY PATH…`: the first positional is the query unless `--query` gave it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { discoverPositionals } from "./run.ts";
 * assert.deepEqual(discoverPositionals(["walker", "src"], {}), { query: "walker", paths: ["src"] });
 * ```
 */
export const discoverPositionals: PositionalMapper = (positionals, flags) => {
  if (flags.query !== undefined) return { paths: positionals };
  const [query, ...paths] = positionals;
  return query === undefined ? {} : { query, paths };
};

/**
 * Runs `llm-discover` on a checked input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DiscoverInput } from "./input.ts";
 * import { runDiscover } from "./run.ts";
 * const input = DiscoverInput.parse({ query: "walker", limit: 0 }); // 0: list every result
 * const context = { executionId: crypto.randomUUID(), cwd: Deno.cwd() };
 * const { envelope } = await runDiscover(input, context);
 * assert.equal(envelope.status, "ok");
 * ```
 */
export async function runDiscover(input: DiscoverInput, context: RunContext): Promise<ToolOutcome> {
  const outcome = await discover({
    query: input.query,
    cwd: context.cwd,
    paths: input.paths,
    kind: input.kind,
    extensions: input.extension,
    limit: input.limit,
    caseMode: input.case,
    useIndex: !input.no_index,
    walk: { ...walkOptionsFrom(input, "LMD"), cache: context.cache },
    signal: context.signal,
  });
  return {
    envelope: queryEnvelope(LLM_DISCOVER, outcome.data, outcome.diagnostics, {
      partial: outcome.partial,
      executionId: context.executionId,
    }),
  };
}

/** `llm-discover` as its command line runs it (`main.ts`) and its definition declares it. */
export const DISCOVER_CODE: CommandCode<DiscoverInput> = {
  run: runDiscover,
  text: renderDiscoverText,
  positionals: discoverPositionals,
  compact: discoverCompact as CompactForm,
};
