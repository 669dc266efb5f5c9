import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  CHUNK_TABLES,
  CREATE_TABLES,
  HEADER_BYTES,
  INDEX_APPLICATION_ID,
  INDEX_TABLES,
  isIndexTableList,
  LOOKUP_INDEX_NAMES,
  readHeader,
} from "./schema_sql.ts";

function header(applicationId: number, version: number): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES);
  bytes.set(new TextEncoder().encode("SQLite format 3\0"));
  const view = new DataView(bytes.buffer);
  view.setUint32(60, version);
  view.setUint32(68, applicationId);
  return bytes;
}

Deno.test("readHeader tells an empty file, a non-SQLite file, a blank, a foreign and our database apart", () => {
  assert.deepEqual(readHeader(new Uint8Array(0)), { kind: "empty" });
  assert.deepEqual(readHeader(new TextEncoder().encode("x".repeat(200))), { kind: "not-sqlite" });
  assert.deepEqual(readHeader(header(0, 0).subarray(0, 50)), { kind: "not-sqlite" });
  assert.deepEqual(readHeader(header(0, 0)), { kind: "blank-sqlite" });
  assert.deepEqual(readHeader(header(0, 3)), { kind: "foreign", applicationId: 0 });
  assert.deepEqual(readHeader(header(0x1234, 1)), { kind: "foreign", applicationId: 0x1234 });
  assert.deepEqual(readHeader(header(INDEX_APPLICATION_ID, 7)), { kind: "ours", version: 7 });
});

Deno.test("every lookup index has its name", () => {
  assert.deepEqual(LOOKUP_INDEX_NAMES, [
    "symbols_file",
    "symbols_name",
    "symbols_qualified",
    "symbols_id",
    "refs_name_order",
    "refs_enclosing",
    "imports_file",
    "imports_target",
  ]);
});

Deno.test("the tables made are INDEX_TABLES; those of the two earlier forms are accepted too", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(CREATE_TABLES);
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as { name: string }[]).map((row) => row.name);
  db.close();
  assert.deepEqual(tables, INDEX_TABLES);
  assert.equal(isIndexTableList(tables), true);
  const withoutChunks = tables.filter((table) => !CHUNK_TABLES.includes(table));
  assert.equal(isIndexTableList(withoutChunks), true);
  assert.equal(isIndexTableList(withoutChunks.filter((table) => table !== "failures")), true);
  // The chunks without the failures table, part of FTS5's tables, or one more table: not ours.
  assert.equal(isIndexTableList(tables.filter((table) => table !== "failures")), false);
  assert.equal(isIndexTableList(tables.filter((table) => table !== "chunks_idx")), false);
  assert.equal(isIndexTableList([...tables, "zz"]), false);
});
