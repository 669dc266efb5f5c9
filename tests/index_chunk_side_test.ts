/**
 * A cold index run on workers writes the chunks' full-text table on a thread of its own and the
 * index takes that table whole (`core/symbol_index/chunk_side.ts`). Over generated trees, every
 * term scores every chunk exactly as in an index whose chunks were inserted by the calling
 * thread; FTS5's own integrity check passes; no side database is left behind; and a run stopped
 * before the index has the chunks leaves an index whose next run extracts every file again.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { indexRoot, refreshIndex } from "../core/symbol_index/indexer.ts";
import { IndexStore, locateDb } from "../core/symbol_index/store.ts";
import { chunkSidePath } from "../core/symbol_index/chunk_side.ts";
import { chunkTerms } from "../core/symbol_index/chunk_terms.ts";
import { Random } from "./search_regex_gen.ts";

const ROUNDS = Number(Deno.env.get("CHUNK_SIDE_ROUNDS") ?? 4);
const WORDS = [
  "parse",
  "args",
  "radius",
  "area",
  "token",
  "stream",
  "buffer",
  "flush",
  "retry",
  "http",
  "server",
  "error",
  "écrit",
];

function identifier(random: Random): string {
  const parts = Array.from({ length: 1 + random.int(3) }, () => random.pick(WORDS));
  return random.chance(0.5)
    ? parts.join("_")
    : parts.map((part) => part[0].toUpperCase() + part.slice(1)).join("");
}

/** A Python, C or TypeScript file of a few definitions whose names and bodies mix the words. */
function sourceFile(random: Random, index: number): { path: string; text: string } {
  const definitions = Array.from({ length: 1 + random.int(6) }, () => ({
    name: `${identifier(random)}${random.int(1000)}`,
    words: Array.from({ length: random.int(30) }, () => identifier(random)),
  }));
  switch (random.int(3)) {
    case 0:
      return {
        path: `py/m${index}.py`,
        text: `# ${identifier(random)} module\nimport os\n\n` +
          definitions.map((d) =>
            `def ${d.name}(${d.words.slice(0, 2).join(", ")}):\n` +
            `    """${d.words.join(" ")}"""\n    return ${d.words[0] ?? "None"}\n`
          ).join("\n"),
      };
    case 1:
      return {
        path: `c/f${index}.c`,
        text: `/* ${identifier(random)} */\n#include <stdio.h>\n` +
          definitions.map((d) =>
            `int ${d.name}(int ${d.words[0] ?? "x"}) {\n  /* ${d.words.join(" ")} */\n` +
            `  return 0;\n}\n`
          ).join("\n"),
      };
    default:
      return {
        path: `ts/t${index}.ts`,
        text: `// ${identifier(random)}\n` +
          definitions.map((d) =>
            `export function ${d.name}(${d.words.slice(0, 1).map((w) => `${w}: string`)}) {\n` +
            `  return ${JSON.stringify(d.words.join(" "))};\n}\n`
          ).join("\n"),
      };
  }
}

/** Runs `work` counting the side builds it starts (their workers). */
async function countingSideBuilds<T>(work: () => Promise<T>): Promise<[T, number]> {
  const original = globalThis.Worker;
  let started = 0;
  globalThis.Worker = class extends original {
    constructor(url: string | URL, options?: WorkerOptions) {
      if (String(url).endsWith("/chunk_side_worker.ts")) started++;
      super(url, options);
    }
  };
  try {
    return [await work(), started];
  } finally {
    globalThis.Worker = original;
  }
}

function writeTree(root: string, files: { path: string; text: string }[]): void {
  for (const { path, text } of files) {
    Deno.mkdirSync(join(root, path, ".."), { recursive: true });
    Deno.writeTextFileSync(join(root, path), text);
  }
}

/** Every chunk a term scores, named by its file and definition, with its score. */
function scoresByTerm(root: string, terms: readonly string[]): Map<string, string[]> {
  const store = IndexStore.open(locateDb(root, undefined, false), "read");
  try {
    const answers = new Map<string, string[]>();
    for (const term of terms) {
      const best = store.chunkScores([{ term, weight: 1 }], 10_000);
      const rows = new Map(
        store.chunkRows(best.map((chunk) => chunk.rowid)).map((row) => [
          row.rowid,
          `${row.path}#${row.symbol?.qualified_name ?? "<module>"}@${row.symbol?.byte_start ?? 0}`,
        ]),
      );
      answers.set(
        term,
        best.map((chunk) => `${rows.get(chunk.rowid)} ${chunk.score.toFixed(9)}`).sort(),
      );
    }
    return answers;
  } finally {
    store.close();
  }
}

