/**
 * The syntax gate parses a file's next version from its kept tree: the verdict and every
 * diagnostic must be those of a full parse. Random edits (insertions of tokens that break or
 * mend the syntax, deletions, moved ranges, characters outside the BMP) are applied one after
 * another to texts long enough to be kept, and each version is checked both ways.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Tree } from "web-tree-sitter";
import { validateFile } from "../core/gates/mod.ts";
import { KEEP_FROM_UNITS, KEPT_TREES, textEdit, TreeKeeper } from "../core/gates/kept_trees.ts";
import type { Diagnostic } from "../schema/diagnostic.ts";

/** A valid snippet per language, repeated past the length from which trees are kept. */
const SNIPPETS: Record<string, [file: string, snippet: string]> = {
  c: [
    "main.c",
    "static int add(int a, int b) {\n  if (a > b) { return a - b; }\n  return a + b;\n}\n",
  ],
  python: [
    "main.py",
    "def add(a, b):\n    if a > b:\n        return [a - b, 'é']\n    return a + b\n",
  ],
  javascript: [
    "main.js",
    "function add(a, b) {\n  const s = `😀${a}`;\n  return a > b ? s : b;\n}\n",
  ],
  json: ["data.json", '  {"name": "é", "ports": [80, 443], "on": true},\n'],
};

/** Inserted at random: tokens that break the syntax, or mend what an earlier edit broke. */
const TOKENS = ["(", ")", "{", "}", ";", "\n", " x ", "[", "]", '"', "'", ":", ",", "é", "😀"];

/** A small deterministic generator (a test run is reproducible from its seed). */
function generator(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state % below;
  };
}

/** One random edit of `text`. */
function mutate(text: string, random: (below: number) => number): string {
  const at = random(text.length + 1);
  const kind = random(3);
  if (kind === 0) return text.slice(0, at) + TOKENS[random(TOKENS.length)] + text.slice(at);
  if (kind === 1) return text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + random(30)));
  const other = random(text.length + 1);
  const [from, to] = at < other ? [at, other] : [other, at];
  return text.slice(0, from) + text.slice(to, to + (to - from)) + text.slice(from);
}

/** The diagnostics without the file's name and what derives from it (the two paths differ). */
function comparable(diagnostics: Diagnostic[]): unknown[] {
  return diagnostics.map(({ file: _file, span, ...rest }) => {
    const { file_path: _path, span_id: _id, ...where } = span ?? {};
    return { ...rest, where };
  });
}

function baseText(snippet: string, language: string): string {
  const body = snippet.repeat(Math.ceil(KEEP_FROM_UNITS / snippet.length) + 1);
  return language === "json" ? `[\n${body}  {}\n]\n` : body;
}

for (const [language, [file, snippet]] of Object.entries(SNIPPETS)) {
  Deno.test(`${language}: each edited version parsed from the kept tree gets a full parse's verdict`, async () => {
    const random = generator(language.length * 7919);
    const base = baseText(snippet, language);
    let text = base;
    let failed = 0;
    // Up to three edits pile up (an agent's edit and its fixes), then the file is valid again.
    for (let edit = 0, depth = 0; edit < 60; edit++, depth = (depth + 1) % 4) {
      text = depth === 3 ? base : mutate(text, random);
      const bytes = new TextEncoder().encode(text);
      const kept = await validateFile({ root: "/", filePath: file, bytes, gates: "syntax" });
      const fresh = await validateFile({
        root: "/",
        filePath: `fresh-${edit}-${file}`,
        bytes,
        gates: "syntax",
      });
      assert.equal(kept.approved, fresh.approved, `edit ${edit}`);
      assert.deepEqual(comparable(kept.diagnostics), comparable(fresh.diagnostics), `edit ${edit}`);
      if (!kept.approved) failed++;
    }
    assert.ok(failed > 5 && failed < 55, `both verdicts were exercised (${failed} of 60 failed)`);
  });
}

Deno.test("textEdit: the single replaced range, in code units and rows, never inside a pair", () => {
  // "int b;" → "long b;": the common prefix ends before "i", the common suffix starts at " b;".
  assert.deepEqual(textEdit("int a;\nint b;\n", "int a;\nlong b;\n"), {
    startIndex: 7,
    oldEndIndex: 10,
    newEndIndex: 11,
    startPosition: { row: 1, column: 0 },
    oldEndPosition: { row: 1, column: 3 },
    newEndPosition: { row: 1, column: 4 },
  });
  const same = textEdit("abc", "abc");
  assert.deepEqual([same.startIndex, same.oldEndIndex, same.newEndIndex], [3, 3, 3]);
  // 😀 and 😁 share their high surrogate: the edit starts before it.
  const pair = textEdit("a😀b", "a😁b");
  assert.deepEqual([pair.startIndex, pair.oldEndIndex, pair.newEndIndex], [1, 3, 3]);
  const grown = textEdit("ab", "aXXb");
  assert.deepEqual([grown.startIndex, grown.oldEndIndex, grown.newEndIndex], [1, 1, 3]);
});

Deno.test("TreeKeeper: keeps long texts' trees only, at most KEPT_TREES, deleting the rest", () => {
  const deleted: string[] = [];
  const fakeTree = (name: string) => ({ delete: () => deleted.push(name) }) as unknown as Tree;
  const keeper = new TreeKeeper();
  const long = "x".repeat(KEEP_FROM_UNITS);
  keeper.keep("short", "x", fakeTree("short"));
  assert.deepEqual(deleted, ["short"]);
  for (let i = 0; i <= KEPT_TREES; i++) keeper.keep(`file${i}`, long, fakeTree(`tree${i}`));
  assert.deepEqual(deleted, ["short", "tree0"], "the oldest went first");
  keeper.keep("file1", long, fakeTree("tree1b"));
  assert.deepEqual(deleted, ["short", "tree0", "tree1"], "a file's new tree replaces its old one");
  assert.equal(keeper.take("file0"), undefined);
  assert.equal(keeper.take("file2")?.text, long);
  assert.equal(keeper.take("file2"), undefined, "a tree taken is no longer kept");
});
