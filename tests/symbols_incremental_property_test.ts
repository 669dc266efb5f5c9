/**
 * Incremental `index` equals a fresh one: on generated trees, rounds of random edits, additions,
 * deletions, renames (within and across folders, into new folders) and ignore-file changes are
 * each followed by an incremental run on the same index, whose every stored fact (files, symbols,
 * references, imports, failures) must equal those of a fresh index of a copy of the tree.
 *
 * The incremental run takes the walk the repository index recorded (`.llm/trigram.idx`) when no
 * folder or ignore file of it changed. That walk is only trusted when its folders changed more
 * than the clock's racy window before the build, so every path a round touches is dated back to
 * a time of its own, as if the edits were made a while ago; rounds that only edit contents are
 * checked to be served from the recorded walk, so the shortcut is exercised, not bypassed.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import { recordedWalk, walkCandidates } from "../core/symbol_index/candidates.ts";
import type { IndexWalkSource } from "../core/trigram/walk_source.ts";
import { seededRandom } from "./helpers.ts";

/** The index of every run, root-relative. */
const DB = ".llm/index.db";

/** The content of a generated file: definitions calling each other, in C or Python. */
function source(path: string, random: () => number, names: string[]): string {
  const own = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => {
    const name = `f${Math.floor(random() * 40)}_${i}`;
    names.push(name);
    return name;
  });
  const callee = () => names[Math.floor(random() * names.length)];
  if (path.endsWith(".py")) {
    return `import os\n\n` +
      own.map((name) => `def ${name}():\n    return ${callee()}()\n`).join("\n");
  }
  return `#include "common.h"\n\n` +
    own.map((name) => `int ${name}(int x)\n{\n  return ${callee()}(x) + ${callee()}(1);\n}\n`)
      .join("\n");
}

/** Every stored fact of the index at `db`, by path, without row ids. */
function dump(db: string): Record<string, unknown[]> {
  const database = new DatabaseSync(db, { readOnly: true });
  try {
    const rows = (sql: string) => database.prepare(sql).all();
    const extent = "byte_start, byte_end, start_line, start_col, end_line, end_col";
    return {
      // Sizes are stamps, not facts: a stamp taken in the tick of a write is smudged (-1).
      files: rows("SELECT path, hash, language, parse_errors FROM files ORDER BY path"),
      symbols: rows(
        `SELECT f.path, s.symbol_id, s.name, s.qualified_name, s.kind, s.parent, s.signature, ` +
          `s.${extent.replaceAll(", ", ", s.")} FROM symbols s JOIN files f ON f.id = s.file_id ` +
          "ORDER BY f.path, s.byte_start, s.symbol_id",
      ),
      refs: rows(
        `SELECT f.path, r.name, r.is_call, r.enclosing, r.qualifier, ` +
          `r.${extent.replaceAll(", ", ", r.")} FROM refs r JOIN files f ON f.id = r.file_id ` +
          "ORDER BY f.path, r.byte_start, r.name, r.is_call",
      ),
      imports: rows(
        `SELECT f.path, i.target, i.kind, i.names, i.${extent.replaceAll(", ", ", i.")} ` +
          "FROM imports i JOIN files f ON f.id = i.file_id ORDER BY f.path, i.byte_start",
      ),
      failures: rows("SELECT path, hash, reason FROM failures ORDER BY path"),
    };
  } finally {
    database.close();
  }
}

/** Copies the tree at `from` to `to`, leaving `.llm/` out. */
function copyTree(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const entry of Deno.readDirSync(from)) {
    if (entry.name === ".llm") continue;
    if (entry.isDirectory) copyTree(join(from, entry.name), join(to, entry.name));
    else Deno.copyFileSync(join(from, entry.name), join(to, entry.name));
  }
}

/** Every recorded size of the index of `root` is the file's size on disk, or smudged (-1). */
function assertStampsTrue(root: string, message: string): void {
  const database = new DatabaseSync(join(root, ".llm/index.db"), { readOnly: true });
  try {
    const rows = database.prepare("SELECT path, size FROM files").all();
    for (const { path, size } of rows as { path: string; size: number }[]) {
      if (size !== -1) assert.equal(size, Deno.statSync(join(root, path)).size, message);
    }
  } finally {
    database.close();
  }
}

/** The tree's source files, root-relative. */
function sources(root: string, folder = ""): string[] {
  return [...Deno.readDirSync(join(root, folder))].flatMap((entry) => {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.name === ".llm" || entry.name === ".ignore") return [];
    return entry.isDirectory ? sources(root, path) : [path];
  });
}

