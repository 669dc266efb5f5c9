/**
 * The `counts` and `files` modes agree with the matches they summarise: over generated patterns
 * and files (every line break, multiline matches, empty matches, `-m`), each file's count of
 * matches and of lines is that of the `matches` mode (the lines its matches start on), and the
 * files listed are those with a match. Counting takes no line index, so this is its proof.
 */
import assert from "node:assert/strict";
import { search, type SearchOptions } from "../tools/search/engine.ts";
import { ToolError } from "../schema/diagnostic.ts";
import { Random, randomFlags, randomPattern, randomTree } from "./search_regex_gen.ts";

const CASES = Number(Deno.env.get("COUNTS_CASES") ?? 300);

/** Per file, `lines/matches` as the `matches` mode shows them; "error" for a refused pattern. */
async function fromMatches(options: SearchOptions): Promise<string> {
  try {
    const { data } = await search({ ...options, mode: "matches" });
    const byFile = new Map<string, { lines: Set<number>; matches: number }>();
    for (const { span } of data.matches) {
      const file = byFile.get(span.file_path) ?? { lines: new Set(), matches: 0 };
      file.lines.add(span.start_line);
      file.matches++;
      byFile.set(span.file_path, file);
    }
    return [...byFile].map(([path, { lines, matches }]) => `${path} ${lines.size}/${matches}`)
      .sort().join("\n");
  } catch (error) {
    if (error instanceof ToolError) return "error";
    throw error;
  }
}

/** The same from the `counts` mode, and the files of the `files` mode. */
async function fromCounts(options: SearchOptions): Promise<[string, string]> {
  try {
    const counted = await search({ ...options, mode: "counts" });
    const listed = await search({ ...options, mode: "files" });
    return [
      (counted.data.counts ?? []).map((count) =>
        `${count.file_path} ${count.lines}/${count.matches}`
      )
        .sort().join("\n"),
      [...listed.data.files ?? []].sort().join("\n"),
    ];
  } catch (error) {
    if (error instanceof ToolError) return ["error", "error"];
    throw error;
  }
}

Deno.test("counts and files modes summarise the matches mode exactly", async () => {
  const random = new Random(2611);
  const roots = [await randomTree(random, 6, true), await randomTree(random, 6, false)];
  let counted = 0;
  try {
    for (let i = 0; i < CASES; i++) {
      const nonAscii = random.chance(0.5);
      const flags = randomFlags(random, 0.25);
      const dialect = { javascriptOnly: false, nonAscii, newline: !!flags.multiline };
      const patterns = Array.from(
        { length: random.chance(0.2) ? 2 : 1 },
        () => randomPattern(random, dialect),
      );
      const options: SearchOptions = {
        ...flags,
        patterns,
        cwd: roots[nonAscii ? 0 : 1],
        limit: 0,
        threads: 1,
        maxCount: random.chance(0.2) ? 1 + random.int(2) : undefined,
      };
      const expected = await fromMatches(options);
      const [counts, files] = await fromCounts(options);
      const label = `case ${i}: ${JSON.stringify({ patterns, flags, max: options.maxCount })}`;
      assert.equal(counts, expected, label);
      if (expected === "error") continue;
      const withMatches = expected.split("\n").filter(Boolean).map((line) => line.split(" ")[0]);
      assert.equal(files, withMatches.join("\n"), label);
      if (expected !== "") counted++;
    }
  } finally {
    for (const root of roots) await Deno.remove(root, { recursive: true });
  }
  assert.ok(counted > CASES * 0.3, `only ${counted} cases had a match`);
});

Deno.test("counting the matches of one long line reads it once", async () => {
  const root = await Deno.makeTempDir();
  try {
    // A 2 MB line holding 200,000 matches, then a short one: a newline looked for from each
    // match would read 200 GB.
    await Deno.writeTextFile(`${root}/long.txt`, "x_________".repeat(200_000) + "\nx\n");
    const started = performance.now();
    const { data } = await search({ patterns: ["x"], cwd: root, mode: "counts", threads: 1 });
    const took = performance.now() - started;
    assert.deepEqual(data.counts, [{ file_path: "long.txt", lines: 2, matches: 200_001 }]);
    assert.ok(took < 5_000, `counting took ${took.toFixed(0)} ms`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
