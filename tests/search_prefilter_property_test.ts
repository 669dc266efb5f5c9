/**
 * The literal prefilter is sound: for thousands of generated patterns (every escape form,
 * classes, groups, alternations, quantifiers, lookarounds, backreferences, non-ASCII case
 * folding) and flags (-i -S -w -F -U, several -e), a search with the prefilter finds exactly
 * the matches of the same search without it. The binary probe run on the same scan calls a file
 * binary exactly when `isBinary` does.
 */
import assert from "node:assert/strict";
import { search, type SearchOptions } from "../tools/search/engine.ts";
import { ToolError } from "../schema/diagnostic.ts";
import { isBinary } from "../core/walk/binary.ts";
import { LiteralPrefilter } from "../tools/search/prefilter.ts";
import {
  Random,
  randomFlags,
  randomPattern,
  randomTree,
  type SearchFlags,
} from "./search_regex_gen.ts";

const PATTERNS = Number(Deno.env.get("PROPERTY_PATTERNS") ?? 2000);

type Flags = SearchFlags;

/** The match set of a search as sorted `file start end` keys, or the error code it refused with. */
async function matchSet(options: SearchOptions): Promise<string[] | string> {
  try {
    const result = await search({ ...options, limit: 0, threads: 1 });
    return result.data.matches.map((match) =>
      `${match.span.file_path} ${match.span.byte_start} ${match.span.byte_end}`
    ).sort();
  } catch (error) {
    if (error instanceof ToolError) return error.code;
    throw error;
  }
}

Deno.test("prefilter soundness: generated patterns find the same matches with and without it", async () => {
  const random = new Random(20261123);
  const root = await randomTree(random, 10, true);
  let compared = 0;
  let matched = 0;
  try {
    for (let i = 0; i < PATTERNS; i++) {
      const flags = randomFlags(random, 0.3);
      const dialect = { javascriptOnly: true, nonAscii: true, newline: !!flags.multiline };
      const patterns = Array.from(
        { length: random.chance(0.2) ? 2 : 1 },
        () => randomPattern(random, dialect),
      );
      const options: SearchOptions = { ...flags, patterns, cwd: root };
      const withPrefilter = await matchSet(options);
      const without = await matchSet({ ...options, prefilter: false });
      assert.deepEqual(withPrefilter, without, `case ${i}: ${JSON.stringify({ patterns, flags })}`);
      if (typeof without !== "string") {
        compared++;
        if (without.length > 0) matched++;
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  // The generator must exercise the prefilter, not only refused patterns or empty results.
  assert.ok(compared > PATTERNS * 0.8, `only ${compared} patterns compiled`);
  assert.ok(matched > PATTERNS * 0.25, `only ${matched} patterns matched anything`);
});

Deno.test("only k and s among ASCII letters fold with a non-ASCII character (the scan folds ASCII)", () => {
  const folding: string[] = [];
  const asciiLetter = /[A-Za-z]/iu;
  for (let code = 0x80; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    if (asciiLetter.test(String.fromCodePoint(code))) folding.push(String.fromCodePoint(code));
  }
  assert.deepEqual(folding, ["\u017f", "\u212a"]);
  assert.ok(/s/iu.test("\u017f") && /k/iu.test("\u212a"));
});

Deno.test("binary probe: the scan of the read bytes calls a file binary exactly when isBinary does", () => {
  const random = new Random(20261127);
  const prefilter = new LiteralPrefilter(["x"], false);
  // Lengths around the vector width and the probe's end; NULs before, at and after its end.
  const lengths = [0, 1, 31, 32, 33, 63, 8191, 8192, 8193, 12000];
  let binary = 0;
  for (let run = 0; run < 3000; run++) {
    const length = random.chance(0.5) ? random.pick(lengths) : random.int(12000);
    const view = prefilter.buffer(length);
    for (let at = 0; at < length; at++) view[at] = 1 + random.int(255);
    const nuls = random.int(3);
    for (let n = 0; n < nuls && length > 0; n++) {
      const near = random.pick([0, length - 1, 8191, 8192, random.int(length)]);
      view[Math.min(near, length - 1)] = 0;
    }
    const bytes = view.subarray(0, length);
    const expected = isBinary(bytes);
    if (expected) binary++;
    assert.equal(prefilter.isBinary(bytes), expected, `length ${length}`);
    // A copy outside the scan memory takes isBinary's own path.
    assert.equal(prefilter.isBinary(bytes.slice()), expected);
  }
  assert.ok(binary > 500 && binary < 2500, `${binary} of 3000 binary`);
});