/** One round's changes to the tree; the paths it touched (files, their folders, `.ignore`). */
function mutate(root: string, random: () => number, names: string[], round: number): string[] {
  const touched: string[] = [];
  const pick = () => {
    const files = sources(root).filter((path) => !path.endsWith(".h"));
    return files[Math.floor(random() * files.length)];
  };
  const write = (path: string, text: string) => {
    Deno.mkdirSync(dirname(join(root, path)), { recursive: true });
    Deno.writeTextFileSync(join(root, path), text);
    touched.push(path, dirname(path));
  };
  // Two files' contents change every round, so at least one is parsed again (`.ignore` leaves
  // one out at most) and the run builds the repository index again: the next round may take
  // its recorded walk.
  const edits = sources(root).filter((path) => !path.endsWith(".h")).slice(0, 2);
  edits.forEach((path) => write(path, source(path, random, names) + `# round ${round}\n`));
  const operations = round % 3 === 0 ? 0 : 1 + Math.floor(random() * 3);
  for (let i = 0; i < operations; i++) {
    const kind = Math.floor(random() * 7);
    const path = pick();
    const extension = random() < 0.5 ? "c" : "py";
    const added = kind === 1 ? `src/n${round}_${i}.${extension}` : `new${round}/m${i}.${extension}`;
    if (kind === 0 && path) write(path, source(path, random, names) + `# round ${round}\n`);
    else if (kind === 1 || kind === 2) write(added, source(added, random, names));
    else if (kind === 3 && path) {
      Deno.removeSync(join(root, path));
      touched.push(dirname(path));
    } else if (kind === 4 && path) {
      const target = `${dirname(path)}/r${round}_${i}${path.slice(path.lastIndexOf("."))}`;
      Deno.renameSync(join(root, path), join(root, target));
      touched.push(target, dirname(path));
    } else if (kind === 5 && path) {
      const target = `lib/x${round}_${i}${path.slice(path.lastIndexOf("."))}`;
      Deno.mkdirSync(join(root, "lib"), { recursive: true });
      Deno.renameSync(join(root, path), join(root, target));
      touched.push(target, dirname(path), "lib");
    } else if (kind === 6 && path) {
      // The ignore file leaves one file out, or lets every file in again.
      const ignore = join(root, ".ignore");
      if (random() < 0.5) Deno.writeTextFileSync(ignore, `${path}\n`);
      else Deno.writeTextFileSync(ignore, "# nothing ignored\n");
      touched.push(".ignore");
    }
  }
  return touched;
}

/**
 * Dates those of `paths` (and the root) that changed since `since` back to `when`: changes made
 * long before the next run. A folder whose entries did not change keeps its time.
 */
function dateBack(root: string, paths: string[], since: number, when: Date): void {
  for (const path of new Set([...paths, "."])) {
    let mtime: number;
    try {
      mtime = Deno.statSync(join(root, path)).mtime?.getTime() ?? 0;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    if (mtime >= since) Deno.utimeSync(join(root, path), when, when);
  }
}

Deno.test("index: incremental runs store exactly what a fresh index of the same tree stores", async () => {
  const seed = Number(Deno.env.get("SYMBOLS_PROPERTY_SEED") ?? Date.now() % 100_000);
  const random = seededRandom(seed);
  const base = Deno.makeTempDirSync({ prefix: "symbols-incremental-" });
  const root = join(base, "tree");
  const names: string[] = [];
  // Every dated path gets a time of its own, an hour back and never reused.
  let clock = Date.now() - 3_600_000;
  const older = () => new Date(clock += 1000);
  try {
    Deno.mkdirSync(join(root, "src"), { recursive: true });
    Deno.mkdirSync(join(root, "pkg"));
    Deno.writeTextFileSync(join(root, "src/common.h"), "int shared(int x);\n");
    for (let i = 0; i < 8; i++) {
      const path = `${i % 2 ? "pkg" : "src"}/f${i}.${i % 3 ? "c" : "py"}`;
      Deno.writeTextFileSync(join(root, path), source(path, random, names));
    }
    await indexRoot({ root, threads: 0 });
    // The first run made `.llm/` in the root: its time too is dated back.
    dateBack(root, ["src", "pkg"], 0, older());
    let served = 0;
    for (let round = 1; round <= 12; round++) {
      const since = Date.now() - 1000;
      const touched = mutate(root, random, names, round);
      dateBack(root, touched, since, older());
      if (round % 3 === 0) {
        const recorded = await recordedWalk(root);
        const cache = recorded?.cache as IndexWalkSource | undefined;
        const listed = walkCandidates({ root, walk: { cache }, stat: recorded?.stat }, DB, []);
        recorded?.close();
        if (cache?.served) served++;
        assert.deepEqual(listed, walkCandidates({ root }, DB, []), `seed ${seed}, round ${round}`);
      }
      await indexRoot({ root, threads: 0 });
      const fresh = join(base, `fresh${round}`);
      copyTree(root, fresh);
      await indexRoot({ root: fresh, threads: 0 });
      assert.deepEqual(
        dump(join(root, ".llm/index.db")),
        dump(join(fresh, ".llm/index.db")),
        `seed ${seed}, round ${round}`,
      );
      assertStampsTrue(root, `seed ${seed}, round ${round}`);
      Deno.removeSync(fresh, { recursive: true });
    }
    assert.equal(served, 4, `seed ${seed}: content-only rounds take the recorded walk`);
  } finally {
    Deno.removeSync(base, { recursive: true });
  }
});
