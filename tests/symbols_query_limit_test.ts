/**
 * `refs` and `callers` with a limit resolve only the uses they list (and the one after them):
 * the listing must be the first uses of the unlimited answer, in the same order, on fixtures
 * where some uses denote another definition of the same name and some lie outside the scope.
 */
import assert from "node:assert/strict";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import { findUses } from "../tools/symbols/queries.ts";
import { makeTree, seededRandom } from "./helpers.ts";

/** C files calling `helper`; `b/` has its own static `helper`, which its calls resolve to. */
function fixture(random: () => number): Record<string, string> {
  const files: Record<string, string> = {
    "a/helper.c": "int helper(int x) { return x; }\n",
    "a/helper.h": "int helper(int x);\n",
  };
  for (let i = 0; i < 12; i++) {
    const folder = random() < 0.3 ? "b" : "a";
    const local = folder === "b" ? "static int helper(int x) { return -x; }\n" : "";
    const calls = Array.from(
      { length: 1 + Math.floor(random() * 5) },
      (_, j) => random() < 0.8 ? `  helper(${j});` : `  int (*p${j})(int) = helper;`,
    ).join("\n");
    files[`${folder}/f${i}.c`] =
      `#include "../a/helper.h"\n${local}void f${i}(void)\n{\n${calls}\n}\n`;
    // `A.run` asked: the calls of a file with its own `run` denote that one and are left out.
    const own = random() < 0.5
      ? "class B:\n    def run(self):\n        self.run()\n        run()\n"
      : "";
    files[`${folder}/p${i}.py`] = `${own}def g${i}():\n    run()\n    A().run()\n`;
  }
  files["a/a.py"] = "class A:\n    def run(self):\n        pass\n";
  return files;
}

Deno.test("refs and callers with a limit list the first uses of the unlimited answer", async () => {
  const random = seededRandom(14);
  for (let round = 0; round < 3; round++) {
    const root = await makeTree(fixture(random));
    try {
      await indexRoot({ root, threads: 0 });
      for (
        const [name, callsOnly] of [["helper", false], ["helper", true], ["A.run", true]] as const
      ) {
        for (const paths of [undefined, ["a"], ["b/f1.c", "a"]]) {
          const all = await findUses({ root, paths, limit: 0 }, name, { callsOnly });
          const every = all.data.results;
          assert.ok(every.length > 3, `round ${round}: few uses`);
          for (let limit = 1; limit <= every.length + 1; limit++) {
            const cut = await findUses({ root, paths, limit }, name, { callsOnly });
            const what = `round ${round} ${name} calls ${callsOnly} paths ${paths} limit ${limit}`;
            assert.deepEqual(cut.data.results, every.slice(0, limit), what);
            assert.equal(cut.partial, limit < every.length, what);
            assert.ok(cut.data.total >= every.length, what);
            if (limit >= every.length) assert.deepEqual(cut.data, all.data, what);
          }
        }
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
});
