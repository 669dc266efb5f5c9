import assert, { deepStrictEqual, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { extractFacts } from "./extract.ts";
import { factRows } from "./fact_rows.ts";
import { indexRoot } from "./indexer.ts";
import type { Extent, FileFacts } from "./facts.ts";
import { IndexStore, locateDb, storedPathFault } from "./store.ts";

function extentAt(index: number): Extent {
  return {
    byte_start: index * 10,
    byte_end: index * 10 + 3,
    start_line: index + 1,
    start_col: 0,
    end_line: index + 1,
    end_col: 3,
  };
}

/** A file with `count` definitions, uses and imports, alternating optional columns. */
function factsWith(count: number): FileFacts {
  const facts: FileFacts = {
    language: "c",
    symbols: [],
    references: [],
    imports: [],
    parse_errors: 2,
  };
  for (let i = 0; i < count; i++) {
    facts.symbols.push({
      name: `f${i}`,
      qualified_name: i % 2 ? `S.f${i}` : `f${i}`,
      kind: "function",
      extent: extentAt(i),
      name_extent: extentAt(i),
      signature: `int f${i}(void)`,
      ...(i % 2 ? { parent: "S" } : {}),
    });
    facts.references.push({
      name: `g${i}`,
      kind: i % 3 ? "call" : "reference",
      extent: extentAt(i),
      ...(i % 2 ? { enclosing: `f${i}` } : {}),
      ...(i % 5 ? {} : { qualifier: "obj" }),
    });
    facts.imports.push({
      target: `h${i}.h`,
      kind: "include",
      extent: extentAt(i),
      ...(i % 4 ? {} : { names: ["a", "b"] }),
    });
  }
  return facts;
}

Deno.test("store: every row of a file is stored as extracted, across insert chunk boundaries", () => {
  const root = Deno.makeTempDirSync();
  const store = IndexStore.open(locateDb(root, undefined, true), "write");
  try {
    for (const count of [0, 1, 63, 64, 65, 130]) {
      const path = `f${count}.c`;
      const facts = factsWith(count);
      store.transaction(() =>
        store.writeFile({ path, hash: "sha256:0", size: 1, mtime: 1, rows: factRows(path, facts) })
      );
      const file = store.file(path)!;
      strictEqual(file.parse_errors, 2);
      const symbols = store.symbolsOfFile(file.id);
      deepStrictEqual(
        symbols.map((
          row,
        ) => [row.name, row.qualified_name, row.parent, row.signature, row.byte_start]),
        facts.symbols.map((fact) => [
          fact.name,
          fact.qualified_name,
          fact.parent ?? null,
          fact.signature,
          fact.extent.byte_start,
        ]),
      );
      const refs = facts.references.flatMap((fact) =>
        store.refsNamed(fact.name, false).filter((row) => row.path === path)
      );
      deepStrictEqual(
        refs.map((row) => [row.name, row.is_call, row.enclosing, row.qualifier, row.end_line]),
        facts.references.map((fact) => [
          fact.name,
          fact.kind === "call" ? 1 : 0,
          fact.enclosing ?? null,
          fact.qualifier ?? null,
          fact.extent.end_line,
        ]),
      );
      deepStrictEqual(
        store.importsOfFile(file.id).map((row) => [row.target, row.names, row.end_col]),
        facts.imports.map((fact) => [
          fact.target,
          fact.names ? JSON.stringify(fact.names) : null,
          fact.extent.end_col,
        ]),
      );
    }
  } finally {
    store.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("store: counts follow writes, replacements, removals and rolled-back transactions", () => {
  const root = Deno.makeTempDirSync();
  const location = locateDb(root, undefined, true);
  const write = (store: IndexStore, path: string, count: number) =>
    store.writeFile({
      path,
      hash: "sha256:0",
      size: 1,
      mtime: 1,
      rows: factRows(path, factsWith(count)),
    });
  const facts = (store: IndexStore) => {
    const { symbols, references, imports } = store.counts();
    return [symbols, references, imports];
  };
  let store = IndexStore.open(location, "write");
  try {
    store.transaction(() => {
      write(store, "a.c", 70);
      write(store, "b.c", 5);
    });
    deepStrictEqual(facts(store), [75, 75, 75]);
    store.transaction(() => write(store, "a.c", 3));
    deepStrictEqual(facts(store), [8, 8, 8]);
    try {
      store.transaction(() => {
        write(store, "c.c", 9);
        throw new Error("rolled back");
      });
    } catch (error) {
      strictEqual((error as Error).message, "rolled back");
    }
    deepStrictEqual(facts(store), [8, 8, 8]);
    store.transaction(() => store.removeFile("b.c"));
    deepStrictEqual(facts(store), [3, 3, 3]);
    store.close();
    store = IndexStore.open(location, "read");
    deepStrictEqual(facts(store), [3, 3, 3]);
  } finally {
    store.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("store: making the lookup indexes replaces refs_name (name only) by refs_name_order", () => {
  const root = Deno.makeTempDirSync();
  try {
    const store = IndexStore.open(locateDb(root, undefined, true), "write");
    store.dropLookupIndexes();
    store.close();
    const db = new DatabaseSync(`${root}/.llm/index.db`);
    db.exec("CREATE INDEX refs_name ON refs(name)");
    db.close();
    const reopened = IndexStore.open(locateDb(root, undefined, false), "write");
    reopened.ensureLookupIndexes();
    reopened.close();
    const check = new DatabaseSync(`${root}/.llm/index.db`, { readOnly: true });
    const names = (check.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'refs_name%'",
    )
      .all() as { name: string }[]).map((row) => row.name);
    check.close();
    deepStrictEqual(names, ["refs_name_order"]);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("storedPathFault: only root-relative, normal paths are paths the walk stores", () => {
  for (const path of ["a.c", "src/a.c", ".github/x.py", "..a/b.c", "a/..b", "a b/c.d"]) {
    strictEqual(storedPathFault(path), undefined, path);
  }
  const faults = {
    "/etc/passwd": "it is absolute",
    "../../outside/util.c": "it climbs out of the root with '..'",
    "src/../../x.c": "it climbs out of the root with '..'",
    "src/..": "it climbs out of the root with '..'",
    "": "it is not a normal root-relative path",
    "./a.c": "it is not a normal root-relative path",
    "a//b.c": "it is not a normal root-relative path",
    "a/": "it is not a normal root-relative path",
    "a\0b": "it holds a NUL byte",
  };
  for (const [path, fault] of Object.entries(faults)) {
    strictEqual(storedPathFault(path), fault, path);
  }
});

Deno.test("store: a row naming a file outside the root, or under a link out of it, is never answered", () => {
  const root = Deno.makeTempDirSync();
  const outside = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${root}/src`);
    const store = IndexStore.open(locateDb(root, undefined, true), "write");
    const write = (path: string) =>
      store.transaction(() =>
        store.writeFile({
          path,
          hash: "sha256:0",
          size: 1,
          mtime: 1,
          rows: factRows(path, factsWith(1)),
        })
      );
    write("src/in.c");
    strictEqual(store.symbolsNamed("f0").length, 1);
    write("../out.c");
    const refused = (read: () => unknown) => {
      try {
        read();
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return "answered";
    };
    strictEqual(refused(() => store.symbolsNamed("f0")), "MAG-IO-023");
    strictEqual(refused(() => store.files()), "MAG-IO-023");
    strictEqual(refused(() => store.fileStamps()), "MAG-IO-023");
    store.transaction(() => store.removeFile("../out.c"));
    write("linked/x.c");
    Deno.symlinkSync(outside, `${root}/linked`);
    strictEqual(refused(() => store.symbolsNamed("f0")), "MAG-IO-023");
    // The refresh only compares stamps with its walk (which drops the row): those are answered.
    strictEqual(store.fileStamps().length, 2);
    store.close();
  } finally {
    Deno.removeSync(root, { recursive: true });
    Deno.removeSync(outside, { recursive: true });
  }
});

/** A word of letters only for `index` (digits would be split off a term). */
function word(index: number): string {
  let text = "";
  for (let n = index; text.length === 0 || n > 0; n = Math.floor(n / 26)) {
    text = String.fromCharCode(97 + (n % 26)) + text;
  }
  return `zq${text}`;
}

/** A Python file of `count` functions, each with a word of its own in its body (`<salt><word>body`). */
function pythonWith(count: number, salt: string): string {
  return Array.from(
    { length: count },
    (_, i) => `def handler_${word(i)}():\n    return "${salt} ${salt}${word(i)}body"\n`,
  ).join("") + `CONFIG = "${salt} moduleword"\n`;
}

async function writePython(store: IndexStore, path: string, text: string): Promise<void> {
  const facts = await extractFacts("python", text, undefined, { chunks: true });
  store.transaction(() =>
    store.writeFile({ path, hash: "sha256:0", size: 1, mtime: 1, rows: factRows(path, facts) })
  );
}

/** The qualified names (or `module <path>`) of the chunks that have `term`, best first. */
function matches(store: IndexStore, term: string): string[] {
  const best = store.chunkScores([{ term, weight: 1 }], 1000);
  return store.chunkRows(best.map((chunk) => chunk.rowid)).map((row) =>
    row.symbol ? `${row.path}:${row.symbol.qualified_name}` : `module ${row.path}`
  );
}

Deno.test("store: chunks carry their definitions' row ids, are found, and leave with their file", async () => {
  const root = Deno.makeTempDirSync();
  const location = locateDb(root, undefined, true);
  const store = IndexStore.open(location, "write");
  try {
    assert.equal(store.hasChunks(), true);
    // 130 definitions: three insert statements of symbols, whose ids must follow each other.
    await writePython(store, "pkg/first.py", pythonWith(130, "alpha"));
    await writePython(store, "pkg/second.py", pythonWith(3, "beta"));
    assert.equal(store.chunkCount(), 131 + 4 + 2);
    for (const i of [0, 63, 64, 127, 128, 129]) {
      assert.deepEqual(matches(store, `alpha${word(i)}body`), [`pkg/first.py:handler_${word(i)}`]);
    }
    assert.deepEqual(matches(store, "moduleword").sort(), [
      "pkg/first.py:CONFIG",
      "pkg/second.py:CONFIG",
    ]);
    // The module chunk: the text outside every definition (none here but blank lines), and
    // the path's parts as its name.
    const second = store.file("pkg/second.py")!;
    const module = store.chunkRows([-second.id]);
    assert.deepEqual(module, [{
      rowid: -second.id,
      file_id: second.id,
      path: "pkg/second.py",
      language: "python",
      symbol: null,
    }]);
    assert.ok(matches(store, "second").includes("module pkg/second.py"));
    // A name in the name column outweighs the same word in a body.
    await writePython(
      store,
      "pkg/third.py",
      "def zqname():\n    pass\n\ndef other():\n    zqname()\n",
    );
    assert.deepEqual(matches(store, "zqname"), ["pkg/third.py:zqname", "pkg/third.py:other"]);

    // Rewritten: the old words are gone, the new ones found, and the ids are the new rows'.
    await writePython(store, "pkg/first.py", pythonWith(2, "gamma"));
    assert.deepEqual(matches(store, "alpha"), []);
    assert.deepEqual(matches(store, `alpha${word(100)}body`), []);
    assert.deepEqual(matches(store, "gamma").sort(), [
      "pkg/first.py:CONFIG",
      `pkg/first.py:handler_${word(0)}`,
      `pkg/first.py:handler_${word(1)}`,
    ]);
    assert.deepEqual(matches(store, `gamma${word(1)}body`), [`pkg/first.py:handler_${word(1)}`]);
    assert.equal(store.chunkCount(), 4 + 5 + 3);
    // Removed: nothing of it is found, nor any row id it had.
    store.transaction(() => store.removeFile("pkg/second.py"));
    assert.deepEqual(matches(store, "beta"), []);
    assert.deepEqual(store.chunkRows([-second.id]), []);
    assert.equal(store.chunkCount(), 4 + 3);
    // Reused row ids (the largest are given again) name the new rows only.
    await writePython(store, "pkg/fourth.py", pythonWith(5, "delta"));
    assert.deepEqual(matches(store, `delta${word(4)}body`), [`pkg/fourth.py:handler_${word(4)}`]);
    assert.deepEqual(matches(store, "beta"), []);
    store.close();

    // A read-only open answers the same.
    const reader = IndexStore.open(locateDb(root, undefined, false), "read");
    assert.deepEqual(matches(reader, `gamma${word(1)}body`), [`pkg/first.py:handler_${word(1)}`]);
    assert.equal(reader.chunkCount(), 4 + 3 + 7);
    const weighted = reader.chunkScores(
      [{ term: "delta", weight: 1 }, { term: `delta${word(2)}body`, weight: 10 }],
      2,
    );
    assert.deepEqual(
      reader.chunkRows(weighted.map((chunk) => chunk.rowid)).map((row) => row.path),
      ["pkg/fourth.py", "pkg/fourth.py"],
    );
    assert.equal(reader.chunkRows([weighted[0].rowid])[0].symbol?.name, `handler_${word(2)}`);
    assert.ok(weighted[0].score > weighted[1].score);
    reader.close();
  } finally {
    store.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("store: termScores is BM25 by column weight; a term in most chunks is left out of chunkScores beside rarer ones", async () => {
  const root = Deno.makeTempDirSync();
  const store = IndexStore.open(locateDb(root, undefined, true), "write");
  try {
    await writePython(store, "common.py", pythonWith(6, "everywhere"));
    const { rowids, scores } = store.termScores("everywhere");
    assert.equal(rowids.length, 7); // six functions and CONFIG, not the module
    assert.ok([...scores].every((score) => score > 0));
    // In every chunk but the module's: more than half, an IDF of nothing. Beside a rarer term
    // it is left out; alone, in an index this small, its counts order the chunks.
    const rare = `everywhere${word(1)}body`;
    const both = store.chunkScores(
      [{ term: "everywhere", weight: 9 }, { term: rare, weight: 1 }],
      10,
    );
    assert.deepEqual(both, store.chunkScores([{ term: rare, weight: 1 }], 10));
    assert.equal(store.chunkScores([{ term: "everywhere", weight: 1 }], 10).length, 7);
    const name = store.termScores(`handler`, { nameWeight: 10, bodyWeight: 1 });
    const body = store.termScores(`handler`, { nameWeight: 1, bodyWeight: 1 });
    assert.ok(name.scores[0] > body.scores[0]);
    assert.equal(store.chunkFrequency("nosuchterm"), 0);
    assert.deepEqual(store.chunkScores([], 10), []);
    assert.deepEqual(store.chunkScores([{ term: "handler", weight: 1 }], 0), []);
    assert.deepEqual(store.chunkScores([{ term: `everywhere${word(1)}body`, weight: 0 }], 5), []);
    const one = store.chunkScores([{ term: `everywhere${word(1)}body`, weight: 2 }], 5);
    assert.equal(one.length, 1);
    const two = store.chunkScores([
      { term: "config", weight: 0.5 },
      { term: `everywhere${word(1)}body`, weight: 2 },
    ], 3);
    assert.deepEqual(two.map((chunk) => chunk.rowid).slice(0, 1), [one[0].rowid]);
    assert.equal(two.length, 2);
  } finally {
    store.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("store: an index written before the chunks is read as it is, and a writer adds them", async () => {
  const root = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${root}/a.py`, "def parse_header():\n    return 'zqword'\n");
    Deno.writeTextFileSync(`${root}/b.py`, "def other():\n    pass\n");
    assert.equal((await indexRoot({ root, threads: 0 })).result.parsed, 2);
    // What an index of facts version 2 held: no chunks table.
    const db = new DatabaseSync(`${root}/.llm/index.db`);
    db.exec("DROP TABLE chunks");
    db.exec("UPDATE meta SET value = '2' WHERE key = 'facts_version'");
    db.close();
    const reader = IndexStore.open(locateDb(root, undefined, false), "read");
    assert.equal(reader.hasChunks(), false);
    assert.deepEqual(reader.chunkScores([{ term: "zqword", weight: 1 }], 10), []);
    assert.equal(reader.chunkCount(), 0);
    assert.deepEqual(reader.termScores("zqword").rowids.length, 0);
    assert.deepEqual(reader.symbolsNamed("parse_header").map((row) => row.path), ["a.py"]);
    assert.equal(reader.counts().symbols, 2);
    // A writer adds the table; the facts are not current: the refresh extracts every file.
    const outcome = await indexRoot({ root, threads: 0 });
    assert.equal(outcome.result.parsed, 2);
    // A reader opened before sees the chunks once they are committed.
    assert.equal(reader.hasChunks(), true);
    assert.deepEqual(matches(reader, "zqword"), ["a.py:parse_header"]);
    reader.close();
    const store = IndexStore.open(locateDb(root, undefined, false), "read");
    assert.equal(store.hasChunks(), true);
    assert.equal(store.factsCurrent(), true);
    assert.deepEqual(matches(store, "zqword"), ["a.py:parse_header"]);
    assert.equal(store.chunkCount(), 4);
    store.close();
    // A current facts version without the table (no llm-symbols writes that) is not trusted.
    const again = new DatabaseSync(`${root}/.llm/index.db`);
    again.exec("DROP TABLE chunks");
    again.close();
    const writer = IndexStore.open(locateDb(root, undefined, false), "write");
    assert.equal(writer.factsCurrent(), false);
    writer.close();
    assert.equal((await indexRoot({ root, threads: 0 })).result.parsed, 2);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("store: a reader finds no index yet in a file a first build has created but not committed", () => {
  const root = Deno.makeTempDirSync();
  try {
    const location = locateDb(root, undefined, true);
    Deno.mkdirSync(join(root, ".llm"), { recursive: true });
    // A first build in another process: the file exists, empty, then as SQLite with no tables.
    Deno.writeFileSync(location.absPath, new Uint8Array(0));
    const noIndexYet = (error: unknown) => (error as { code?: string }).code === "MAG-IO-013";
    assert.throws(() => IndexStore.open(location, "read"), noIndexYet);
    const blank = new DatabaseSync(location.absPath);
    // A header written, no table left (VACUUM would need an attached database).
    blank.exec("CREATE TABLE scratch(x); DROP TABLE scratch");
    blank.close();
    assert.throws(() => IndexStore.open(location, "read"), noIndexYet);
    // Once written, the same file is read as an index.
    IndexStore.open(location, "write").close();
    IndexStore.open(location, "read").close();
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
