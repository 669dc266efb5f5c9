import assert from "node:assert/strict";
import { seededRandom } from "../../tests/helpers.ts";
import { estimateTokens, type MapEntry, renderRepoMap } from "./map.ts";

function entry(id: string, path: string, line: number, rank: number, signature = `fn ${id}()`) {
  return { symbol_id: id, path, name: id, kind: "function", line, signature, rank };
}

const ENTRIES: MapEntry[] = [
  entry("lex", "src/lex.c", 120, 0.1),
  entry("parse", "src/parse.c", 40, 0.4),
  entry("main", "src/main.c", 1, 0.05),
  entry("token", "src/lex.c", 8, 0.3, "struct token {\n  int kind;"),
  entry("expr", "src/parse.c", 7, 0.2),
];

Deno.test("map: files by their best symbol, symbols by line, first signature line only", () => {
  const map = renderRepoMap(ENTRIES);
  assert.equal(
    map.text,
    [
      "src/parse.c:",
      " 7│fn expr()",
      "40│fn parse()",
      "src/lex.c:",
      "  8│struct token {",
      "120│fn lex()",
      "src/main.c:",
      "1│fn main()",
      "",
    ].join("\n"),
  );
  assert.deepEqual(map.files.map((f) => [f.path, f.rank, f.symbols.map((s) => s.name)]), [
    ["src/parse.c", 0.4, ["expr", "parse"]],
    ["src/lex.c", 0.3, ["token", "lex"]],
    ["src/main.c", 0.05, ["main"]],
  ]);
  assert.deepEqual([map.shown, map.total, map.partial], [5, 5, false]);
  assert.equal(map.tokens, estimateTokens(map.text));
});

Deno.test("map: a small budget keeps the best-ranked prefix, nothing fits in none", () => {
  const map = renderRepoMap(ENTRIES, { tokens: 10 });
  assert.equal(map.text, "src/parse.c:\n40│fn parse()\n");
  assert.deepEqual([map.shown, map.partial, map.tokens], [1, true, 7]);
  const none = renderRepoMap(ENTRIES, { tokens: 0 });
  assert.deepEqual([none.text, none.files, none.shown, none.partial], ["", [], 0, true]);
  assert.deepEqual(renderRepoMap([]).files, []);
  assert.throws(() => renderRepoMap(ENTRIES, { tokens: -1 }), RangeError);
  assert.throws(() => renderRepoMap(ENTRIES, { tokens: 1.5 }), RangeError);
  assert.throws(() => renderRepoMap([entry("nan", "a.c", 1, NaN)]), RangeError);
});

Deno.test("map: ties in rank are broken by path, line and id, whatever the input order", () => {
  const tied = [entry("b", "y.c", 2, 1), entry("a", "x.c", 5, 1), entry("c", "x.c", 1, 1)];
  const expected = renderRepoMap(tied, { tokens: 8 }).text;
  assert.equal(expected, "x.c:\n1│fn c()\n5│fn a()\n");
  assert.equal(renderRepoMap([...tied].reverse(), { tokens: 8 }).text, expected);
});

/** Random entries: few files, lines and ranks that collide, signatures of varied lengths. */
function randomEntries(next: () => number): MapEntry[] {
  const count = Math.floor(next() * 60);
  return Array.from({ length: count }, (_, i) =>
    entry(
      `s${i}`,
      `dir/file${Math.floor(next() * 6)}.ts`,
      1 + Math.floor(next() * 2000),
      Math.floor(next() * 10) / 10,
      "x".repeat(Math.floor(next() * 80)),
    ));
}

/** The size of every prefix of the rank order, each rendered whole: the longest that fits. */
function longestFittingPrefix(entries: MapEntry[], tokens: number): number {
  const ranked = [...entries].sort((a, b) =>
    b.rank - a.rank || a.path.localeCompare(b.path) || a.line - b.line ||
    a.symbol_id.localeCompare(b.symbol_id)
  );
  let longest = 0;
  for (let count = 1; count <= ranked.length; count++) {
    const whole = renderRepoMap(ranked.slice(0, count), { tokens: 1e9 });
    if (whole.tokens <= tokens) longest = count;
  }
  return longest;
}

Deno.test("property: never over budget, the longest prefix that fits, monotone in the budget", () => {
  const next = seededRandom(20);
  for (let run = 0; run < 100; run++) {
    const entries = randomEntries(next);
    let previous = new Set<string>();
    for (const tokens of [0, 5, 20, 50, 120, 300, 1000, 5000]) {
      const map = renderRepoMap(entries, { tokens });
      assert.ok(map.tokens <= tokens, `run ${run}: ${map.tokens} > ${tokens}`);
      const shown = new Set(map.files.flatMap((f) => f.symbols.map((s) => s.symbol_id)));
      assert.equal(shown.size, map.shown);
      assert.ok([...previous].every((id) => shown.has(id)), `run ${run}: monotone`);
      assert.equal(map.shown, longestFittingPrefix(entries, tokens), `run ${run}: longest`);
      previous = shown;
    }
  }
});

Deno.test("property: the text lists exactly the structured form, in its order", () => {
  const next = seededRandom(21);
  for (let run = 0; run < 200; run++) {
    const map = renderRepoMap(randomEntries(next), { tokens: Math.floor(next() * 400) });
    const lines = map.files.flatMap((f) => [
      `${f.path}:`,
      ...f.symbols.map((s) => `${s.line}│${s.signature}`),
    ]);
    const text = map.text.split("\n").filter(Boolean).map((line) => line.trimStart());
    assert.deepEqual(text, lines);
    for (const file of map.files) {
      const lineNumbers = file.symbols.map((s) => s.line);
      assert.deepEqual(lineNumbers, [...lineNumbers].sort((a, b) => a - b));
    }
    const ranks = map.files.map((f) => f.rank);
    assert.deepEqual(ranks, [...ranks].sort((a, b) => b - a));
  }
});
