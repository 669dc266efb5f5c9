/**
 * What `llm-discover` runs once its input is checked, how its command line maps positionals,
 * and how its answer reads as text: shared by the definition (`tool.ts`, which loads zod) and by
 * the command line's fast path (`main.ts`, which does not).
 *
 * @module
 */
import type { PositionalMapper, RunContext, ToolOutcome } from "../../core/tool.ts";
import { walkOptionsFrom } from "../../core/walk/walk_options.ts";
import type { DiscoverData } from "../../schema/discover.ts";
import { type Envelope, type QueryEnvelope, queryEnvelope } from "../../schema/envelope_build.ts";
import { LLM_DISCOVER } from "../../schema/tool_names.ts";
import { discover } from "./engine.ts";
import type { DiscoverInput } from "./input.ts";

/**
 * The text form of an `llm-discover` answer: a line per result, score then path.
 *
 * @example
 * ```ts
 * import { renderDiscoverText } from "./run.ts";
 * typeof renderDiscoverText; // "function"
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
 * import { discoverPositionals } from "./run.ts";
 * discoverPositionals(["walker", "src"], {}); // { query: "walker", paths: ["src"] }
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
 * import { runDiscover } from "./run.ts";
 * typeof runDiscover; // "function"
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
