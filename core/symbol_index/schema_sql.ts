/**
 * The index database's tables and the checks of its header. Plain data and pure functions, so
 * the checks are unit-tested without a file.
 *
 * @module
 */

/** `PRAGMA application_id` of an llm-symbols index: "MAG1" in ASCII. */
export const INDEX_APPLICATION_ID = 0x4d414731;

/** The 16 bytes every SQLite 3 database file starts with. */
const SQLITE_MAGIC = "SQLite format 3\0";
/** Offset of `user_version` (big-endian u32) in the database header. */
const USER_VERSION_OFFSET = 60;
/** Offset of `application_id` (big-endian u32) in the database header. */
const APPLICATION_ID_OFFSET = 68;
/** Bytes of the header the checks read. */
export const HEADER_BYTES = 100;

/** What the first bytes of a database file say about it. */
export type HeaderVerdict =
  | { kind: "empty" }
  | { kind: "not-sqlite" }
  | { kind: "blank-sqlite" }
  | { kind: "foreign"; applicationId: number }
  | { kind: "ours"; version: number };

/**
 * Reads a database file's header: empty (0 bytes: a fresh file SQLite treats as empty), not
 * SQLite, SQLite with no application id and version yet (maybe an unused database; its tables
 * decide), another program's database, or ours with its index version.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHeader } from "./schema_sql.ts";
 * assert.equal(readHeader(new Uint8Array(0)).kind, "empty");
 * assert.equal(readHeader(new TextEncoder().encode("hello")).kind, "not-sqlite");
 * ```
 */
