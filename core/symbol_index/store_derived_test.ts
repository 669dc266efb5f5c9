import assert from "node:assert/strict";
import { IndexStore, locateDb } from "./store.ts";

Deno.test("derived values are kept until this store or another connection writes", () => {
  const root = Deno.makeTempDirSync();
  try {
    const writer = IndexStore.open(locateDb(root, undefined, true), "write");
    const reader = IndexStore.open(locateDb(root, undefined, false), "read");
    let computed = 0;
    const count = (store: IndexStore) => store.derived("files", () => ++computed);
    assert.equal(count(reader), 1);
    assert.equal(count(reader), 1, "kept while nothing is written");
    assert.equal(count(writer), 2);
    writer.transaction(() => {}); // nothing written: kept
    assert.equal(count(writer), 2);
    writer.transaction(() => writer.setMeta("touched", "yes"));
    assert.equal(count(writer), 3, "this store wrote");
    assert.equal(count(reader), 4, "another connection wrote");
    assert.equal(count(reader), 4);
    reader.close();
    writer.close();
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
