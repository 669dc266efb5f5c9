import assert from "node:assert/strict";
import { fuzzyMatch, Slab } from "./algo.ts";
import { parseQuery } from "./query.ts";
import { type MatchReason, PathScorer } from "./scorer.ts";
import { MatchText } from "./text.ts";
import { TopN } from "./top.ts";

function scorer(query: string, caseMode?: "smart" | "sensitive" | "insensitive"): PathScorer {
  return new PathScorer(parseQuery(query, caseMode));
}

/** Paths that match, best first (score desc, then path asc), as the engine ranks them. */
function rank(query: string, paths: string[]): string[] {
  const s = scorer(query);
  return paths
    .map((path) => ({ path, score: s.score(path) }))
    .filter((entry) => entry.score >= 0)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((entry) => entry.path);
}

function reason(query: string, path: string): MatchReason | undefined {
  return scorer(query).explain(path)?.reason;
}

/** The characters at the reported byte positions, decoded from the UTF-8 bytes of `path`. */
function matchedChars(query: string, path: string): string {
  const match = scorer(query).explain(path);
  assert.ok(match, `${query} should match ${path}`);
  const bytes = new TextEncoder().encode(path);
  return match.positions.map((offset) => {
    let end = offset + 1;
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end++;
    return new TextDecoder().decode(bytes.subarray(offset, end));
  }).join("");
}

// --- Bonuses of fzf's path scheme -------------------------------------------------------------

Deno.test("bonuses: 9 after a slash and at the start, 8 after other separators, 7 at camelCase and digits", () => {
  const text = new MatchText();
  text.load("ab/c_d-eFg1 h");
  const bonus = (index: number) => text.bonus[index];
  assert.equal(bonus(0), 9, "start of the path counts as after a separator");
  assert.equal(bonus(1), 0, "inside a word");
  assert.equal(bonus(3), 9, "after /");
  assert.equal(bonus(5), 8, "after _");
  assert.equal(bonus(7), 8, "after -");
  assert.equal(bonus(8), 7, "camelCase hump");
  assert.equal(bonus(9), 0);
  assert.equal(bonus(10), 7, "letter to digit");
  assert.equal(bonus(12), 8, "after white space");
  assert.equal(text.basenameStart, 3);
});

Deno.test("word boundaries beat a tighter match inside a word (fuzzy-finder over fuzzyfinder on 'ff')", () => {
  assert.deepEqual(rank("ff", ["x/fuzzyfinder", "x/fuzzy-finder"]), [
    "x/fuzzy-finder",
    "x/fuzzyfinder",
  ]);
});

Deno.test("camelCase humps count as boundaries", () => {
  assert.deepEqual(rank("fb", ["src/foobar.ts", "src/fooBar.ts"]), [
    "src/fooBar.ts",
    "src/foobar.ts",
  ]);
  assert.deepEqual(matchedChars("fb", "src/fooBar.ts"), "fB");
});

Deno.test("a word start after a slash beats one after an underscore", () => {
  const s = scorer("core");
  assert.ok(s.score("lib/core.ts") > s.score("lib/x_core.ts"));
});

Deno.test("consecutive runs beat boundary hops (foobar over foo-bar on 'foob')", () => {
  assert.deepEqual(rank("foob", ["x/foo-bar", "x/foobar"]), ["x/foobar", "x/foo-bar"]);
});

Deno.test("fzf's arithmetic: 16 a character, the first one's bonus doubled, runs keep the bonus", () => {
  const text = new MatchText();
  text.load("x/ab");
  const score = fuzzyMatch(text, text.codes, 0, Int32Array.from([97, 98]), new Slab());
  assert.equal(score, 16 + 9 * 2 + 16 + 9);
  text.load("x/a-b");
  const hop = fuzzyMatch(text, text.codes, 0, Int32Array.from([97, 98]), new Slab());
  assert.equal(hop, 16 + 9 * 2 - 3 + 16 + 8, "a one-character gap costs 3, b after '-' earns 8");
});

Deno.test("digit transitions are bonus points", () => {
  assert.deepEqual(rank("2", ["x/12.txt", "x/ab2.txt"]), ["x/ab2.txt", "x/12.txt"]);
});

Deno.test("V2 finds the best alignment, not the first one", () => {
  const text = new MatchText();
  text.load("a_____b___ab__");
  const positions: number[] = [];
  const pattern = Int32Array.from([97, 98]);
  fuzzyMatch(text, text.variant(false, false), 0, pattern, new Slab(), positions);
  assert.deepEqual(positions, [10, 11]);
});

