/**
 * The index's path lookups by suffix (`pathsEndingWith`, `pathsNamed`), answered from a map kept
 * in memory, agree with the SQL they replaced, over generated trees and suffixes.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import { IndexStore, locateDb } from "../core/symbol_index/store.ts";
import { Random } from "./search_regex_gen.ts";

const FOLDERS = ["a", "b", "ab", "core", "util", "c"];

Deno.test("path lookups by suffix agree with a scan of the files table", async () => {
  for (let round = 0; round < 3; round++) {
    const random = new Random(900 + round);
    const root = Deno.makeTempDirSync({ prefix: "store-paths-" });
    try {
      const paths = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const folders = Array.from({ length: random.int(4) }, () => random.pick(FOLDERS));
        paths.add([...folders, random.pick(["c.py", "x.ts", "a.py", "b.c"])].join("/"));
      }
      for (const path of paths) {
        Deno.mkdirSync(join(root, path, ".."), { recursive: true });
        Deno.writeTextFileSync(join(root, path), "x = 1\n");
      }
      await indexRoot({ root, threads: 0 });
      const location = locateDb(root, undefined, false);
      const db = new DatabaseSync(location.absPath, { readOnly: true });
      const store = IndexStore.open(location, "read");
      try {
        const scan = (sql: string, value: string) =>
          db.prepare(sql).all(value).map((row) => (row as { path: string }).path);
        const suffixes = new Set<string>(["", "/", "c.py", "/c.py"]);
        for (const path of paths) {
          const parts = path.split("/");
          for (let i = 0; i < parts.length; i++) suffixes.add(parts.slice(i).join("/"));
          suffixes.add(path.slice(1));
        }
        for (const suffix of suffixes) {
          assert.deepEqual(
            store.pathsEndingWith(`/${suffix}`),
            scan(
              "SELECT path FROM files WHERE path = substr(?1, 2) OR substr(path, -length(?1)) = ?1 ORDER BY path",
              `/${suffix}`,
            ),
            `ending with /${suffix}`,
          );
          assert.deepEqual(
            store.pathsNamed(suffix),
            scan(
              "SELECT path FROM files WHERE path = ?1 OR substr(path, -length(?1) - 1) = '/' || ?1 ORDER BY path LIMIT 20",
              suffix,
            ),
            `named ${suffix}`,
          );
        }
      } finally {
        store.close();
        db.close();
      }
    } finally {
      Deno.removeSync(root, { recursive: true });
    }
  }
});
