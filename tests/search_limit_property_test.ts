/**
 * A search cut by `--limit` answers what the whole search answers, cut: over generated patterns,
 * flags and files, on the calling thread and on workers, its listed matches are the first
 * `limit` of the whole search's, and its counts (`match_count`, `files_matched`,
 * `files_searched`, `total`) are the whole search's. Past a full listing the files are searched
 * for counts only (their matches are never made), so this is that shortcut's proof.
 */
import assert from "node:assert/strict";
import { search, type SearchOptions } from "../tools/search/engine.ts";
import { ToolError } from "../schema/diagnostic.ts";
import type { SearchData, SearchMatch } from "../schema/search.ts";
import { Random, randomFlags, randomPattern, randomTree } from "./search_regex_gen.ts";

const CASES = Number(Deno.env.get("LIMIT_CASES") ?? 120);

/** A search's data with its matches' random ids left out. */
type Answer = Omit<SearchData, "matches"> & { matches: Omit<SearchMatch, "match_id">[] };

/** The answer of a search, or "error" for a refused pattern. */
async function answer(options: SearchOptions): Promise<Answer | "error"> {
  try {
    const { data } = await search(options);
    return { ...data, matches: data.matches.map(({ match_id: _, ...match }) => match) };
  } catch (error) {
    if (error instanceof ToolError) return "error";
    throw error;
  }
}

Deno.test("a search cut by its limit lists the first matches and counts all of them", async () => {
  const random = new Random(2711);
  // Past 400 files (INLINE_FILES) a search with two threads hands batches to workers, and past
  // the six batches it first hands out, those it hands out later may be for counts only.
  const small = await randomTree(random, 8, true);
  const large = await randomTree(random, 2000, false);
  let cut = 0;
  try {
    for (let i = 0; i < CASES; i++) {
      // A few files on the calling thread; 2,000 there (batches after the first 400); on workers.
      const where = random.pick(["small", "inline", "workers"] as const);
      const flags = randomFlags(random, 0.25);
      const nonAscii = where === "small";
      const dialect = { javascriptOnly: false, nonAscii, newline: !!flags.multiline };
      const options: SearchOptions = {
        ...flags,
        patterns: [randomPattern(random, dialect)],
        cwd: where === "small" ? small : large,
        threads: where === "workers" ? 2 : 1,
        inlineMs: where === "workers" ? 0 : undefined,
        maxCount: random.chance(0.2) ? 1 + random.int(2) : undefined,
        before: random.chance(0.2) ? 1 : 0,
      };
      const whole = await answer({ ...options, limit: 0 });
      const label = `case ${i} (${where}): ${JSON.stringify({ ...options, cwd: undefined })}`;
      if (whole === "error" || whole.match_count < 2) continue;
      const limit = 1 + random.int(whole.match_count - 1);
      const part = await answer({ ...options, limit });
      assert.notEqual(part, "error", label);
      if (part === "error") continue;
      assert.deepEqual(part.matches, whole.matches.slice(0, limit), label);
      assert.equal(part.count, limit, label);
      assert.equal(part.total, whole.match_count, label);
      for (const key of ["match_count", "files_matched", "files_searched"] as const) {
        assert.equal(part[key], whole[key], `${label}: ${key}`);
      }
      cut++;
    }
  } finally {
    for (const root of [small, large]) await Deno.remove(root, { recursive: true });
  }
  assert.ok(cut > CASES * 0.3, `only ${cut} cases were cut`);
});