Deno.test("a long gap cancels the boundary bonus (fzf's gap penalty)", () => {
  assert.deepEqual(rank("ff", ["x/fuzzy-blurrier-finder", "x/fuzzyfinder"]), [
    "x/fuzzyfinder",
    "x/fuzzy-blurrier-finder",
  ]);
});

// --- Basename preference and exact names ------------------------------------------------------

Deno.test("a basename match beats the same match on a directory deep in the path", () => {
  assert.deepEqual(rank("config", ["src/config/deep/nested/file.ts", "src/config.ts"]), [
    "src/config.ts",
    "src/config/deep/nested/file.ts",
  ]);
  assert.deepEqual(rank("sched", ["kernel/sched/core.c", "kernel/sched.c"]), [
    "kernel/sched.c",
    "kernel/sched/core.c",
  ]);
});

Deno.test("a clear word-start match in a directory still beats a mid-word basename match", () => {
  assert.deepEqual(rank("test", ["src/latest.ts", "tests/foo.ts"]), [
    "tests/foo.ts",
    "src/latest.ts",
  ]);
});

Deno.test("exact basename first, then basename prefix, then the rest", () => {
  const paths = [
    "a/walker_ts/x.ts",
    "core/walk/walker.tsx",
    "core/walk/walker.ts.bak",
    "core/walk/walker.ts",
    "docs/walker-ts.md",
  ];
  assert.deepEqual(rank("walker.ts", paths).slice(0, 3), [
    "core/walk/walker.ts",
    "core/walk/walker.ts.bak",
    "core/walk/walker.tsx",
  ]);
  assert.equal(reason("walker.ts", "core/walk/walker.ts"), "exact basename");
  assert.equal(reason("walker.ts", "core/walk/walker.ts.bak"), "exact basename", "its stem");
  assert.equal(reason("walker.ts", "core/walk/walker.tsx"), "basename prefix");
  assert.equal(reason("walker.ts", "a/walker_ts/x.ts"), "path match");
});

Deno.test("a term equal to the stem is an exact basename too, ranked over longer names", () => {
  assert.deepEqual(
    rank("walker", ["src/walkers.ts", "src/walker_test.ts", "src/walker.ts"])[0],
    "src/walker.ts",
  );
  assert.equal(reason("walker", "src/walker.ts"), "exact basename");
  assert.equal(reason("walker", "src/walkers.ts"), "basename prefix");
  assert.equal(reason("wkr", "src/walker.ts"), "filename match");
  assert.equal(reason("srcwalker", "src/walker.ts"), "path match");
});

Deno.test("among exact names the one nearer the root comes first, not the one first in path order", () => {
  const paths = [
    "Documentation/Makefile",
    "arch/x86/Makefile",
    "Makefile",
    "scripts/Makefile.build",
  ];
  assert.deepEqual(rank("makefile", paths).slice(0, 3), [
    "Makefile",
    "Documentation/Makefile",
    "arch/x86/Makefile",
  ]);
  const s = scorer("kconfig");
  assert.ok(s.score("Kconfig", 1) > s.score("Documentation/Kconfig", 2));
  assert.equal(
    s.score("sub/Kconfig", 1),
    s.score("Kconfig", 1),
    "depth counts from the walked root",
  );
});

Deno.test("a term equal to the whole path is an exact path", () => {
  assert.deepEqual(rank("core/walk/walker.ts", ["x/core/walk/walker.ts", "core/walk/walker.ts"]), [
    "core/walk/walker.ts",
    "x/core/walk/walker.ts",
  ]);
  assert.equal(reason("core/walk/walker.ts", "core/walk/walker.ts"), "exact path");
});

Deno.test("a match that ends on a whole stem ranks first among equal fzf scores (schedcore)", () => {
  const paths = [
    "include/linux/sched/coredump.h",
    "kernel/sched/core_sched.c",
    "kernel/sched/core.c",
  ];
  assert.equal(rank("schedcore", paths)[0], "kernel/sched/core.c");
});

Deno.test("a term equal to a directory name counts (sched core: kernel/sched/core.c first)", () => {
  const paths = ["Documentation/admin-guide/hw-vuln/core-scheduling.rst", "kernel/sched/core.c"];
  assert.equal(rank("sched core", paths)[0], "kernel/sched/core.c");
  const s = scorer("sched");
  assert.ok(s.score("kernel/sched/x.c") > s.score("kernel/schedx/x.c"));
});