/** FTS5's integrity check of the chunks' table, and the chunk count. */
function checkChunks(root: string): number {
  const db = new DatabaseSync(locateDb(root, undefined, false).absPath);
  try {
    db.exec("INSERT INTO chunks(chunks) VALUES ('integrity-check')");
    return (db.prepare("SELECT count(*) AS n FROM chunks_docsize").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

Deno.test("a side build's chunks score every term as chunks inserted by the calling thread", async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const random = new Random(7100 + round);
    const files = Array.from({ length: 40 + random.int(40) }, (_, i) => sourceFile(random, i));
    const side = Deno.makeTempDirSync({ prefix: "chunk-side-" });
    const inline = Deno.makeTempDirSync({ prefix: "chunk-inline-" });
    try {
      writeTree(side, files);
      writeTree(inline, files);
      const [sideRun, sideBuilds] = await countingSideBuilds(() =>
        indexRoot({ root: side, threads: 2, sideChunks: true })
      );
      assert.equal(sideBuilds, 1);
      const [inlineRun, noSideBuild] = await countingSideBuilds(() =>
        indexRoot({ root: inline, threads: 2, sideChunks: false })
      );
      assert.equal(noSideBuild, 0);
      assert.equal(sideRun.result.symbols, inlineRun.result.symbols);
      const location = locateDb(side, undefined, false);
      assert.equal(Deno.statSync(join(side, ".llm")).isDirectory, true);
      assert.throws(() => Deno.statSync(chunkSidePath(location.absPath)), Deno.errors.NotFound);
      const chunks = checkChunks(side);
      assert.equal(chunks, checkChunks(inline));
      assert.equal(chunks, sideRun.result.symbols + files.length);
      const terms = [...new Set(files.flatMap((file) => chunkTerms(file.text)))];
      assert.ok(terms.length > 20);
      assert.deepEqual(scoresByTerm(side, terms), scoresByTerm(inline, terms), `round ${round}`);
    } finally {
      Deno.removeSync(side, { recursive: true });
      Deno.removeSync(inline, { recursive: true });
    }
  }
});

Deno.test("a run stopped before the index takes the side build's chunks leaves them to the next run", async () => {
  const random = new Random(7200);
  const root = Deno.makeTempDirSync({ prefix: "chunk-side-stop-" });
  try {
    const files = Array.from({ length: 120 }, (_, i) => sourceFile(random, i));
    writeTree(root, files);
    // Stopped once every file is written: their facts are in, their chunks are not yet.
    const location = locateDb(root, undefined, true);
    const writing = IndexStore.open(location, "write");
    try {
      await assert.rejects(
        refreshIndex(writing, {
          root,
          threads: 2,
          sideChunks: true,
          afterWrite: () => Promise.reject(new Error("stopped")),
        }),
        /stopped/,
      );
      assert.ok(writing.counts().symbols > 0);
    } finally {
      writing.close();
    }
    // The side database stays for the next run, which takes what it holds and extracts again
    // only the files whose chunks it lacks.
    const sidePath = chunkSidePath(location.absPath);
    assert.ok(Deno.statSync(sidePath).isFile);
    // As if the run had been killed before the side build wrote the last files' chunks.
    const index = new DatabaseSync(location.absPath, { readOnly: true });
    const lastFiles = index.prepare("SELECT id FROM files ORDER BY id DESC LIMIT 5").all();
    index.close();
    const side = new DatabaseSync(sidePath);
    for (const { id } of lastFiles as { id: number }[]) {
      side.prepare("DELETE FROM chunks WHERE rowid = ?").run(-id);
    }
    side.close();
    const next = await indexRoot({ root, threads: 2 });
    assert.equal(next.result.parsed + next.result.unchanged, files.length);
    assert.ok(next.result.parsed >= 5, `${next.result.parsed} files extracted again`);
    assert.ok(next.result.unchanged > 0, "the files with their chunks are kept");
    assert.throws(() => Deno.statSync(chunkSidePath(location.absPath)), Deno.errors.NotFound);
    assert.equal(checkChunks(root), next.result.symbols + files.length);
    const store = IndexStore.open(location, "read");
    assert.deepEqual(store.filesWithoutChunks(), []);
    store.close();
    const [again, sideBuilds] = await countingSideBuilds(() => indexRoot({ root, threads: 2 }));
    assert.equal(again.result.parsed, 0);
    assert.equal(sideBuilds, 0, "an index that holds files takes its chunks on the calling thread");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
