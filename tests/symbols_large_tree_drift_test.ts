/**
 * No drift at scale: on a generated tree of 20,000 small C files (what differs from the small
 * trees of `symbols_incremental_property_test.ts`: parse workers and many write batches, the
 * repository index's stamp worker, which starts at 20,000 entries, and its recorded walk) plus a
 * header larger than `max_file_bytes` (Linux has several), `verify` finds the index in sync after
 * the first run and after each incremental run, whose edits are those of the report: a file
 * unlinked and written again with a comment (a new inode, its folder changed), an in-place edit
 * of a dated tree (the recorded walk serves it), a same-size rewrite within the clock's racy
 * window of the previous stat, with its mtime set back to the old one, a file added and one
 * removed. Every stored hash is the hash of the file on disk, and the facts of the files edited
 * are those a fresh extraction gives.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import { verifyIndex } from "../tools/symbols/freshness.ts";
import { extractFacts } from "../core/symbol_index/extract.ts";
import { SYMBOLS_DEFAULTS } from "../tools/symbols/defaults.ts";
import { recordedWalk, walkCandidates } from "../core/symbol_index/candidates.ts";
import type { IndexWalkSource } from "../core/trigram/walk_source.ts";
import { parseJson, runEntry } from "./helpers.ts";

const FILES = 20_000;
const PER_FOLDER = 100;

function pathOf(i: number): string {
  return `d${Math.floor(i / PER_FOLDER)}/f${i}.c`;
}

function sourceOf(i: number, salt = ""): string {
  return `#include "common.h"\n\nstatic int f${i}(int x)\n{\n  return g${
    (i * 7) % FILES
  }(x) + 1;\n}\n` +
    `int pub${i}(void) { return f${i}(${i % 10}); }\n${salt}`;
}

/** The folder `dir`, and every folder and file in it, dated back to `when`. */
function dateBack(dir: string, when: Date): void {
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name === ".llm") continue;
    if (entry.isDirectory) dateBack(join(dir, entry.name), when);
    else Deno.utimeSync(join(dir, entry.name), when, when);
  }
  Deno.utimeSync(dir, when, when);
}

async function assertInSync(root: string, when: string, removed = 0): Promise<void> {
  const { data, diagnostics } = await verifyIndex({ root });
  assert.equal(data.in_sync, true, `${when}: ${JSON.stringify(data.results.slice(0, 5))}`);
  assert.equal(data.checked, FILES + 2 - removed, when);
  // The header over max_file_bytes is left out by `index` and named in a note by `verify`.
  assert.ok(diagnostics.some((d) => d.code === "MAG-IO-015"), when);
}

/** The stored symbols of `path`, as `kind qualified_name`. */
function storedSymbols(root: string, path: string): string[] {
  const database = new DatabaseSync(join(root, ".llm/index.db"), { readOnly: true });
  try {
    return (database.prepare(
      "SELECT s.kind, s.qualified_name FROM symbols s JOIN files f ON f.id = s.file_id " +
        "WHERE f.path = ? ORDER BY s.byte_start",
    ).all(path) as { kind: string; qualified_name: string }[]).map((row) =>
      `${row.kind} ${row.qualified_name}`
    );
  } finally {
    database.close();
  }
}

async function assertFacts(root: string, path: string): Promise<void> {
  const facts = await extractFacts("c", Deno.readTextFileSync(join(root, path)));
  assert.deepEqual(
    storedSymbols(root, path),
    facts.symbols.map((symbol) => `${symbol.kind} ${symbol.qualified_name}`),
    path,
  );
}

