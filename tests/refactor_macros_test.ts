/**
 * The name inside C `#define`s (tools/refactor/macros.ts): body tokens, parameters, pasted and
 * stringified tokens, and what holds no token (strings, character literals, comments, numbers,
 * longer identifiers), across continued lines; a file whose `#define`s do not spell the name
 * is not parsed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { macroNames } from "../tools/refactor/macros.ts";
import type { LoadedFile } from "../tools/refactor/view.ts";
import { decodeFile } from "../core/utf8.ts";
import { REPO, runEntry } from "./helpers.ts";
import { hasCompiler, refactorCli, withFixture } from "./refactor_helpers.ts";
import { exists } from "./transform_helpers.ts";

function fileOf(text: string, language = "c"): LoadedFile {
  return {
    path: "a.c",
    absPath: "/a.c",
    language,
    fileId: 1,
    ...decodeFile(new TextEncoder().encode(text)),
    defs: [],
    uses: [],
    imports: [],
    parseErrors: 0,
  };
}

/** The places found, each as `role@line:text-after-it`. */
async function placesOf(text: string): Promise<string[]> {
  const file = fileOf(text);
  const found = await macroNames(file, "foo");
  const decoder = new TextDecoder();
  return (found?.places ?? []).map((place) => {
    const line = decoder.decode(file.bytes.subarray(0, place.start)).split("\n").length;
    assert.equal(decoder.decode(file.bytes.subarray(place.start, place.end)), "foo");
    return `${place.role}@${line}`;
  });
}

Deno.test("a body's tokens spelled as the name are found, strings, comments and numbers hold none", async () => {
  const text = [
    "#define A(x) foo(x) + \"foo\" + 'f' /* foo */ + 0x1foo + foobar + foo_2 // foo",
    "#define B foo \\",
    "  + foo",
    "#define C(foo, y) ((foo) + (y))",
    "#define D(x) foo ## x + x ## foo + #foo",
    '#define E u8"foo" L\'f\' R"d(foo)d" (p)->foo',
    "int foo(void);",
  ].join("\n");
  assert.deepEqual(await placesOf(text), [
    "body@1",
    "body@2",
    "body@3",
    "parameter@4",
    "parameter@4",
    "pasted@5",
    "pasted@5",
    "pasted@5",
    "body@6",
  ]);
});

Deno.test("a file whose #defines do not spell the name is not parsed; other languages have none", async () => {
  assert.equal(await macroNames(fileOf("#define A 1\nint foo(void);\n"), "foo"), undefined);
  assert.equal(await macroNames(fileOf("#define A foo\n", "python"), "foo"), undefined);
  const found = await macroNames(fileOf("#define A(x) x\n#define B foo\n"), "foo");
  assert.deepEqual(found?.regions.length, 3);
});

Deno.test({
  name: "with a search index, a file naming the symbol only in a #define is found, and one added " +
    "since its build too (needs gcc)",
  ignore: !hasCompiler("c"),
  fn: () =>
    withFixture("c", async (root) => {
      const index = await runEntry("tools/symbols/main.ts", ["index"], {
        cwd: root,
        // `index` loads its definitions at run time, which needs read permission for the package.
        permissions: [`--allow-read=${root},${REPO}`, `--allow-write=${root}`],
      });
      assert.equal(index.code, 0, index.stderr);
      assert.ok(await exists(join(root, ".llm", "trigram.idx")));
      // The rename's full refresh tells the symbol index of late.h; the search index, built
      // before, does not list it.
      await Deno.writeTextFile(join(root, "late.h"), "#define HELPER_LATE(v) helper(v)\n");
      const run = await refactorCli(root, [
        "rename",
        "--refresh",
        "all",
        "helper",
        "--file",
        "util.c",
        "--kind",
        "function",
        "--to",
        "twice",
      ]);
      assert.equal(run.code, 0, JSON.stringify(run.envelope));
      assert.equal(
        await Deno.readTextFile(join(root, "wrap.h")).then((t) => t.includes("twice(v)")),
        true,
      );
      assert.equal(
        await Deno.readTextFile(join(root, "late.h")),
        "#define HELPER_LATE(v) twice(v)\n",
      );
    }),
});
