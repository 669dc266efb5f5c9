/**
 * C struct fields (tools/refactor/fields.ts): naming a field (`p->name`, `x.name`, `.name =`)
 * is refused with `SPL-REF-005` and its declarations, every file byte-identical; a function
 * that shares its name with fields renames alone, the fields kept, and the code still compiles.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  assertBytesOf,
  editResult,
  hasCompiler,
  refactorCli,
  snapshot,
} from "./refactor_helpers.ts";

const FILES: Record<string, string> = {
  "shape.h": "struct point {\n  int width;\n  int (*height)(int);\n};\n\n" +
    "struct box {\n  struct {\n    int width;\n  } inner;\n};\n\nint width(int scale);\n",
  "shape.c": '#include "shape.h"\n\n/* width in a comment */\nint width(int scale) {\n' +
    "  return 2 * scale;\n}\n",
  "main.c": '#include <stdio.h>\n#include "shape.h"\n\nstatic int twice(int v) {\n' +
    "  return 2 * v;\n}\n\nint main(void) {\n" +
    "  struct point p = { .width = width(1), .height = twice };\n  struct point *q = &p;\n" +
    "  struct box b = { .inner = { .width = 4 } };\n" +
    '  printf("width %d %d %d\\n", q->width, p.height(b.inner.width), p.width);\n  return 0;\n}\n',
};

async function withFields(test: (root: string) => Promise<void>): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-refactor-fields-" }));
  try {
    for (const [name, text] of Object.entries(FILES)) {
      await Deno.writeTextFile(join(root, name), text);
    }
    await test(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function compiles(root: string): Promise<void> {
  const output = await new Deno.Command("gcc", {
    args: ["-Wall", "-Werror", "-o", "prog", "main.c", "shape.c"],
    cwd: root,
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const run = await new Deno.Command("./prog", { cwd: root, stdout: "piped" }).output();
  assert.equal(new TextDecoder().decode(run.stdout), "width 2 8 2\n");
}

for (
  const args of [
    ["height", "--to", "tall"],
    ["point.height", "--to", "tall"],
    ["height", "--kind", "field", "--to", "tall"],
  ]
) {
  Deno.test(`renaming a C field (${args.join(" ")}) is refused with its declarations`, async () => {
    await withFields(async (root) => {
      const before = await snapshot(root);
      const run = await refactorCli(root, ["rename", ...args]);
      assert.equal(run.code, 3, JSON.stringify(run.envelope));
      assert.equal(run.envelope.error?.code, "SPL-REF-005");
      assert.equal(run.envelope.error?.note, "field declarations:\nstruct point shape.h:3");
      assert.deepEqual(await snapshot(root), before);
    });
  });
}

Deno.test("patch and delete of a field are refused as well, naming every struct", async () => {
  await withFields(async (root) => {
    const before = await snapshot(root);
    for (const args of [["delete", "inner.width", "--kind", "field"], ["patch", "height", "x"]]) {
      const run = await refactorCli(root, args);
      assert.equal(run.code, 3, JSON.stringify(run.envelope));
      assert.equal(run.envelope.error?.code, "SPL-REF-005");
    }
    const run = await refactorCli(root, ["delete", "width", "--kind", "field"]);
    assert.equal(
      run.envelope.error?.note,
      "field declarations:\nstruct point shape.h:2\nstruct <anonymous> shape.h:8",
    );
    assert.deepEqual(await snapshot(root), before);
  });
});

Deno.test({
  name: "a function named as fields renames alone; the fields stay and it compiles (needs gcc)",
  ignore: !hasCompiler("c"),
  fn: async () => {
    await withFields(async (root) => {
      const before = await snapshot(root);
      const rename = "rename width --kind function --to span".split(" ");
      const run = await refactorCli(root, rename);
      assert.equal(run.code, 0, JSON.stringify(run.envelope));
      assert.equal(editResult(run).edits.length, 3, JSON.stringify(editResult(run).edits));
      const main = await Deno.readTextFile(join(root, "main.c"));
      assert.ok(main.includes("{ .width = span(1), .height = twice }"), main);
      assert.ok(main.includes("q->width, p.height(b.inner.width), p.width"), main);
      assert.ok((await Deno.readTextFile(join(root, "shape.h"))).includes("  int width;\n"));
      await compiles(root);
      const undo = await refactorCli(root, ["undo", run.envelope.execution_id]);
      assert.equal(undo.code, 0);
      await assertBytesOf(root, before);
    });
  },
});