Deno.test("scores are normalised to [0, 1]; an exact name scores 1", () => {
  const s = scorer("walker.ts");
  assert.equal(s.explain("walker.ts")?.score, 1);
  const partial = s.explain("src/wal/ker.tsx");
  assert.ok(partial && partial.score > 0 && partial.score < 1);
});

Deno.test("score() and explain() agree on the raw score", () => {
  const paths = [
    "core/walk/walker.ts",
    "kernel/sched/core.c",
    "src/fooBar.ts",
    "docs/café/naïve.md",
    "a/b/c/d/e/f.txt",
    "tests/discover_scorer_test.ts",
    "x/walkwalkwalk/walker/walk.ts",
  ];
  for (
    const query of ["walk", "sched core", "fb", "naive", "c", "'walk !test", "^a | f.txt$", "ts$"]
  ) {
    const s = scorer(query);
    for (const path of paths) {
      const raw = s.score(path);
      const explained = s.explain(path);
      assert.equal(explained?.rawScore ?? -1, raw, `${query} on ${path}`);
    }
  }
});

// --- Extended syntax ------------------------------------------------------------------------

Deno.test("parseQuery: every operator of fzf's extended syntax", () => {
  const kinds = (query: string) =>
    parseQuery(query).sets.map((set) =>
      set.map((term) => `${term.inverse ? "!" : ""}${term.kind}:${term.text}`)
    );
  assert.deepEqual(kinds("foo 'bar 'baz' ^src .ts$ ^main.ts$"), [
    ["fuzzy:foo"],
    ["exact:bar"],
    ["exact-boundary:baz"],
    ["prefix:src"],
    ["suffix:.ts"],
    ["equal:main.ts"],
  ]);
  assert.deepEqual(kinds("!test !'spec !^vendor !.min.js$"), [
    ["!exact:test"],
    ["!fuzzy:spec"],
    ["!prefix:vendor"],
    ["!suffix:.min.js"],
  ]);
  assert.deepEqual(kinds("a | b | c d"), [["fuzzy:a", "fuzzy:b", "fuzzy:c"], ["fuzzy:d"]]);
  assert.deepEqual(kinds("my\\ file  $ "), [["fuzzy:my file"], ["fuzzy:$"]]);
  assert.deepEqual(kinds("  "), []);
});

Deno.test("space-separated terms must all match, in any order", () => {
  const paths = ["src/walker.ts", "src/walker.md", "tests/walker_test.ts"];
  assert.deepEqual(rank("ts walker", paths), ["src/walker.ts", "tests/walker_test.ts"]);
});

Deno.test("'exact needs the characters together; fuzzy does not", () => {
  const paths = ["x/c_o_r_e.ts", "x/score.ts"];
  assert.deepEqual(rank("core", paths).sort(), paths.sort());
  assert.deepEqual(rank("'core", paths), ["x/score.ts"]);
});

Deno.test("'word' needs word boundaries on both sides", () => {
  assert.deepEqual(rank("'core'", ["src/scorer.ts", "src/core.ts", "src/core_x.ts"]), [
    "src/core.ts",
    "src/core_x.ts",
  ]);
});

Deno.test("^prefix anchors at the start of the path, suffix$ at its end, ^x$ both", () => {
  const paths = ["src/main.ts", "lib/src/main.ts", "src/main.tsx"];
  assert.deepEqual(rank("^src", paths), ["src/main.ts", "src/main.tsx"]);
  assert.deepEqual(rank(".ts$", paths), ["lib/src/main.ts", "src/main.ts"]);
  assert.deepEqual(rank("^src/main.ts$", paths), ["src/main.ts"]);
});

Deno.test("!negation removes paths holding the text; !'x negates a fuzzy match", () => {
  const paths = ["src/walker.ts", "tests/walker_test.ts", "src/w_a_l_k.ts"];
  assert.deepEqual(rank("walk !test", paths), ["src/walker.ts", "src/w_a_l_k.ts"]);
  assert.deepEqual(rank("ts !walk", paths), ["src/w_a_l_k.ts"]);
  assert.deepEqual(rank("ts !'walk", paths), [], "every path holds w, a, l, k in order");
});