Deno.test({
  name: "index: no drift after incremental runs on a 20,000-file tree",
  // The SQLite handles of the index are closed; the repository index's reader keeps its file
  // open for the process's later searches, by design.
  sanitizeResources: false,
  async fn() {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "symbols-large-" }));
    try {
      for (let folder = 0; folder < FILES / PER_FOLDER; folder++) {
        Deno.mkdirSync(join(root, `d${folder}`));
      }
      for (let i = 0; i < FILES; i++) Deno.writeTextFileSync(join(root, pathOf(i)), sourceOf(i));
      Deno.writeTextFileSync(join(root, "common.h"), "int common(int x);\n");
      const huge = "#define REG 0x1\n".repeat(SYMBOLS_DEFAULTS.maxFileBytes / 16 + 64);
      Deno.writeTextFileSync(join(root, "d0/huge_sh_mask.h"), huge);
      dateBack(root, new Date(Date.now() - 3_600_000));
      const first = await indexRoot({ root });
      assert.equal(first.result.parsed, FILES + 1);
      await assertInSync(root, "after the first run");
      // The first run made `.llm/` in the root, just before it built the repository index,
      // whose recorded walk is then not trusted: dated back and built again, it is.
      dateBack(root, new Date(Date.now() - 1_800_000));
      Deno.removeSync(join(root, ".llm/trigram.idx"));
      assert.equal((await indexRoot({ root })).result.parsed, 0);

      // Edited in place (no folder changed, the tree dated back): the recorded walk holds, and
      // the repository index's worker stats the files.
      const inPlace = pathOf(6_673);
      Deno.writeTextFileSync(join(root, inPlace), sourceOf(6_673, "int added(void);\n"));
      const racy = pathOf(2 * PER_FOLDER + 5);
      Deno.writeTextFileSync(join(root, racy), sourceOf(2 * PER_FOLDER + 5));
      Deno.utimeSync(join(root, inPlace), new Date(), new Date());
      // Stamped ahead of every run's start: each run finds it racy, however long the runs take
      // on a loaded machine (one stamped "now" stops being racy once a run starts 2 s later).
      const ahead = new Date(Date.now() + 3_600_000);
      Deno.utimeSync(join(root, racy), ahead, ahead);
      const recorded = await recordedWalk(root);
      const cache = recorded?.cache as IndexWalkSource | undefined;
      walkCandidates({ root, walk: { cache }, stat: recorded?.stat }, ".llm/index.db", []);
      recorded?.close();
      assert.equal(cache?.served, true, "the recorded walk is served");
      let next = await indexRoot({ root });
      assert.equal(next.result.parsed, 1, JSON.stringify(next.result));
      await assertInSync(root, "after an edit in place");

      // Unlinked and written again with a comment, in a middle folder (a new inode).
      const unlinked = pathOf(10_003);
      Deno.removeSync(join(root, unlinked));
      Deno.writeTextFileSync(join(root, unlinked), sourceOf(10_003, "/* edited */\n"));
      next = await indexRoot({ root });
      assert.equal(next.result.parsed, 1, JSON.stringify(next.result));
      await assertInSync(root, "after an unlink and a rewrite");
      for (const path of [unlinked, inPlace]) await assertFacts(root, path);

      // A rewrite at the same size with the same mtime as the stamp the last runs took within
      // the clock's racy window: only its smudged size makes the next run read it.
      const stamp = Deno.statSync(join(root, racy)).mtime!;
      const swapped = sourceOf(2 * PER_FOLDER + 5).replace("+ 1;", "- 1;");
      Deno.writeTextFileSync(join(root, racy), swapped);
      Deno.utimeSync(join(root, racy), stamp, stamp);
      // A file added and one removed, in other folders.
      Deno.writeTextFileSync(join(root, "d7/added.c"), "int added(void) { return 1; }\n");
      Deno.removeSync(join(root, pathOf(FILES - 1)));
      next = await indexRoot({ root });
      assert.deepEqual([next.result.parsed, next.result.removed], [2, 1]);
      await assertInSync(root, "after a racy same-size rewrite, an addition and a removal", 0);
      await assertFacts(root, racy);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("verify applies the index run's max_file_bytes; a file left out as too large is no drift", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "symbols-max-bytes-" }));
  const entry = "tools/symbols/main.ts";
  const run = (args: string[], write = false) =>
    runEntry(entry, args, {
      cwd: root,
      permissions: ["--allow-read", ...(write ? [`--allow-write=${join(root, ".llm")}`] : [])],
    });
  try {
    Deno.writeTextFileSync(join(root, "small.c"), "int f(void) { return 1; }\n");
    Deno.writeTextFileSync(
      join(root, "big.c"),
      `int g(void) { return 2; }\n${"// x\n".repeat(60)}`,
    );
    const index = await run(["index", "--threads", "0", "--max-file-bytes", "200"], true);
    assert.equal(index.code, 0, index.stderr);
    const inSync = await run(["verify"]);
    assert.equal(inSync.code, 0, inSync.stdout);
    const data = (parseJson(inSync) as { data: { in_sync: boolean } }).data;
    assert.equal(data.in_sync, true);
    // Given a larger bound than the run's, verify counts the file the run left out.
    const wider = await run(["verify", "--max-file-bytes", "100000"]);
    assert.equal(wider.code, 1, wider.stdout);
    assert.deepEqual(
      (parseJson(wider) as { data: { results: unknown[] } }).data.results,
      [{ file_path: "big.c", drift: "new" }],
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
