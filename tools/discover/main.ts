/**
 * `llm-discover`: fuzzy file finding (fd + fzf class) for agents, answered as ranked,
 * explained, deterministic JSON.
 *
 * ```sh
 * deno run --allow-read jsr:@llm/search/discover walker
 * ```
 *
 * @example
 * ```ts
 * import { discover } from "@llm/search/discover";
 * const { data } = await discover({ query: "schedcore", cwd: Deno.cwd(), limit: 3 });
 * for (const result of data.results) console.log(result.score, result.path, result.reason);
 * ```
 *
 * @module
 */
import { runFastOrFull } from "../../core/cli_entry.ts";
import { LLM_DISCOVER } from "../../schema/tool_names.ts";
import { discoverPositionals, renderDiscoverText, runDiscover } from "./run.ts";

export {
  discover,
  type DiscoverOptions,
  type DiscoverOutcome,
  type DiscoverWalkOptions,
} from "./engine.ts";
export type { CaseMode } from "./query.ts";

/**
 * Runs `llm-discover` with `args` and returns the exit code. A command line whose flags the
 * flag table can check runs without loading zod; anything else (`--help`, `--max-filesize`, a
 * refused flag) loads the definition (`tool.ts`, `discoverTool`) and takes the full path, with
 * the same answers.
 *
 * @example
 * ```ts
 * import { runDiscoverCli } from "@llm/search/discover";
 * typeof runDiscoverCli; // "function"
 * ```
 */
export async function runDiscoverCli(args: string[]): Promise<number> {
  const code = { run: runDiscover, text: renderDiscoverText, positionals: discoverPositionals };
  return await runFastOrFull(
    LLM_DISCOVER,
    code,
    args,
    async () => (await import("./tool.ts")).discoverTool,
  );
}

if (import.meta.main) Deno.exit(await runDiscoverCli(Deno.args));
