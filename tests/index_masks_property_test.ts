/**
 * The posting masks (offset mod 8, next byte) and units (pieces of a file, tiny ones here so
 * that literals straddle them) rule files out soundly: over generated files and
 * literals, a file the index does not list as a candidate never holds any of the literals
 * (compared ignoring ASCII case when asked), for literals cut from the files or made of their
 * pieces, with regex metacharacters, multi-byte UTF-8, three-byte literals (one trigram, no
 * next byte) and several literals at once (an alternation's). The masks must also rule out
 * files that hold every trigram of a literal but not the literal, or they prove nothing. An
 * index used for many literals (which keeps the masks it decoded) answers as a fresh one does.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { ENTRY_FLAGS } from "../core/trigram/format.ts";
import { TrigramIndex } from "../core/trigram/reader.ts";
import { Random } from "./search_regex_gen.ts";
import { makeTree } from "./helpers.ts";

const ROUNDS = Number(Deno.env.get("INDEX_MASKS_ROUNDS") ?? 6);
const FILES_PER_ROUND = 60;
const LITERALS_PER_ROUND = 150;
/** Pieces sharing many trigrams at different places, so that masks have work to do. */
const PIECES = ["ab", "abc", "bcd", "cd", "x", "A", "BC", "(", ").", "*|", "é", "Ωω", "\n", "a"];
/** An hour ago: files this old are neither racy nor changed since the build. */
const PAST = Date.now() / 1000 - 3600;

const encoder = new TextEncoder();

function randomText(random: Random, pieces: number): string {
  return Array.from({ length: pieces }, () => random.pick(PIECES)).join("");
}

/** A literal cut from a file (case flipped at random), or made of pieces. */
function randomLiteral(random: Random, files: string[]): string {
  if (random.chance(0.3)) return randomText(random, 1 + random.int(5));
  const text = random.pick(files);
  const start = random.int(Math.max(1, text.length - 3));
  const cut = text.slice(start, start + 3 + random.int(10));
  return random.chance(0.3) ? flipAsciiCase(cut) : cut;
}

function flipAsciiCase(text: string): string {
  return text.replace(
    /[a-zA-Z]/g,
    (char) => char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase(),
  );
}

/** `bytes` with ASCII letters lower-cased. */
function foldAscii(bytes: Uint8Array): Uint8Array {
  return bytes.map((byte) => byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte);
}

function holds(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let at = 0; at + needle.length <= haystack.length; at++) {
    for (let i = 0; i < needle.length; i++) if (haystack[at + i] !== needle[i]) continue outer;
    return true;
  }
  return false;
}

/** Whether `content` holds every trigram of `literal` (the pre-mask candidate rule). */
function holdsEveryTrigram(content: Uint8Array, literal: Uint8Array): boolean {
  for (let i = 0; i + 3 <= literal.length; i++) {
    if (!holds(content, literal.subarray(i, i + 3))) return false;
  }
  return true;
}

/** Unit sizes of the rounds: the default, and some that cut the generated files. */
const UNIT_SIZES = [undefined, 1, 5, 16];

/** An indexed tree of `files` (aged, so every file has trusted postings) and its index. */
async function indexedTree(files: string[], unitBytes?: number): Promise<[string, TrigramIndex]> {
  const tree = Object.fromEntries(files.map((text, i) => [`f${i}.txt`, text]));
  const root = await makeTree(tree);
  for (const path of [...Object.keys(tree), "."]) Deno.utimeSync(join(root, path), PAST, PAST);
  Deno.mkdirSync(join(root, ".llm"));
  buildTrigramIndex({ root, unitBytes });
  return [root, TrigramIndex.open(join(root, ".llm", "trigram.idx"))];
}

