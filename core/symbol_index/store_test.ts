import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { factRows } from "./fact_rows.ts";
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
