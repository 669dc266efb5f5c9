/**
 * The floor of an indexed `llm-discover` on a tree: everything it does before it reads its first
 * path, and nothing after. It loads the tool's modules (as `tools/discover/main.ts` does), opens
 * and checks the repository index's listing, and has the walker check the stamp of every
 * recorded folder and ignore file, exactly as a run does; then it stops, without scoring a path
 * or writing an answer. The index bench runs it beside `llm-discover` and `fd | fzf`.
 *
 * Run: `deno run --allow-read bench/discover_floor.ts` in an indexed root; prints
 * `{"served":true}` when the listing served the walk.
 *
 * @module
 */
import "../tools/discover/main.ts";
import { indexWalkSource } from "../core/trigram/open.ts";
import type { IndexWalkSource } from "../core/trigram/walk_source.ts";
import { Walker } from "../core/walk/walker.ts";
import { LLM_DISCOVER } from "../schema/tool_names.ts";

if (import.meta.main) {
  const cwd = Deno.cwd();
  const cache = await indexWalkSource(cwd, LLM_DISCOVER, "LMD", []) as IndexWalkSource | undefined;
  // The walker takes the listing only once every stamp it recorded still holds.
  const walker = new Walker({ tool: LLM_DISCOVER, prefix: "LMD", cwd, cache, anyOrder: true });
  walker.listOrWalk();
  console.log(JSON.stringify({ served: cache?.served ?? false }));
}
