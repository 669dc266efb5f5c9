/**
 * The indexed file list stands in for the walk only while it is true: the walker takes it when
 * every directory and ignore file keeps its stamp (and gets the entries and diagnostics a real
 * walk gives), and walks for real once one changed. `llm-discover` answers the same with or
 * without it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { openIndex } from "../core/trigram/reader.ts";
import { IndexWalkSource } from "../core/trigram/walk_source.ts";
import { Walker } from "../core/walk/walker.ts";
import { discover } from "../tools/discover/engine.ts";
import { makeTree } from "./helpers.ts";

const FILES: Record<string, string> = {
  ".gitignore": "*.log\n[bad\n",
  "src/main.c": "int main;\n",
  "src/util/str.c": "char *s;\n",
  "src/debug.log": "ignored\n",
  ".hidden/x.txt": "hidden\n",
  "README.md": "# readme\n",
};

function age(root: string): void {
  const past = Date.now() / 1000 - 3600;
  for (const path of [...Object.keys(FILES), "src/util", "src", ".hidden", ".llm", "."]) {
    Deno.utimeSync(join(root, path), past, past);
  }
}

async function indexedRoot(): Promise<string> {
  const root = await makeTree(FILES);
  Deno.mkdirSync(join(root, ".git"));
  Deno.mkdirSync(join(root, ".llm"));
  age(root);
  buildTrigramIndex({ root });
  return root;
}

function walk(root: string, cache?: IndexWalkSource, includeDirs = false) {
  const walker = new Walker({ tool: "llm-discover", prefix: "LMD", cwd: root, cache, includeDirs });
  const entries = [...walker.entries()];
  return { entries, diagnostics: walker.diagnostics };
}

Deno.test("the indexed walk is served while its stamps hold and equals a real walk", async () => {
  const root = await indexedRoot();
  try {
    const index = openIndex(join(root, ".llm", "trigram.idx"))!;
    for (const includeDirs of [false, true]) {
      const source = new IndexWalkSource(index, "llm-discover", "LMD");
      const served = walk(root, source, includeDirs);
      assert.equal(source.served, true);
      assert.deepEqual(served, walk(root, undefined, includeDirs));
      assert.deepEqual(served.diagnostics.map((d) => d.code), ["LMD-IO-005"]);
    }
    Deno.writeTextFileSync(join(root, "src", "util", "new.c"), "int n;\n");
    const source = new IndexWalkSource(index, "llm-discover", "LMD");
    const walked = walk(root, source);
    assert.equal(source.served, false);
    assert.ok(walked.entries.some((entry) => entry.filePath === "src/util/new.c"));
    const hidden = new Walker({ tool: "t", prefix: "LMD", cwd: root, hidden: true, cache: source });
    assert.ok([...hidden.entries()].some((entry) => entry.filePath === ".hidden/x.txt"));
    assert.equal(source.served, false);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("llm-discover answers the same with and without the index", async () => {
  const root = await indexedRoot();
  try {
    for (const query of ["main", "str", "", "read"]) {
      const withIndex = await discover({ query, cwd: root });
      const without = await discover({ query, cwd: root, useIndex: false });
      assert.deepEqual(withIndex, without);
    }
    Deno.removeSync(join(root, "src", "main.c"));
    const withIndex = await discover({ query: "main", cwd: root });
    assert.deepEqual(withIndex, await discover({ query: "main", cwd: root, useIndex: false }));
    assert.equal(withIndex.data.count, 0);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
