/**
 * The gold of the localization bench (`bench/localize_gold.ts`): files, changed lines and
 * enclosing functions from small inline diffs, and, through the parser adapter
 * (`bench/localize_parse.ts`), from a small Python file parsed with the project's grammar.
 */
import assert from "node:assert/strict";
import {
  changedLines,
  goldOf,
  innermostFunction,
  lineCount,
  locateHunks,
  parsePatch,
  type SourceDefinition,
} from "../bench/localize_gold.ts";
import { definitionsOf, FUNCTION_KINDS } from "../bench/localize_parse.ts";

const SOURCE = [
  "import os", // 1
  "", // 2
  "LIMIT = 3", // 3
  "", // 4
  "", // 5
  "class Store:", // 6
  '    """A store."""', // 7
  "", // 8
  "    size = 0", // 9
  "", // 10
  "    def get(self, key):", // 11
  "        value = self.data[key]", // 12
  "        return value", // 13
  "", // 14
  "    @property", // 15
  "    def keys(self):", // 16
  "        def inner():", // 17
  "            return 1", // 18
  "        return inner()", // 19
  "", // 20
  "", // 21
  "def helper(x):", // 22
  "    return x + 1", // 23
  "", // the text ends with a newline: 23 lines
].join("\n");

const encoder = new TextEncoder();

async function parsed(
  text = SOURCE,
): Promise<{ lineCount: number; definitions: SourceDefinition[] }> {
  const definitions = (await definitionsOf("store.py", encoder.encode(text)))
    .filter((d) => FUNCTION_KINDS.has(d.kind));
  return { lineCount: lineCount(text), definitions };
}

function diff(path: string, hunks: string): string {
  return `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n${hunks}`;
}

Deno.test("the parser adapter gives functions and methods with their lines", async () => {
  const { definitions } = await parsed();
  assert.deepEqual(
    definitions.map((d) => [d.qualified_name, d.kind, d.start_line, d.end_line]),
    [
      ["Store.get", "method", 11, 13],
      ["Store.keys", "method", 15, 19], // a decorated definition spans its decorator
      ["Store.keys.inner", "function", 17, 18],
      ["helper", "function", 22, 23],
    ],
  );
  const get = definitions[0];
  assert.equal(
    new TextDecoder().decode(encoder.encode(SOURCE).subarray(get.byte_start, get.byte_end)),
    "def get(self, key):\n        value = self.data[key]\n        return value",
  );
});

Deno.test("a modified line is gold, and so is its innermost function", async () => {
  const patch = diff(
    "store.py",
    "@@ -10,6 +10,6 @@ class Store:\n \n     def get(self, key):\n-        value = self.data[key]\n+        value = self.data.get(key)\n         return value\n \n     @property\n",
  );
  const original = await parsed();
  const gold = goldOf(patch, (path) => path === "store.py" ? original : undefined);
  assert.deepEqual(gold.files, ["store.py"]);
  assert.deepEqual(gold.lines, [{ file_path: "store.py", line: 12, kind: "removed" }]);
  assert.deepEqual(
    gold.functions.map((f) => [f.qualified_name, f.start_line, f.end_line, f.lines]),
    [
      ["Store.get", 11, 13, [12]],
    ],
  );
  assert.deepEqual(gold.fileLevelLines, []);
});

Deno.test("a nested function is the innermost; a class body and module level have none", async () => {
  const patch = diff(
    "store.py",
    [
      "@@ -1,9 +1,9 @@",
      "-import os",
      "+import sys",
      " ",
      " LIMIT = 3",
      " ",
      " ",
      " class Store:",
      '     """A store."""',
      " ",
      "-    size = 0",
      "+    size = 1",
      "@@ -15,5 +15,5 @@ class Store:",
      "     @property",
      "     def keys(self):",
      "         def inner():",
      "-            return 1",
      "+            return 2",
      "         return inner()",
      "",
    ].join("\n"),
  );
  const original = await parsed();
  const gold = goldOf(patch, () => original);
  assert.deepEqual(gold.lines.map((l) => l.line), [1, 9, 18]);
  assert.deepEqual(gold.functions.map((f) => [f.qualified_name, f.lines]), [
    ["Store.keys.inner", [18]],
  ]);
  assert.deepEqual(gold.fileLevelLines.map((l) => l.line), [1, 9]);
});

Deno.test("a pure insertion stands for the lines before and after it", async () => {
  // Two lines inserted between lines 12 and 13 of Store.get.
  const patch = diff(
    "store.py",
    "@@ -11,3 +11,5 @@ class Store:\n     def get(self, key):\n         value = self.data[key]\n+        if value is None:\n+            raise KeyError(key)\n         return value\n",
  );
  const original = await parsed();
  const gold = goldOf(patch, () => original);
  assert.deepEqual(gold.lines.map((l) => [l.line, l.kind]), [
    [12, "before_insertion"],
    [13, "after_insertion"],
  ]);
  assert.deepEqual(gold.functions.map((f) => [f.qualified_name, f.lines]), [["Store.get", [
    12,
    13,
  ]]]);
});

