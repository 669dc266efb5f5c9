import { deepStrictEqual } from "node:assert/strict";
import { indexRoot } from "./indexer.ts";
import { IndexStore, locateDb } from "./store.ts";

/** Every stored fact of the index at `db` of `root`, file by file, without row ids. */
function storedFacts(root: string, db: string): unknown[] {
  const store = IndexStore.open(locateDb(root, db, false), "read");
  try {
    return store.files().map((file) => ({
      file: [file.path, file.hash, file.language, file.parse_errors],
      symbols: store.symbolsOfFile(file.id).map(({ file_id: _, ...row }) => row),
      imports: store.importsOfFile(file.id).map(({ file_id: _, ...row }) => row),
      refs: store.symbolsOfFile(file.id).flatMap((symbol) =>
        store.callsWithin(file.id, symbol.qualified_name).map(({ file_id: _, ...row }) => row)
      ),
    }));
  } finally {
    store.close();
  }
}

Deno.test("index: workers store exactly what the calling thread stores", async () => {
  const root = Deno.makeTempDirSync();
  try {
    for (let i = 0; i < 6; i++) {
      const calls = Array.from({ length: 80 }, (_, j) => `  g${j}(${i});`).join("\n");
      Deno.writeTextFileSync(
        `${root}/f${i}.c`,
        `#include "f${
          (i + 1) % 6
        }.h"\nstruct s${i} { int x; };\nint f${i}(int a)\n{\n${calls}\n  return a;\n}\n`,
      );
      Deno.writeTextFileSync(
        `${root}/p${i}.py`,
        `import os\nclass C${i}:\n    def m(self):\n        f${i}()\n`,
      );
    }
    const inline = await indexRoot({ root, db: ".llm/inline.db", threads: 0 });
    const pooled = await indexRoot({ root, db: ".llm/pooled.db", threads: 2 });
    deepStrictEqual(pooled.result.references, inline.result.references);
    deepStrictEqual(storedFacts(root, ".llm/pooled.db"), storedFacts(root, ".llm/inline.db"));
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("index: a rewrite in the tick of the recorded stamp, at the same size, is seen", async () => {
  const root = Deno.makeTempDirSync();
  try {
    const path = `${root}/a.c`;
    Deno.writeTextFileSync(path, "int v1(void) { return 1; }\n");
    await indexRoot({ root, threads: 0 });
    const { mtime } = Deno.statSync(path);
    // What a second write in the same clock tick leaves: new content, same size and mtime.
    Deno.writeTextFileSync(path, "int v2(void) { return 2; }\n");
    Deno.utimeSync(path, new Date(), mtime!);
    const again = await indexRoot({ root, threads: 0 });
    deepStrictEqual(again.result.parsed, 1);
    const store = IndexStore.open(locateDb(root, undefined, false), "read");
    try {
      deepStrictEqual(store.symbolsNamed("v2").map((row) => row.path), ["a.c"]);
    } finally {
      store.close();
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
