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
 * import assert from "node:assert/strict";
 * import { discover } from "@llm/search/discover";
 * const { data } = await discover({ query: "walker", cwd: Deno.cwd(), limit: 3 });
 * assert.ok(data.results.length <= 3);
 * for (const result of data.results) assert.ok(result.score > 0 && result.score <= 1, result.path);
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
export type { CaseMode } from "../../core/fuzzy/query.ts";

/**
 * Runs `llm-discover` with `args` and returns the exit code. A command line whose flags the
 * flag table can check runs without loading zod; anything else (`--help`, `--max-filesize`, a
 * refused flag) loads the definition (`tool.ts`, `discoverTool`) and takes the full path, with
 * the same answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runDiscoverCli } from "@llm/search/discover";
 * assert.equal(await runDiscoverCli(["--version"]), 0); // prints "llm-discover <version>"
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
