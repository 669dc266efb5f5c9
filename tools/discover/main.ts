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
import { runCli } from "../../core/cli.ts";
import { discoverTool } from "./tool.ts";

export {
  discover,
  type DiscoverOptions,
  type DiscoverOutcome,
  type DiscoverWalkOptions,
} from "./engine.ts";
export type { CaseMode } from "./query.ts";
export { discoverTool } from "./tool.ts";

if (import.meta.main) Deno.exit(await runCli(discoverTool, Deno.args));
