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
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/discover.json" with { type: "json" };
import { LLM_DISCOVER } from "../../schema/tool_names.ts";
import { DISCOVER_CODE } from "./run.ts";

export {
  discover,
  type DiscoverOptions,
  type DiscoverOutcome,
  type DiscoverWalkOptions,
} from "./engine.ts";
export type { CaseMode } from "../../core/fuzzy/query.ts";

/**
 * Runs `llm-discover` with `args` and returns the exit code. The command line is parsed, checked
 * and explained by the command's generated table, so no run loads zod.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runDiscoverCli } from "@llm/search/discover";
 * assert.equal(await runDiscoverCli(["--version"]), 0); // prints "llm-discover <version>"
 * ```
 */
export async function runDiscoverCli(args: string[]): Promise<number> {
  return await runCommand(tableOf(TABLES, LLM_DISCOVER), DISCOVER_CODE, args);
}

if (import.meta.main) Deno.exit(await runDiscoverCli(Deno.args));
