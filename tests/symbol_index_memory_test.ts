/**
 * `indexInMemory` builds the same index as `indexRoot`, row for row, without writing anything:
 * no `.llm/` folder, no lock file, no repository index, and it runs under a read permission
 * scoped to the root (where no worker can start, so extraction falls back to the calling thread).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { indexInMemory, indexRoot } from "../core/symbol_index/indexer.ts";
import {
  IN_MEMORY,
  IndexStore,
  locateDb,
  type RefRow,
  type SymbolRow,
} from "../core/symbol_index/store.ts";
import { makeTree, REPO } from "./helpers.ts";

const TREE: Record<string, string> = {
  "py/shapes.py": `import math


class Circle:
    """A circle of some radius."""

    def __init__(self, radius):
        self.radius = radius

    def area(self):
        return square(self.radius) * math.pi

    def grow(self, by):
        self.radius = clamp(self.radius + by)
        return self.area()


def square(x):
    return x * x


def clamp(x):
    return max(0, x)
`,
  "py/main.py": `from shapes import Circle, square


def run(args):
    circle = Circle(len(args))
    print(circle.grow(2))
    return square(circle.area())


if __name__ == "__main__":
    run([])
`,
  "c/util.h": `#ifndef UTIL_H
#define UTIL_H
struct point { int x; int y; };
int clamp_int(int value, int low, int high);
int distance(struct point a, struct point b);
#endif
`,
  "c/util.c": `#include <stdlib.h>
#include "util.h"

int clamp_int(int value, int low, int high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

int distance(struct point a, struct point b) {
  return abs(a.x - b.x) + abs(a.y - b.y);
}
`,
  "c/main.c": `#include <stdio.h>
#include "util.h"

static int radius_of(struct point p) {
  struct point origin = { 0, 0 };
  return clamp_int(distance(p, origin), 0, 100);
}

int main(void) {
  struct point p = { 3, 4 };
  printf("%d\\n", radius_of(p));
  return 0;
}
`,
  "notes.txt": "not a language the index reads\n",
};

/** A row without its file id, which depends on the order the files were written in. */
function withoutFileId<T extends { file_id: number }>(row: T): Omit<T, "file_id"> {
  const { file_id: _, ...rest } = row;
  return rest;
}

/** Everything the comparison asks of an index, keyed by paths and names only. */
function describe(store: IndexStore): Record<string, unknown> {
  const files = store.files();
  const names = store.allNames().sort();
  const called = new Set<string>();
  for (const group of store.useGroups(true)) called.add(group.name);
  const symbolsOfFile: Record<string, Omit<SymbolRow, "file_id">[]> = {};
  const callsWithin: Record<string, Omit<RefRow, "file_id">[]> = {};
  for (const file of files) {
    const symbols = store.symbolsOfFile(file.id);
    symbolsOfFile[file.path] = symbols.map(withoutFileId);
    for (const symbol of symbols) {
      const key = `${file.path}#${symbol.qualified_name}`;
      callsWithin[key] = store.callsWithin(file.id, symbol.qualified_name).map(withoutFileId);
    }
  }
  const symbolsNamed: Record<string, unknown> = {};
  for (const name of names) symbolsNamed[name] = store.symbolsNamed(name).map(withoutFileId);
  const refsNamed: Record<string, unknown> = {};
  for (const name of [...new Set([...names, ...called])].sort()) {
    refsNamed[name] = store.refsNamed(name, true).map(withoutFileId);
  }
  const chunks = store.hasChunks()
    ? {
      count: store.chunkCount(),
      scores: [["radius"], ["clamp", "point"], ["square", "area"]].map((terms) => {
        const best = store.chunkScores(terms.map((term) => ({ term, weight: 1 })), 100);
        const rows = store.chunkRows(best.map((chunk) => chunk.rowid));
        // Rowids are file and definition ids: the chunks are named by path and name instead,
        // and equal scores (ordered by rowid) by name too.
        return rows.map((row, i) => ({
          path: row.path,
          symbol: row.symbol?.qualified_name ?? null,
          score: best[i].score,
        })).sort((a, b) =>
          b.score - a.score || a.path.localeCompare(b.path) ||
          String(a.symbol).localeCompare(String(b.symbol))
        );
      }),
    }
    : undefined;
  return {
    files: files.map(({ path, hash, language, parse_errors }) => ({
      path,
      hash,
      language,
      parse_errors,
    })),
    names,
    symbolsOfFile,
    symbolsNamed,
    refsNamed,
    callsWithin,
    chunks,
  };
}