Deno.test("posting masks never rule out a file holding a literal, and do rule files out", async () => {
  let ruledOutByMasks = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const random = new Random(1700 + round);
    const files = Array.from(
      { length: FILES_PER_ROUND },
      () => randomText(random, random.int(40)),
    );
    const [root, index] = await indexedTree(files, UNIT_SIZES[round % UNIT_SIZES.length]);
    try {
      const contents = index.paths.map((path, id) =>
        index.arrays.flags[id] & ENTRY_FLAGS.dir
          ? new Uint8Array(0)
          : Deno.readFileSync(join(root, path))
      );
      for (let n = 0; n < LITERALS_PER_ROUND; n++) {
        const ignoreCase = random.chance(0.4);
        const literals = Array.from(
          { length: random.chance(0.2) ? 2 : 1 },
          () => randomLiteral(random, files),
        );
        const needles = literals.map((literal) => {
          const bytes = encoder.encode(literal);
          return ignoreCase ? foldAscii(bytes) : bytes;
        });
        const candidates = index.candidates(literals, ignoreCase);
        // The index keeps the masks of trigrams it read for later literals: a fresh one, which
        // decodes every list anew, must give the same candidates.
        const fresh = TrigramIndex.open(join(root, ".llm", "trigram.idx"));
        try {
          assert.deepEqual(candidates, fresh.candidates(literals, ignoreCase));
        } finally {
          fresh.close();
        }
        if (needles.some((needle) => needle.length < 3)) {
          assert.equal(candidates, undefined, `literals ${JSON.stringify(literals)}`);
          continue;
        }
        assert.ok(candidates);
        contents.forEach((content, id) => {
          const haystack = ignoreCase ? foldAscii(content) : content;
          const matches = needles.some((needle) => holds(haystack, needle));
          if (matches) {
            assert.equal(
              candidates[id],
              1,
              `${index.paths[id]} holds ${JSON.stringify(literals)} (ignore case: ${ignoreCase}, ` +
                `round ${round})`,
            );
          } else if (
            candidates[id] === 0 && needles.some((needle) => holdsEveryTrigram(haystack, needle))
          ) ruledOutByMasks++;
        });
      }
    } finally {
      index.close();
      Deno.removeSync(root, { recursive: true });
    }
  }
  assert.ok(ruledOutByMasks > 0, "the masks never ruled out a file holding every trigram");
});

Deno.test("a trigram followed by another byte, or at another alignment, does not make a candidate", async () => {
  // f0 holds "abc" and "bcd" but never "abcd"; f1 holds "abcd".
  const [root, index] = await indexedTree(["abcX bcd\n", "xx abcd\n"]);
  try {
    const ids = ["f0.txt", "f1.txt"].map((path) => index.idOf(path)!);
    const candidates = index.candidates(["abcd"], false)!;
    assert.deepEqual(ids.map((id) => candidates[id]), [0, 1]);
    // Case ignored: "ABCD" is held by f1 only, up to case.
    const folded = index.candidates(["ABCD"], true)!;
    assert.deepEqual(ids.map((id) => folded[id]), [0, 1]);
  } finally {
    index.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("trigrams an occurrence would have, but far apart in a large file, do not make it a candidate", async () => {
  // "abcdef" is not in f0, yet each of its trigrams is, followed by its next byte and at its
  // alignment: "abc" at 0 and "bcd" at 1 (in "abcdeZ"), "cde" at 66 and "def" at 67.
  const file = "abcdeZ" + ".".repeat(60) + "cdef\n";
  for (const [unitBytes, candidate] of [[undefined, 1], [16, 0]] as const) {
    const [root, index] = await indexedTree([file, "xx abcdef\n"], unitBytes);
    try {
      const ids = ["f0.txt", "f1.txt"].map((path) => index.idOf(path)!);
      const candidates = index.candidates(["abcdef"], false)!;
      assert.deepEqual(ids.map((id) => candidates[id]), [candidate, 1], `units of ${unitBytes}`);
    } finally {
      index.close();
      Deno.removeSync(root, { recursive: true });
    }
  }
});

Deno.test("a unit size that is not a whole number of bytes is refused before anything is written", async () => {
  const root = await makeTree({ "a.txt": "abcd\n" });
  try {
    for (const unitBytes of [0, -1, 1.5, NaN]) {
      assert.throws(() => buildTrigramIndex({ root, unitBytes }), RangeError, `${unitBytes}`);
    }
    assert.throws(() => Deno.statSync(join(root, ".llm")), Deno.errors.NotFound);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