export function readHeader(bytes: Uint8Array): HeaderVerdict {
  if (bytes.length === 0) return { kind: "empty" };
  const magic = new TextDecoder().decode(bytes.subarray(0, SQLITE_MAGIC.length));
  if (bytes.length < HEADER_BYTES || magic !== SQLITE_MAGIC) return { kind: "not-sqlite" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const applicationId = view.getUint32(APPLICATION_ID_OFFSET);
  const version = view.getUint32(USER_VERSION_OFFSET);
  if (applicationId === INDEX_APPLICATION_ID) return { kind: "ours", version };
  if (applicationId === 0 && version === 0) return { kind: "blank-sqlite" };
  return { kind: "foreign", applicationId };
}

/**
 * Files whose extraction failed, with the content that failed: an unchanged failing file is not
 * parsed again by every run (its failure is reported from here).
 */
const FAILURES_TABLE = `failures(
  path TEXT PRIMARY KEY,
  hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime INTEGER NOT NULL,
  reason TEXT NOT NULL
) WITHOUT ROWID;`;

/**
 * The full-text table of the text chunks (`extract_chunks.ts`): one row per definition (its rowid
 * the `symbols` row's `id`) and one per file for its module-level code (rowid: minus the `files`
 * row's `id`), its columns `name` and `body` the terms `chunk_terms.ts` gives, joined by spaces.
 * FTS5, for BM25 (`bm25()`) over them:
 *
 * - **contentless** (`content=''`): the terms are only matched and scored, never read back (the
 *   chunk's text is the file's), so the table keeps its index alone; `contentless_delete=1`
 *   (SQLite 3.43) lets a file's rows be deleted by rowid like any other row;
 * - **`unicode61 remove_diacritics 0`**: the terms are already split and lower-cased, so the
 *   tokenizer only has to cut at the spaces (`_` is a separator to it, as in the terms), and it
 *   keeps each term as it is (`é` stays `é`, so the table's terms are exactly those of
 *   `chunkTerms`);
 * - **`detail=full`** (the default): BM25 needs each term's frequency in a chunk, which
 *   `detail=none` loses and with which `detail=column` scores nothing (`bm25()` answers 0; it
 *   would take the table from 7.6 to 4.6 MB on sympy). `columnsize=0`, which halves the cost
 *   of `bm25()`, is refused with `contentless_delete=1`; FTS5's merge options (`automerge`,
 *   `crisismerge`, `pgsz`) changed the inserts' time by less than the noise.
 */
const CHUNKS_TABLE = "chunks USING fts5(name, body, content='', contentless_delete=1, " +
  "tokenize='unicode61 remove_diacritics 0')";

/** Tables of the index, created in one transaction with the application id and version. */
export const CREATE_TABLES = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  hash TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime INTEGER NOT NULL,
  language TEXT NOT NULL,
  parse_errors INTEGER NOT NULL
);
CREATE TABLE symbols(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  symbol_id TEXT NOT NULL,
  name TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  parent TEXT,
  signature TEXT NOT NULL,
  byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
  start_line INTEGER NOT NULL, start_col INTEGER NOT NULL,
  end_line INTEGER NOT NULL, end_col INTEGER NOT NULL
);
CREATE TABLE refs(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  is_call INTEGER NOT NULL,
  enclosing TEXT,
  qualifier TEXT,
  byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
  start_line INTEGER NOT NULL, start_col INTEGER NOT NULL,
  end_line INTEGER NOT NULL, end_col INTEGER NOT NULL
);
CREATE TABLE ${FAILURES_TABLE}
CREATE TABLE imports(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  target TEXT NOT NULL,
  kind TEXT NOT NULL,
  names TEXT,
  byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL,
  start_line INTEGER NOT NULL, start_col INTEGER NOT NULL,
  end_line INTEGER NOT NULL, end_col INTEGER NOT NULL
);
CREATE VIRTUAL TABLE ${CHUNKS_TABLE};
`;

/**
 * The indexes of the queries and of a file's deletion. A cold index run (an empty index) drops
 * them and makes them at its end (sorting once is faster than growing them row by row); any
 * other run makes the missing ones first, so a cold run killed before its end leaves nothing the
 * next run does not repair.
 */
export const LOOKUP_INDEXES: readonly string[] = [
  "CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id)",
  "CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name)",
  "CREATE INDEX IF NOT EXISTS symbols_qualified ON symbols(qualified_name)",
  "CREATE INDEX IF NOT EXISTS symbols_id ON symbols(symbol_id)",
  // Covering the order of a name's uses, so `refs`/`callers` read only the rows they list.
  "CREATE INDEX IF NOT EXISTS refs_name_order ON refs(name, is_call, file_id, byte_start)",
  "CREATE INDEX IF NOT EXISTS refs_enclosing ON refs(file_id, enclosing)",
  "CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id)",
  "CREATE INDEX IF NOT EXISTS imports_target ON imports(target)",
];

/**
 * Indexes of earlier versions that a lookup index replaced (`refs_name` on the name alone, now
 * `refs_name_order`): dropped when the lookup indexes are made.
 */
export const REPLACED_INDEX_NAMES: readonly string[] = ["refs_name"];

/** Names of {@linkcode LOOKUP_INDEXES}, to drop them. */
export const LOOKUP_INDEX_NAMES: readonly string[] = LOOKUP_INDEXES.map((sql) => sql.split(" ")[5]);

/** The tables of the full-text table `chunks`: itself and those FTS5 keeps its index in. */
export const CHUNK_TABLES: readonly string[] = [
  "chunks",
  "chunks_config",
  "chunks_data",
  "chunks_docsize",
  "chunks_idx",
];

/** Tables an index database must have, by name; a database with other tables is not ours. */
export const INDEX_TABLES: readonly string[] = [
  ...CHUNK_TABLES,
  "failures",
  "files",
  "imports",
  "meta",
  "refs",
  "symbols",
];

/**
 * The table an index written before failures were recorded lacks (the same index version):
 * opening such an index for writing makes it; reading it finds no failures.
 */
export const ADDED_FAILURES_TABLE = `CREATE TABLE IF NOT EXISTS ${FAILURES_TABLE}`;

/**
 * The table an index written before chunks were kept lacks (the same index version; its facts
 * are of an older `FACTS_VERSION`, so the next refresh extracts every file again and fills it):
 * opening such an index for writing makes it; reading it finds no chunks.
 */
export const ADDED_CHUNKS_TABLE = `CREATE VIRTUAL TABLE IF NOT EXISTS ${CHUNKS_TABLE}`;

/** The tables FTS5 keeps the full-text table `chunks` in: the whole of its index. */
export const CHUNK_SHADOW_TABLES: readonly string[] = [
  "chunks_data",
  "chunks_idx",
  "chunks_docsize",
  "chunks_config",
];

/**
 * Whether `tables` (names sorted, as `sqlite_master` lists them) are those of an index: all of
 * {@linkcode INDEX_TABLES}, or those of an index written before the `chunks` table was added, or
 * before the `failures` table too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { INDEX_TABLES, isIndexTableList } from "./schema_sql.ts";
 * assert.equal(isIndexTableList(INDEX_TABLES), true);
 * assert.equal(isIndexTableList(["files", "imports", "meta", "refs", "symbols"]), true);
 * assert.equal(isIndexTableList(["files", "meta"]), false);
 * ```
 */
export function isIndexTableList(tables: readonly string[]): boolean {
  const withoutChunks = INDEX_TABLES.filter((table) => !CHUNK_TABLES.includes(table));
  const earliest = withoutChunks.filter((table) => table !== "failures");
  return [INDEX_TABLES, withoutChunks, earliest].some((list) => list.join() === tables.join());
}