/** The names of the entries of `root`, recursively, sorted. */
function entriesOf(root: string, under = ""): string[] {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(join(root, under))) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    names.push(path);
    if (entry.isDirectory) names.push(...entriesOf(root, path));
  }
  return names.sort();
}

for (const threads of [0, 2]) {
  Deno.test(`indexInMemory: the same rows as indexRoot (threads ${threads})`, async () => {
    const root = await makeTree(TREE);
    try {
      const before = entriesOf(root);
      const memory = await indexInMemory({ root, threads });
      let inMemory: Record<string, unknown>;
      try {
        assert.equal(memory.store.location.displayPath, IN_MEMORY);
        assert.equal(memory.store.location.root, Deno.realPathSync(root));
        assert.equal(memory.outcome.result.db_path, IN_MEMORY);
        assert.deepEqual(memory.outcome.result.written, []);
        assert.equal(memory.outcome.result.trigram_index, undefined);
        assert.deepEqual(entriesOf(root), before, "the in-memory build wrote into the tree");
        assert.equal(memory.store.hasChunks(), true);
        inMemory = describe(memory.store);
      } finally {
        memory.store.close();
      }
      for (const name of [IN_MEMORY, IN_MEMORY + ".lock", IN_MEMORY + "-wal"]) {
        assert.throws(() => Deno.lstatSync(name), Deno.errors.NotFound, `${name} was made`);
      }

      const onDisk = await indexRoot({ root, threads });
      assert.ok(entriesOf(root).includes(".llm/index.db"));
      for (const key of ["files_seen", "parsed", "symbols", "references", "imports"] as const) {
        assert.equal(memory.outcome.result[key], onDisk.result[key], key);
      }
      assert.deepEqual(
        memory.outcome.diagnostics.map((diagnostic) => diagnostic.code),
        onDisk.diagnostics.map((diagnostic) => diagnostic.code),
      );
      const store = IndexStore.open(locateDb(root, undefined, false), "read");
      let fromFile: Record<string, unknown>;
      try {
        fromFile = describe(store);
      } finally {
        store.close();
      }
      assert.deepEqual(inMemory, fromFile);
      // The tree's definitions, calls and chunks are all there (the comparison is not vacuous).
      assert.deepEqual(
        (inMemory.files as { path: string }[]).map((file) => file.path),
        ["c/main.c", "c/util.c", "c/util.h", "py/main.py", "py/shapes.py"],
      );
      const names = inMemory.names as string[];
      for (const name of ["Circle", "area", "grow", "square", "clamp", "clamp_int", "radius_of"]) {
        assert.ok(names.includes(name), name);
      }
      const refs = inMemory.refsNamed as Record<string, { enclosing: string | null }[]>;
      assert.deepEqual(
        refs.square.map((use) => use.enclosing).sort(),
        ["Circle.area", "run"],
      );
      const calls = inMemory.callsWithin as Record<string, { name: string }[]>;
      assert.deepEqual(calls["c/main.c#radius_of"].map((call) => call.name), [
        "clamp_int",
        "distance",
      ]);
      const chunks = inMemory.chunks as { count: number; scores: unknown[][] };
      assert.ok(chunks.count > 0);
      assert.ok(chunks.scores.every((scores) => scores.length > 0));
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("indexInMemory: runs with read permission for the root only, and writes nothing", async () => {
  const root = await makeTree(TREE);
  const scripts = await Deno.makeTempDir({ prefix: "llm-memory-index-script-" });
  try {
    const before = entriesOf(root);
    const script = join(scripts, "build.ts");
    const indexer = new URL("../core/symbol_index/indexer.ts", import.meta.url).href;
    const workers = new URL("../core/workers.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { indexInMemory } from ${JSON.stringify(indexer)};
import { workersAvailable } from ${JSON.stringify(workers)};
const { store, outcome } = await indexInMemory({ root: Deno.args[0], threads: 2 });
try {
  console.log(JSON.stringify({
    workers: workersAvailable(),
    files: store.counts().files,
    symbols: outcome.result.symbols,
    squareCalls: store.refsNamed("square", true).length,
    written: outcome.result.written,
    diagnostics: outcome.diagnostics.map((diagnostic) => diagnostic.code),
  }));
} finally {
  store.close();
}
`,
    );
    const output = await new Deno.Command("deno", {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        `--config=${join(REPO, "deno.json")}`,
        `--allow-read=${root}`,
        script,
        root,
      ],
      cwd: scripts,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const answer = JSON.parse(new TextDecoder().decode(output.stdout));
    const { store, outcome } = await indexInMemory({ root, threads: 0 });
    try {
      assert.deepEqual(answer, {
        // No worker can start from a local checkout under this permission: the calling thread
        // extracted every file.
        workers: false,
        files: store.counts().files,
        symbols: outcome.result.symbols,
        squareCalls: 2,
        written: [],
        diagnostics: outcome.diagnostics.map((diagnostic) => diagnostic.code),
      });
      assert.equal(answer.files, 5);
    } finally {
      store.close();
    }
    assert.deepEqual(entriesOf(root), before);
    assert.ok(!entriesOf(root).includes(".llm"));
    assert.deepEqual(entriesOf(scripts), ["build.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(scripts, { recursive: true });
  }
});

Deno.test("IndexStore.inMemory: no file is opened or discarded by its location", async () => {
  const root = await makeTree({ "a.py": "def f():\n    pass\n" });
  try {
    const store = IndexStore.inMemory(root);
    try {
      assert.equal(store.location.inMemory, true);
      assert.throws(() => IndexStore.open(store.location, "read"), /in memory/);
      assert.equal(store.meta("tool"), "llm-symbols");
      assert.equal(store.factsCurrent(), true);
    } finally {
      store.close();
    }
    assert.deepEqual(entriesOf(root), ["a.py"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("chunkScores within a set of chunks scores those alone, as they score among all", async () => {
  const root = await makeTree({
    "a.py": "def parse_radius(x):\n    return radius(x)\n\ndef parse_area(x):\n    return x\n",
    "b.py": "def radius_of(y):\n    return y\n",
  });
  try {
    await indexRoot({ root, threads: 0 });
    const store = IndexStore.open(locateDb(root, undefined, false), "read");
    try {
      const terms = [{ term: "radius", weight: 1 }, { term: "area", weight: 1 }];
      const all = store.chunkScores(terms, 100);
      const rows = store.chunkRows(all.map((chunk) => chunk.rowid));
      assert.deepEqual(rows.map((row) => row.path).sort(), ["a.py", "a.py", "b.py"]);
      const fileId = rows.find((row) => row.path === "a.py")!.file_id;
      const within = new Set(store.symbolIdsOfFile(fileId));
      assert.equal(within.size, 2, "a.py's two definitions");
      const only = store.chunkScores(terms, 100, { within });
      assert.deepEqual(only.map((chunk) => chunk.rowid).sort(), [...within].sort());
      // The same scores as in the whole query: the set filters, it does not rescore.
      for (const chunk of only) {
        assert.equal(chunk.score, all.find((c) => c.rowid === chunk.rowid)?.score);
      }
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
