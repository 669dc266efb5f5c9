/**
 * Worker of the full-text table's side build (`chunk_side.ts`): makes the table `chunks` in a
 * new database of its own and inserts each batch of chunk rows it is sent, one transaction a
 * batch, with the index's own statements. The database is a scratch file the run deletes once
 * the index has taken its table.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { insertChunkRows } from "./fact_rows.ts";
import type { ChunkSideMessage, ChunkSideReply } from "./chunk_side.ts";
import { ADDED_CHUNKS_TABLE } from "./schema_sql.ts";

let db: DatabaseSync | undefined;
const statements = new Map<string, StatementSync>();
let failed = false;

function statement(sql: string): StatementSync {
  let prepared = statements.get(sql);
  if (!prepared) statements.set(sql, prepared = db!.prepare(sql));
  return prepared;
}

function handle(message: ChunkSideMessage): ChunkSideReply | undefined {
  if ("open" in message) {
    // SQLite's defaults (a journal, synced): a run killed inside a batch leaves the batches
    // before it, whole, to the next run (`recoverSideChunks` of `chunk_side.ts`).
    db = new DatabaseSync(message.open);
    db.exec(ADDED_CHUNKS_TABLE);
    return undefined;
  }
  if ("rows" in message) {
    db!.exec("BEGIN");
    insertChunkRows((sql, values) => statement(sql).run(...values), message.rows);
    db!.exec("COMMIT");
    return { written: message.rows.length };
  }
  statements.clear();
  db?.close();
  db = undefined;
  return { closed: true };
}

self.onmessage = (event: MessageEvent<ChunkSideMessage>) => {
  if (failed) return;
  let reply: ChunkSideReply | undefined;
  try {
    reply = handle(event.data);
  } catch (error) {
    failed = true;
    reply = { error: error instanceof Error ? error.message : String(error) };
    // Closing rolls back a batch under way: the file keeps the batches before it, unlocked.
    try {
      db?.close();
    } catch {
      // Closed already, or never opened.
    }
    db = undefined;
  }
  if (reply) self.postMessage(reply);
};