Deno.test("a | b matches either alternative", () => {
  const paths = ["src/a.go", "src/b.rs", "src/c.py"];
  assert.deepEqual(rank(".go$ | .rs$", paths), ["src/a.go", "src/b.rs"]);
});

Deno.test("only negations: every remaining path is listed with score 0, in path order", () => {
  const paths = ["b.ts", "a.ts", "c.md"];
  assert.deepEqual(rank("!.md", paths), ["a.ts", "b.ts"]);
  assert.equal(reason("!.md", "a.ts"), "listed");
  assert.equal(scorer("!.md").explain("a.ts")?.score, 0);
});

// --- Ties, case, non-ASCII ----------------------------------------------------------------------

Deno.test("ties are broken by path, also when a limit cuts them", () => {
  const s = scorer("x");
  const paths = ["c/x.ts", "a/x.ts", "b/x.ts"];
  assert.equal(new Set(paths.map((path) => s.score(path))).size, 1, "equal scores");
  const top = new TopN<null>(2);
  for (const path of paths) top.offer(s.score(path), path, null);
  assert.deepEqual(top.sorted().map((entry) => entry.path), ["a/x.ts", "b/x.ts"]);
});

Deno.test("smart case: a lowercase term ignores case, a term with an uppercase letter does not", () => {
  const paths = ["src/Walker.ts", "src/walker.ts"];
  assert.deepEqual(rank("walker", paths).sort(), [...paths].sort());
  assert.deepEqual(rank("Walker", paths), ["src/Walker.ts"]);
  assert.deepEqual(rank("Walker ts", paths), ["src/Walker.ts"], "case is decided per term");
  assert.deepEqual(rank("walker TS", paths), []);
  assert.equal(
    new PathScorer(parseQuery("Walker", "insensitive")).score("src/walker.ts") > 0,
    true,
  );
  assert.equal(new PathScorer(parseQuery("walker", "sensitive")).score("src/Walker.ts"), -1);
});

Deno.test("non-ASCII: accents fold for an unaccented term, and positions are UTF-8 byte offsets", () => {
  const path = "docs/café/naïve.md";
  assert.equal(matchedChars("naive", path), "naïve");
  assert.equal(reason("naive", path), "exact basename");
  const match = scorer("naive").explain(path);
  assert.deepEqual(match?.positions, [11, 12, 13, 15, 16], "ï takes two bytes");
  assert.equal(scorer("naïve").score("docs/naive.md"), -1, "an accented term matches exactly");
  assert.ok(scorer("naïve").score(path) > 0);
});

Deno.test("non-ASCII: smart case with accented capitals, CJK and astral characters", () => {
  assert.ok(scorer("ärger").score("x/ÄRGER.txt") > 0);
  assert.equal(scorer("Ärger").score("x/ärger.txt"), -1);
  assert.equal(matchedChars("说明", "文档/说明.md"), "说明");
  assert.deepEqual(scorer("说明").explain("文档/说明.md")?.positions, [7, 10]);
  assert.equal(reason("说明", "文档/说明.md"), "exact basename");
  assert.equal(matchedChars("ab", "🎉/a🎉b.txt"), "ab");
  assert.deepEqual(scorer("ab").explain("🎉/a🎉b.txt")?.positions, [5, 10]);
  assert.equal(scorer("é").score("plain/ascii.txt"), -1);
});

Deno.test("the prefilter never rules out a path the full evaluation matches (generated paths and terms)", () => {
  // Few characters, both cases, a repeated first letter: the test starts at the first occurrence
  // of a term's first character, so paths hold it many times, before and after the rest.
  const alphabet = "sSsScCeEdD/._-ko1";
  let seed = 17;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const text = (length: number) =>
    Array.from({ length }, () => alphabet[next(alphabet.length)]).join("");
  let matched = 0;
  for (let round = 0; round < 400; round++) {
    const terms = Array.from({ length: 1 + next(2) }, () => text(1 + next(4)));
    const caseMode = (["smart", "sensitive", "insensitive"] as const)[next(3)];
    const s = scorer(terms.join(" "), caseMode);
    for (let k = 0; k < 40; k++) {
      const path = text(1 + next(24));
      const explained = s.explain(path);
      assert.equal(s.score(path), explained?.rawScore ?? -1, `${terms} (${caseMode}) on ${path}`);
      if (explained) matched++;
    }
  }
  assert.ok(matched > 1000, `only ${matched} matches: the generated cases prove little`);
});