Deno.test("an insertion before a function makes that function gold through the line after", async () => {
  // A new function inserted on line 21 (blank), before `def helper`.
  const patch = diff(
    "store.py",
    "@@ -19,5 +19,9 @@ class Store:\n         return inner()\n \n \n+def other():\n+    pass\n+\n+\n def helper(x):\n     return x + 1\n",
  );
  const gold = goldOf(patch, () => undefined); // the original unknown: bounded by the hunk
  assert.deepEqual(gold.lines.map((l) => [l.line, l.kind]), [
    [21, "before_insertion"],
    [22, "after_insertion"],
  ]);
  const original = await parsed();
  const known = goldOf(patch, () => original);
  assert.deepEqual(known.functions.map((f) => [f.qualified_name, f.lines]), [["helper", [22]]]);
  assert.deepEqual(known.fileLevelLines.map((l) => l.line), [21]);
});

Deno.test("insertions at the top and at the end of a file have one neighbour", () => {
  const top = parsePatch(diff("a.py", "@@ -1,3 +1,4 @@\n+# header\n one\n two\n three\n"))[0];
  assert.deepEqual(changedLines(top, 3), [{ line: 1, kind: "after_insertion" }]);
  const end = parsePatch(diff("a.py", "@@ -2,2 +2,3 @@\n two\n three\n+four\n"))[0];
  assert.deepEqual(changedLines(end, 3), [{ line: 3, kind: "before_insertion" }]);
  // Without the line count, the hunk bounds the line after as well.
  assert.deepEqual(changedLines(end), [{ line: 3, kind: "before_insertion" }]);
});

Deno.test("hunks without context (-U0) and without counts", () => {
  // `-2,0`: inserted after line 2.
  const u0 = parsePatch(diff("a.py", "@@ -2,0 +3,2 @@\n+x\n+y\n@@ -5 +7 @@\n-e\n+E\n"))[0];
  assert.deepEqual(changedLines(u0, 9), [
    { line: 2, kind: "before_insertion" },
    { line: 3, kind: "after_insertion" },
    { line: 5, kind: "removed" },
  ]);
  assert.deepEqual(u0.hunks.map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount]), [
    [2, 0, 3, 2],
    [5, 1, 7, 1],
  ]);
});

Deno.test("a removed line is never taken for an insertion's neighbour", () => {
  // Line 2 is removed and line 3 inserted after it: a replacement, not an insertion.
  const file = parsePatch(diff("a.py", "@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n+more\n three\n"))[0];
  assert.deepEqual(changedLines(file, 3), [{ line: 2, kind: "removed" }]);
  // An insertion right after a removed block elsewhere keeps the removed line's kind.
  const near = parsePatch(
    diff("a.py", "@@ -1,4 +1,4 @@\n one\n-two\n three\n+new\n four\n"),
  )[0];
  assert.deepEqual(changedLines(near, 4), [
    { line: 2, kind: "removed" },
    { line: 3, kind: "before_insertion" },
    { line: 4, kind: "after_insertion" },
  ]);
});

Deno.test("hunk bodies are read by their counts: a removed '-- x' line is not a header", () => {
  const patch = diff("a.sql", "@@ -1,3 +1,1 @@\n select 1;\n--- a comment\n-++ more\n") +
    diff("b.py", "@@ -1 +1 @@\n-x = 1\n+x = 2\n\\ No newline at end of file\n");
  const files = parsePatch(patch);
  assert.deepEqual(files.map((f) => [f.oldPath, f.status, f.hunks.length]), [
    ["a.sql", "modified", 1],
    ["b.py", "modified", 1],
  ]);
  assert.deepEqual(files[0].hunks[0].lines, [" select 1;", "--- a comment", "-++ more"]);
  assert.deepEqual(changedLines(files[0], 3).map((l) => l.line), [2, 3]);
  assert.deepEqual(changedLines(files[1], 1), [{ line: 1, kind: "removed" }]);
});

Deno.test("added, deleted and renamed files", () => {
  const patch = [
    "diff --git a/new.py b/new.py",
    "new file mode 100644",
    "index 0000000..1111111",
    "--- /dev/null",
    "+++ b/new.py",
    "@@ -0,0 +1,2 @@",
    "+def f():",
    "+    pass",
    "diff --git a/old.py b/old.py",
    "deleted file mode 100644",
    "index 1111111..0000000",
    "--- a/old.py",
    "+++ /dev/null",
    "@@ -1,2 +0,0 @@",
    "-a = 1",
    "-b = 2",
    "diff --git a/pkg/x.py b/pkg/y.py",
    "similarity index 90%",
    "rename from pkg/x.py",
    "rename to pkg/y.py",
    "index 1111111..2222222 100644",
    "--- a/pkg/x.py",
    "+++ b/pkg/y.py",
    "@@ -1,2 +1,2 @@",
    " a = 1",
    "-b = 2",
    "+b = 3",
    "diff --git a/pkg/same.py b/pkg/moved.py",
    "similarity index 100%",
    "rename from pkg/same.py",
    "rename to pkg/moved.py",
    "",
  ].join("\n");
  const files = parsePatch(patch);
  assert.deepEqual(files.map((f) => [f.oldPath, f.newPath, f.status]), [
    [null, "new.py", "added"],
    ["old.py", null, "deleted"],
    ["pkg/x.py", "pkg/y.py", "renamed"],
    ["pkg/same.py", "pkg/moved.py", "renamed"],
  ]);
  assert.deepEqual(changedLines(files[0]), []);
  const gold = goldOf(patch, () => undefined);
  assert.deepEqual(gold.files, ["old.py", "pkg/x.py", "pkg/same.py"]);
  assert.deepEqual(gold.added, ["new.py"]);
  assert.deepEqual(gold.lines.map((l) => [l.file_path, l.line]), [
    ["old.py", 1],
    ["old.py", 2],
    ["pkg/x.py", 2],
  ]);
});

