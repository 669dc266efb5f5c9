import assert from "node:assert/strict";
import { closestLine } from "./replace.ts";

/** Dice coefficient of two texts' bigram multisets, computed plainly: the oracle. */
function plainDice(a: string, b: string): number {
  if (a.length < 2 || b.length < 2) return 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const pair = a.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const pair = b.slice(i, i + 2);
    const left = counts.get(pair) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(pair, left - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

/** The closest line by scoring every line with {@linkcode plainDice}: the plain path. */
function plainClosest(text: string, wanted: string) {
  const probe = wanted.split("\n").map((line) => line.trim()).find((line) => line.length > 0);
  if (!probe) return undefined;
  let best: { line: number; similarity: number } | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line.length > 1000) return;
    const similarity = line === probe ? 1 : plainDice(probe, line);
    if (similarity > (best?.similarity ?? 0)) best = { line: i + 1, similarity };
  });
  return best;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

Deno.test("closestLine picks the line and similarity the plain Dice scan picks, on generated texts", () => {
  const random = seeded(7);
  // Few distinct characters (with a surrogate pair and a CR) so that bigrams repeat and collide.
  const alphabet = ["a", "b", "c", "ab", " ", "_", "(", "é", "😀", "\r", "x".repeat(3)];
  const pick = () => alphabet[Math.floor(random() * alphabet.length)];
  const phrase = (max: number) => Array.from({ length: Math.floor(random() * max) }, pick).join("");
  for (let round = 0; round < 400; round++) {
    const lines = Array.from({ length: 1 + Math.floor(random() * 30) }, () => phrase(25));
    const text = lines.join("\n");
    const wanted = random() < 0.2 ? lines[Math.floor(random() * lines.length)] : phrase(20);
    const expected = plainClosest(text, wanted);
    const actual = closestLine(text, wanted);
    assert.deepEqual(
      actual && { line: actual.line, similarity: actual.similarity },
      expected,
      `round ${round}: ${JSON.stringify(wanted)} in ${JSON.stringify(text)}`,
    );
  }
});

Deno.test("closestLine over a 16 MB text stays fast", () => {
  const line = "#define REGISTER_FIELD__SOME_MASK 0x0000FFFFL\n";
  const text = line.repeat(Math.ceil(16_000_000 / line.length)) + "#define DEVICE_CNTL2 1\n";
  const started = performance.now();
  const found = closestLine(text, "#define DEVICE_CNTL3 1");
  const elapsed = performance.now() - started;
  assert.equal(found?.text, "#define DEVICE_CNTL2 1");
  // The plain scan takes seconds; the bound is loose so a loaded machine does not fail it.
  assert.ok(elapsed < 1500, `${elapsed.toFixed(0)} ms`);
});