Deno.test("plain unified diffs (no git header), quoted paths and timestamps", () => {
  const plain =
    "--- a/x.py\t2020-01-01 00:00:00\n+++ b/x.py\t2020-01-02 00:00:00\n@@ -1 +1 @@\n-a\n+b\n" +
    '--- "a/dir/sp ace\\303\\251.py"\n+++ "b/dir/sp ace\\303\\251.py"\n@@ -2 +2 @@\n-c\n+d\n';
  const files = parsePatch(plain);
  assert.deepEqual(files.map((f) => [f.oldPath, f.newPath]), [
    ["x.py", "x.py"],
    ["dir/sp aceé.py", "dir/sp aceé.py"],
  ]);
});

Deno.test("innermostFunction picks the shortest enclosing function or method", async () => {
  const { definitions } = await parsed();
  assert.equal(innermostFunction(definitions, 18)?.qualified_name, "Store.keys.inner");
  assert.equal(innermostFunction(definitions, 19)?.qualified_name, "Store.keys");
  assert.equal(innermostFunction(definitions, 15)?.qualified_name, "Store.keys"); // decorator
  assert.equal(innermostFunction(definitions, 9), undefined); // class body
  assert.equal(innermostFunction(definitions, 24), undefined); // past the end
  // Classes are never gold functions.
  const all = await definitionsOf("store.py", encoder.encode(SOURCE));
  assert.ok(all.some((d) => d.kind === "class"));
  assert.equal(innermostFunction(all, 7), undefined);
});

Deno.test("hunks are placed where their original lines are, as git apply places them", () => {
  const original = ["x", "a", "b", "c", "y", "a", "b", "c", "z", "p", "q"];
  // The header says line 5, the lines `a b c` are at 2 and 6: the nearer one wins.
  const [file] = parsePatch(
    diff("f.py", "@@ -5,3 +5,3 @@\n a\n-b\n+B\n c\n@@ -9,2 +9,2 @@\n-p\n+P\n q\n"),
  );
  const located = locateHunks(file, original);
  assert.deepEqual(located.file.hunks.map((h) => h.oldStart), [6, 10]);
  assert.equal(located.moved, 2); // the second moved by the first's offset
  assert.equal(located.unmatched, 0);
  assert.deepEqual(changedLines(located.file, original.length).map((l) => l.line), [7, 10]);
  // A later hunk never goes before an earlier one.
  const [twice] = parsePatch(
    diff("f.py", "@@ -6,3 +6,3 @@\n a\n-b\n+B\n c\n@@ -2,3 +2,3 @@\n a\n-b\n+B\n c\n"),
  );
  assert.deepEqual(locateHunks(twice, original).unmatched, 1);
  // Lines found nowhere: the hunk stays at its header.
  const [lost] = parsePatch(diff("f.py", "@@ -3,2 +3,2 @@\n nope\n-b\n+B\n"));
  const stays = locateHunks(lost, original);
  assert.deepEqual([stays.file.hunks[0].oldStart, stays.unmatched, stays.moved], [3, 1, 0]);
});

Deno.test("goldOf places the hunks when it has the original's lines, and counts them", async () => {
  // The header says line 4, the method's lines are at 12 (8 lines above were added since).
  const patch = diff(
    "store.py",
    "@@ -3,3 +3,3 @@\n     def get(self, key):\n-        value = self.data[key]\n+        value = self.data.get(key)\n         return value\n",
  );
  const original = { ...(await parsed()), lines: SOURCE.split("\n").slice(0, -1) };
  const gold = goldOf(patch, () => original);
  assert.deepEqual(gold.lines.map((l) => l.line), [12]);
  assert.deepEqual(gold.functions.map((f) => f.qualified_name), ["Store.get"]);
  assert.deepEqual([gold.movedHunks, gold.unmatchedHunks], [1, 0]);
  const blind = goldOf(patch, () => ({ ...original, lines: undefined }));
  assert.deepEqual(blind.lines.map((l) => l.line), [4]);
});

Deno.test("lineCount counts a last line without a newline", () => {
  assert.equal(lineCount(SOURCE), 23);
  assert.equal(lineCount("x"), 1);
  assert.equal(lineCount("\n"), 1);
});
