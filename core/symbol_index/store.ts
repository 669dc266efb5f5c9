/**
 * The symbol index on disk: one SQLite database (`node:sqlite`, WAL) per root, default
 * `<root>/.llm/index.db`. Opening checks the file before SQLite writes anything: a file that is
 * not SQLite, another program's database or a newer index version is refused with a code and
 * never overwritten. Each batch of files is written in one transaction, a file's facts replace
 * its old ones (a file's deletion deletes its facts in the same transaction), so a run killed
 * at any point leaves a database that reads and that the next run completes.
 *
 * **Chunks.** Beside the facts, the full-text table `chunks` (FTS5, `schema_sql.ts`) holds the
 * terms of each definition's own text and of each file's module-level code, under the
 * definition's `symbols` row id (the file's: minus its `files` row id), written and deleted with
 * the file's facts. {@linkcode IndexStore.chunkScores} ranks them for weighted terms: one FTS5
 * query per term (`bm25()`), the weighted scores summed here. Measured on sympy (1,313 files,
 * 40,482 chunks; the 2-core machine, loaded): the table is 7.6 MB of the 151 MB index, and costs
 * a cold `index` about 1.9 s of CPU (22.3 → 24.2 s: the terms in the workers, 0.6 s, and FTS5's
 * inserts on the calling thread, 0.6–1.2 s). 40 terms of an issue (75,000 chunks have one) take
 * 47–69 ms the first time on a warm connection, 5–20 ms once kept, most of it FTS5's `bm25()`
 * (about 1 µs a chunk, half of it reading the chunk's length). One `OR` query scores the terms
 * unweighted (98 ms; each term repeated by its weight: 247 ms); a `LIMIT` per term is no faster
 * (FTS5 scores every match to sort them) and loses half the exact top 100. Own postings in
 * plain tables, measured against it: a row per (term, chunk) is 21 MB, 4.7 s to build, 33–47 ms
 * to query; a blob per term is 6 MB and 8–14 ms, but every write rewrites the blob of each term
 * the file has.
 *
 * @module
 */
import {
  DatabaseSync,
  type DatabaseSyncOptions,
  type SQLInputValue,
  type StatementSync,
} from "node:sqlite";
import { dirname, join, resolve, sep } from "../path_syntax.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { FACTS_VERSION, SYMBOL_INDEX_VERSION } from "../../schema/symbol_index.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { displayPath, isInside, realPathOf } from "../paths.ts";
import { requirePermission } from "../permissions.ts";
import type { Extent } from "./facts.ts";
import {
  chunkRowValues,
  type FactRows,
  IMPORT_ROW_COLUMNS,
  insertChunkRows,
  REF_ROW_COLUMNS,
  ROWS_PER_INSERT,
  type RowValue,
  SYMBOL_ROW_COLUMNS,
} from "./fact_rows.ts";
import {
  ADDED_CHUNKS_TABLE,
  ADDED_FAILURES_TABLE,
  CHUNK_SHADOW_TABLES,
  CREATE_TABLES,
  HEADER_BYTES,
  type HeaderVerdict,
  INDEX_APPLICATION_ID,
  isIndexTableList,
  LOOKUP_INDEX_NAMES,
  LOOKUP_INDEXES,
  readHeader,
  REPLACED_INDEX_NAMES,
} from "./schema_sql.ts";

/**
 * Options of the connection that copies a side build's chunks ({@linkcode IndexStore.adoptChunks}):
 * SQLite's defensive mode off (Deno 2.9.6 honours node:sqlite's `defensive`; its types do not
 * list it yet).
 */
const UNDEFENDED: DatabaseSyncOptions & { defensive: boolean } = { defensive: false };

/** `meta` key an index run sets when it ends: an index without it has had no completed run. */
export const INDEXED_AT_KEY = "indexed_at";

/** The meta key of the facts' version. */
const FACTS_VERSION_KEY = "facts_version";
/** Default index location under the root. */
export const DEFAULT_DB_PATH = ".llm/index.db";

/** Suffix of the lock file beside the database that a whole-root refresh claims (`refresh_claim.ts`). */
export const CLAIM_SUFFIX = ".lock";

/** The files beside the database (its own name plus these), each a regular file or absent. */
const SIBLING_SUFFIXES = ["", "-wal", "-shm", CLAIM_SUFFIX];

/** Rows read per statement by {@linkcode IndexStore.useGroups} and `everySymbol`. */
const USE_SLICE = 500_000;

/** Share of the chunks past which a term is too common for {@linkcode IndexStore.chunkScores}. */
const COMMON_TERM_SHARE = 0.1;

/**
 * Chunks a term may be in whatever the share, up to half of them (a small index keeps its
 * terms as long as their IDF is above 0).
 */
const COMMON_TERM_MIN_CHUNKS = 200;

/** How long a writer waits for another writer's transaction, in milliseconds. */
const BUSY_TIMEOUT_MS = 30_000;

/** Where the index of a root is, checked for containment. */
export interface DbLocation {
  /** Absolute real path of the database file. */
  absPath: string;
  /** Root-relative path, as reported. */
  displayPath: string;
  /** Absolute real path of the root, which every path a row names must lie in. */
  root: string;
  /**
   * The index lives in memory only ({@linkcode IndexStore.inMemory}): `absPath` and
   * `displayPath` are {@linkcode IN_MEMORY}, which names no file; nothing may stat, delete or
   * claim a file by them.
   */
  inMemory?: boolean;
}

/** The `absPath` and `displayPath` of an index held in memory (SQLite's name for one). */
export const IN_MEMORY = ":memory:";

/** One indexed file. */
export interface FileRow {
  /** Row id. */
  id: number;
  /** Root-relative path. */
  path: string;
  /** `sha256:` of its content when indexed. */
  hash: string;
  /** Size in bytes when indexed. */
  size: number;
  /** Modification time (ms) when indexed. */
  mtime: number;
  /** Registry language name. */
  language: string;
  /** ERROR/MISSING nodes of its tree. */
  parse_errors: number;
}

/**
 * A statement answering rows as arrays: `StatementSync.setReturnArrays` of `node:sqlite`, which
 * Deno 2.9.6 has and its type declarations lack.
 */
interface ArrayStatement {
  setReturnArrays(enabled: boolean): void;
  all(...params: (string | number | null)[]): unknown[];
}

/** An indexed file's path, then its stamp (size and modification time in ms) when indexed. */
export type StampRow = [path: string, size: number, mtime: number];

/** Positions of a stored fact. */
export interface ExtentRow extends Extent {
  /** The file's row id. */
  file_id: number;
  /** The file's root-relative path. */
  path: string;
  /** The file's language. */
  language: string;
}

/** One stored definition. */
export interface SymbolRow extends ExtentRow {
  /** Stable id. */
  symbol_id: string;
  /** Name. */
  name: string;
  /** Qualified name. */
  qualified_name: string;
  /** Kind. */
  kind: string;
  /** Qualified name of the enclosing symbol, or null. */
  parent: string | null;
  /** First line. */
  signature: string;
}

/** One stored use of a name. */
export interface RefRow extends ExtentRow {
  /** Name used. */
  name: string;
  /** 1 for a call, 0 for another reference. */
  is_call: number;
  /** Qualified name of the enclosing definition, or null at file scope. */
  enclosing: string | null;
  /** Qualifier as written, or null. */
  qualifier: string | null;
}

/**
 * Which uses a query reads: those of `name` (calls only with `callsOnly`) in files under
 * `scopes` (root-relative files or folders; none or `.`: everywhere).
 */
export interface UseQuery {
  /** Name used. */
  name: string;
  /** Call sites only. */
  callsOnly: boolean;
  /** Files or folders the uses must lie in. */
  scopes: readonly string[];
}

/** The SQL condition of `query` over `refs` as `r` and `files` as `f`, with its parameters. */
function useCondition(query: UseQuery): { sql: string; params: string[] } {
  const params = [query.name];
  let sql = `r.name = ?${query.callsOnly ? " AND r.is_call = 1" : ""}`;
  const scopes = query.scopes.map((scope) => scope.replace(/\/+$/, ""));
  if (scopes.length > 0 && !scopes.includes(".")) {
    // A folder's files sort between "folder/" and "folder0" ('0' follows '/').
    sql += ` AND (${scopes.map(() => "f.path = ? OR (f.path > ? AND f.path < ?)").join(" OR ")})`;
    for (const scope of scopes) params.push(scope, `${scope}/`, `${scope}0`);
  }
  return { sql, params };
}

/** What the code graph keeps of a definition. */
export type SymbolBriefRow = Pick<
  SymbolRow,
  | "file_id"
  | "symbol_id"
  | "name"
  | "qualified_name"
  | "kind"
  | "parent"
  | "start_line"
  | "start_col"
>;

/** The uses of one name by one definition (or at file scope), counted: an edge's raw material. */
export interface UseGroupRow {
  /** The using file's row id. */
  file_id: number;
  /** Qualified name of the enclosing definition, or null at file scope. */
  enclosing: string | null;
  /** Name used. */
  name: string;
  /** 1 for calls, 0 for other references. */
  is_call: number;
  /** How many uses the group holds. */
  uses: number;
}

/** One stored import. */
export interface ImportRow extends ExtentRow {
  /** Target as written. */
  target: string;
  /** `include` or `import`. */
  kind: "include" | "import";
  /** JSON array of the names it lists, or null. */
  names: string | null;
}

/** A term of a chunk query ({@linkcode IndexStore.chunkScores}) and how much a match counts. */
export interface WeightedTerm {
  /** A term as `chunkTerms` (`chunk_terms.ts`) gives it: lower-cased letters and digits. */
  term: string;
  /** What its BM25 score is multiplied by (a term weighing 0 or less is left out). */
  weight: number;
}

/** How {@linkcode IndexStore.chunkScores} and {@linkcode IndexStore.termScores} score. */
export interface ChunkScoring {
  /** Weight of a match in a chunk's `name` (its name, qualified name and path). Default 3. */
  nameWeight?: number;
  /** Weight of a match in a chunk's `body` (its text's terms). Default 1. */
  bodyWeight?: number;
  /** Only these chunks (rowids, see {@linkcode ChunkScore}) are scored; default every one. */
  within?: ReadonlySet<number>;
}

/** A chunk and its score: higher is better. */
export interface ChunkScore {
  /** The chunk: a `symbols` row's id (> 0), or minus a `files` row's id (its module's code). */
  rowid: number;
  /** Its score. */
  score: number;
}

/** The scores of one term ({@linkcode IndexStore.termScores}), in no particular order. */
export interface TermScores {
  /** Chunks that have it. */
  rowids: Int32Array;
  /** BM25 of the term in each (positive; the same index as `rowids`). */
  scores: Float64Array;
}

/** What a chunk is ({@linkcode IndexStore.chunkRows}). */
export interface ChunkRow {
  /** The chunk's rowid, as {@linkcode IndexStore.chunkScores} answers it. */
  rowid: number;
  /** The file's row id. */
  file_id: number;
  /** The file's root-relative path. */
  path: string;
  /** The file's language. */
  language: string;
  /** The definition (its span, name, kind, qualified name, signature); null for a module chunk. */
  symbol: SymbolRow | null;
}

/** Counts of the index. */
export interface IndexCounts {
  /** Files. */
  files: number;
  /** Definitions. */
  symbols: number;
  /** Uses. */
  references: number;
  /** Imports. */
  imports: number;
  /** Files that parsed with errors. */
  parse_error_files: number;
}

/** A file whose extraction failed, and the content it failed on. */
export interface FailureRow {
  /** Root-relative path. */
  path: string;
  /** `sha256:` of the content that failed. */
  hash: string;
  /** Size in bytes then. */
  size: number;
  /** Modification time (ms) then. */
  mtime: number;
  /** Why it failed (the error's name and message). */
  reason: string;
}

/** What a file's new facts are stored with. */
export interface FileWrite {
  /** Root-relative path. */
  path: string;
  /** `sha256:` of the content. */
  hash: string;
  /** Size in bytes. */
  size: number;
  /** Modification time (ms). */
  mtime: number;
  /** The extracted facts as the values of their rows. */
  rows: FactRows;
}

function refusal(code: string, message: string, file: string, remediation?: string): ToolError {
  return new ToolError(code, message, remediation ? { file, remediation } : { file });
}

/**
 * The database path for `db` (default `<root>/.llm/index.db`): resolved with its links, it must
 * lie inside the root, and neither the file, its `-wal`/`-shm`/`.lock` siblings nor any folder
 * between the root and it may be a symbolic link (a planted link would redirect the writes);
 * each of those files must be a regular file or absent (`MAG-IO-025`). With `create`, missing
 * folders are made one level at a time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(locateDb(root, undefined, true).displayPath, ".llm/index.db");
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function locateDb(root: string, db: string | undefined, create: boolean): DbLocation {
  const realRoot = Deno.realPathSync(root);
  const named = resolve(realRoot, db ?? DEFAULT_DB_PATH);
  const real = realPathOf(named);
  if (!isInside(realRoot, real) || real === realRoot) {
    throw refusal(
      "MAG-PERM-010",
      `the index database ${db ?? DEFAULT_DB_PATH} resolves outside the root ${realRoot}`,
      displayPath(realRoot, real),
    );
  }
  const shown = displayPath(realRoot, real);
  if (real !== named) {
    throw refusal(
      "MAG-PERM-010",
      `the index database ${shown} is reached through a symbolic link`,
      shown,
    );
  }
  checkFolders(realRoot, dirname(real), shown, create);
  for (const suffix of SIBLING_SUFFIXES) requireRegularFile(real + suffix, shown + suffix);
  return { absPath: real, displayPath: shown, root: realRoot };
}

function checkFolders(root: string, folder: string, shown: string, create: boolean): void {
  let current = root;
  for (const part of folder.slice(root.length).split(sep).filter(Boolean)) {
    current = join(current, part);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(current);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) || !create) {
        if (error instanceof Deno.errors.NotFound) return;
        throw error;
      }
      try {
        Deno.mkdirSync(current);
        continue;
      } catch (raced) {
        // Another run created it meanwhile: it is checked like one found there.
        if (!(raced instanceof Deno.errors.AlreadyExists)) throw raced;
        info = Deno.lstatSync(current);
      }
    }
    if (!info.isDirectory) {
      throw refusal(
        "MAG-PERM-010",
        `${displayPath(root, current)} (a folder of the index ${shown}) is ${
          info.isSymlink ? "a symbolic link" : "not a directory"
        }`,
        shown,
      );
    }
  }
}

/**
 * Refuses anything at `path` but a regular file (or nothing), judged by `lstat` before anything
 * opens it: a symbolic link (`MAG-PERM-010`: it may redirect the writes), or a directory, FIFO,
 * socket or device (`MAG-IO-025`, named: opening a FIFO to read its header would block until a
 * writer comes). None of these is replaced, even by `index`: the tool only ever makes a regular
 * file there, so whatever else is there was made by someone else (a directory may hold their
 * files, a FIFO may be a pipe in use), and removing it is theirs to decide.
 */
function requireRegularFile(path: string, shown: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (info.isFile) return;
  if (info.isSymlink) {
    throw refusal("MAG-PERM-010", `${shown} is a symbolic link`, shown);
  }
  throw refusal(
    "MAG-IO-025",
    `${shown} is ${
      specialKind(info)
    }, not the index's database file; nothing was opened or changed`,
    shown,
    info.isDirectory
      ? `Move or remove the directory ${shown} yourself (llm-symbols never deletes a directory), or name another --db path.`
      : `Remove ${shown} (llm-symbols makes a regular file there), or name another --db path.`,
  );
}

/**
 * Deletes the index at `location` with its `-wal` and `-shm` files, so that `index` builds it
 * anew. Called only for an index {@linkcode isDamage} refused, whose header and tables are this
 * tool's; each file is checked again right before (a regular file, never through a link). The
 * log goes first: a log left beside a new database would be replayed into it. Nothing is done for
 * an index in memory (`inMemory`).
 */
export function discardIndex(location: DbLocation): void {
  // An index in memory has no file: `:memory:` must never be taken as a path.
  if (location.inMemory) return;
  for (const suffix of ["-wal", "-shm", ""]) {
    const path = location.absPath + suffix;
    requireRegularFile(path, location.displayPath + suffix);
    try {
      Deno.removeSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/** What a file-system entry that is neither a regular file nor a link is, in words. */
function specialKind(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return "not a regular file";
}

function readFileHeader(path: string): Uint8Array | undefined {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const buffer = new Uint8Array(HEADER_BYTES);
    let filled = 0;
    while (filled < HEADER_BYTES) {
      const read = file.readSync(buffer.subarray(filled));
      if (read === null) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } finally {
    file.close();
  }
}

function newerVersion(shown: string, version: number): ToolError {
  return refusal(
    "MAG-IO-012",
    `the index ${shown} has index version ${version}; this llm-symbols reads version ${SYMBOL_INDEX_VERSION}`,
    shown,
  );
}

function foreign(shown: string, why: string): ToolError {
  return refusal("MAG-IO-011", `${shown} is an SQLite database of another program (${why})`, shown);
}

/**
 * Refuses a file that is not one of our databases (or a fresh one), before SQLite opens it;
 * answers what its header says, or undefined when there is no file.
 */
function checkHeaderBeforeOpen(location: DbLocation): HeaderVerdict["kind"] | undefined {
  const bytes = readFileHeader(location.absPath);
  if (bytes === undefined) return undefined;
  const verdict = readHeader(bytes);
  const shown = location.displayPath;
  switch (verdict.kind) {
    case "not-sqlite":
      throw refusal("MAG-IO-010", `${shown} is not an SQLite database`, shown);
    case "foreign":
      throw foreign(shown, `application id 0x${verdict.applicationId.toString(16)}`);
    case "ours":
      if (verdict.version > SYMBOL_INDEX_VERSION) throw newerVersion(shown, verdict.version);
  }
  return verdict.kind;
}

/** SQLite's primary result codes of a damaged file: `SQLITE_CORRUPT` and `SQLITE_NOTADB`. */
const DAMAGE_CODES = new Set([11, 26]);

/** Whether `error` is SQLite saying the file is damaged (malformed, or no longer a database). */
function reportsDamage(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof code === "number") return DAMAGE_CODES.has(code & 0xff);
  const message = error instanceof Error ? error.message : String(error);
  return /database disk image is malformed|file is not a database/i.test(message);
}

/**
 * `MAG-IO-022`: the index at `shown` is damaged, for `why`. A query refuses it; `index` deletes it
 * and builds it anew.
 */
function damagedIndex(shown: string, why: string, cause?: unknown): ToolError {
  return new ToolError(
    "MAG-IO-022",
    `the index ${shown} is damaged (${why}); it was not read`,
    { file: shown },
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Whether `error` is the refusal of an index that `index` may delete and build anew: damaged
 * (`MAG-IO-022`) or naming paths outside the root (`MAG-IO-023`). Both are raised only for a
 * file whose header and tables are this tool's, so nobody else's file is ever deleted.
 */
export function isDamage(error: unknown): error is ToolError {
  return error instanceof ToolError && (error.code === "MAG-IO-022" || error.code === "MAG-IO-023");
}

/**
 * Matches a path that is absolute, empty, or has an empty, `.` or `..` component: never one the
 * walk stores (root-relative, `/`-separated, normal).
 */
const NOT_RELATIVE = /(?:^|\/)\.{0,2}(?:\/|$)/;

/**
 * Why `path`, read from an index row, is not a root-relative path the walk could have stored
 * (absolute, with a `..`, `.` or empty component, a NUL byte, or on Windows a backslash or a
 * drive); undefined when it is one. Pure: a link on the way is another check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedPathFault } from "./store.ts";
 * assert.equal(storedPathFault("src/util.c"), undefined);
 * assert.equal(storedPathFault("../../outside/util.c"), "it climbs out of the root with '..'");
 * ```
 */
export function storedPathFault(path: string): string | undefined {
  const windows = sep === "\\";
  if (
    !NOT_RELATIVE.test(path) && !path.includes("\0") &&
    !(windows && (path.includes("\\") || path.includes(":")))
  ) return undefined;
  if (path.startsWith("/") || (windows && /^[A-Za-z]:/.test(path))) return "it is absolute";
  if (path.split("/").includes("..")) return "it climbs out of the root with '..'";
  if (path.includes("\0")) return "it holds a NUL byte";
  return "it is not a normal root-relative path";
}

type Row = Record<string, unknown>;

/**
 * An open index. Read-only opens need only read permission; a writable open takes write
 * permission on the database and its siblings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { IndexStore, locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * const store = IndexStore.open(locateDb(root, undefined, true), "write");
 * assert.equal(store.counts().files, 0);
 * store.close();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export class IndexStore {
  /** Where the database is. */
  readonly location: DbLocation;
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  /** Rows of the fact tables in the open transaction, once read or counted. */
  #factCounts: FactCounts | undefined;
  /** Whether `#factCounts` moved in the open transaction. */
  #factCountsMoved = false;
  /** Whether the index has the table `chunks` (one written before it was added lacks it). */
  #hasChunks = false;
  /** Values derived from the rows (see {@linkcode IndexStore.derived}). */
  readonly #derived = new Map<string, unknown>();
  /** `PRAGMA data_version` when `#derived` was last found valid. */
  #derivedVersion: number | undefined;
  /**
   * Whether the file is this tool's index (its header said so, or this store made its tables):
   * only then is SQLite's report of a malformed file a damaged index (`MAG-IO-022`, which
   * `index` builds anew) rather than a file of another kind (`MAG-IO-010`, left untouched).
   */
  #ours: boolean;
  /**
   * Folders of the paths rows named that were found to lie inside the root, links resolved;
   * forgotten with the derived values (a refresh that drops a folder's rows also drops it here).
   */
  readonly #insideFolders = new Set<string>();

  private constructor(location: DbLocation, db: DatabaseSync, ours: boolean) {
    this.location = location;
    this.#db = db;
    this.#ours = ours;
  }

  /**
   * Opens the index at `location`. `read` refuses a missing index (`MAG-IO-013`); `write`
   * creates it. Both refuse a file that is not ours (`MAG-IO-010`, `MAG-IO-011`) or newer
   * (`MAG-IO-012`) without writing to it.
   */
  static open(location: DbLocation, mode: "read" | "write"): IndexStore {
    // `:memory:` names no file to check, and a second connection to it would be another, empty
    // database: an index in memory is only ever the store that made it.
    if (location.inMemory) throw new Error("an index in memory has no file to open");
    const shown = location.displayPath;
    if (mode === "write") {
      for (const suffix of ["", "-wal", "-shm"]) {
        requirePermission("MAG", "write", location.absPath + suffix);
      }
    } else requirePermission("MAG", "read", location.absPath);
    const header = checkHeaderBeforeOpen(location);
    if (header === undefined && mode === "read") {
      throw refusal("MAG-IO-013", `no symbol index at ${shown} yet`, shown);
    }
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(location.absPath, { readOnly: mode === "read" });
    } catch (error) {
      if (header === "ours" && reportsDamage(error)) {
        throw damagedIndex(shown, String(error), error);
      }
      throw error;
    }
    const store = new IndexStore(location, db, header === "ours");
    try {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // The file is not trusted input: a crafted schema's views and triggers may not call
      // functions with side effects.
      db.exec("PRAGMA trusted_schema = OFF");
      if (mode === "write") store.#prepareForWriting();
      else if (store.#isBlank()) {
        // A file with no tables and no id yet is an index whose first build has not committed
        // (or an unused database, which `index` takes over): to a reader, no index yet.
        throw refusal("MAG-IO-013", `no symbol index at ${shown} yet`, shown);
      } else store.#checkTables();
    } catch (error) {
      store.close();
      if (error instanceof ToolError) throw error;
      throw store.#sqliteError(error);
    }
    return store;
  }

  /**
   * A new, empty index of `root` held in memory only (an SQLite `:memory:` database), prepared
   * as {@linkcode IndexStore.open} prepares a new file for writing (the same tables, ids and
   * `meta` rows), for a run that may read the root but not write `<root>/.llm`. It needs no
   * permission but the read of `root` (resolved, as `locateDb` does); its {@linkcode DbLocation}
   * is `inMemory`, so no file is ever stat'ed, claimed or deleted for it. Everything it holds is
   * gone when it is closed.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { IN_MEMORY, IndexStore } from "./store.ts";
   * const root = Deno.makeTempDirSync();
   * const store = IndexStore.inMemory(root);
   * assert.equal(store.location.displayPath, IN_MEMORY);
   * assert.equal(store.counts().files, 0);
   * assert.equal(store.hasChunks(), true);
   * store.close();
   * assert.deepEqual([...Deno.readDirSync(root)], []); // nothing written
   * Deno.removeSync(root);
   * ```
   */
  static inMemory(root: string): IndexStore {
    const location: DbLocation = {
      absPath: IN_MEMORY,
      displayPath: IN_MEMORY,
      root: Deno.realPathSync(root),
      inMemory: true,
    };
    const db = new DatabaseSync(IN_MEMORY);
    const store = new IndexStore(location, db, false);
    try {
      db.exec("PRAGMA trusted_schema = OFF");
      store.#prepareForWriting();
    } catch (error) {
      store.close();
      if (error instanceof ToolError) throw error;
      throw store.#sqliteError(error);
    }
    return store;
  }

  /**
   * Throws `MAG-IO-022` unless SQLite's `PRAGMA quick_check` finds the whole file sound. It reads
   * every page (about 3 s a GB here), so `index` runs it only on an index it can check quickly
   * (see `indexer.ts`); queries meet damage in the pages they read.
   */
  checkWhole(): void {
    const rows = this.#reading(() =>
      this.#db.prepare("PRAGMA quick_check(1)").all() as Record<string, unknown>[]
    );
    const verdict = String(Object.values(rows[0] ?? {})[0] ?? "no answer");
    if (verdict !== "ok") {
      throw damagedIndex(this.location.displayPath, `quick_check: ${verdict.split("\n").at(-1)}`);
    }
  }

  /**
   * SQLite's report of a damaged file as `MAG-IO-022` (our index) or `MAG-IO-010` (a file of
   * another kind), a busy database as `MAG-IO-014`, anything else as the error it is.
   */
  #sqliteError(error: unknown): unknown {
    if (error instanceof ToolError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (reportsDamage(error) && this.#ours) {
      return damagedIndex(this.location.displayPath, `SQLite: ${message}`, error);
    }
    if (/database is locked|SQLITE_BUSY/i.test(message)) {
      return new ToolError(
        "MAG-IO-014",
        `the index ${this.location.displayPath} is locked by another run`,
        { file: this.location.displayPath },
        { cause: error },
      );
    }
    if (/file is not a database|SQLITE_NOTADB/i.test(message)) {
      return new ToolError(
        "MAG-IO-010",
        `${this.location.displayPath} is not an SQLite database`,
        { file: this.location.displayPath },
        { cause: error },
      );
    }
    return error;
  }

  #pragma(name: string): number {
    const row = this.#reading(() => this.#db.prepare(`PRAGMA ${name}`).get() as Row);
    return Number(Object.values(row)[0]);
  }

  #tableNames(): string[] {
    const rows = this.#reading(() =>
      this.#db.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
      ).all() as { name: string }[]
    );
    return rows.map((row) => row.name);
  }

  /** Whether the database has no application id and no tables: nothing written to it yet. */
  #isBlank(): boolean {
    return this.#pragma("application_id") === 0 && this.#tableNames().length === 0;
  }

  /** Refuses a database whose id, version or tables are not this index's. */
  #checkTables(): void {
    const shown = this.location.displayPath;
    const applicationId = this.#pragma("application_id");
    if (applicationId !== INDEX_APPLICATION_ID) {
      throw foreign(shown, `application id 0x${applicationId.toString(16)}`);
    }
    const version = this.#pragma("user_version");
    if (version > SYMBOL_INDEX_VERSION) throw newerVersion(shown, version);
    const tables = this.#tableNames();
    if (!isIndexTableList(tables)) throw foreign(shown, `tables ${tables.join(", ") || "none"}`);
    this.#hasChunks = tables.includes("chunks");
  }

  /** Creates the tables in a blank database, or checks an existing one, under the write lock. */
  #prepareForWriting(): void {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      if (this.#isBlank()) {
        this.#ours = true;
        this.#db.exec(CREATE_TABLES);
        this.#db.exec(`PRAGMA application_id = ${INDEX_APPLICATION_ID}`);
        this.#db.exec(`PRAGMA user_version = ${SYMBOL_INDEX_VERSION}`);
        this.setMeta("tool", LLM_SYMBOLS);
        this.setMeta("index_version", String(SYMBOL_INDEX_VERSION));
        this.setMeta(FACTS_VERSION_KEY, String(FACTS_VERSION));
      } else {
        this.#checkTables();
        this.#db.exec(ADDED_FAILURES_TABLE);
        if (!this.#hasChunks) {
          this.#db.exec(ADDED_CHUNKS_TABLE);
          // Its rows are missing whatever the facts' version says: every file is extracted again.
          this.#db.prepare("DELETE FROM meta WHERE key = ?").run(FACTS_VERSION_KEY);
        }
      }
      this.#hasChunks = true;
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#rollBack();
      throw error;
    }
    // A database in memory has no file to log beside or to sync: it keeps its own journal.
    if (!this.location.inMemory) {
      this.#db.exec("PRAGMA journal_mode = WAL");
      this.#db.exec("PRAGMA synchronous = NORMAL");
    }
    // A file's facts are deleted explicitly (through the file-id indexes): checking each
    // inserted row against its file costs more than the whole delete.
    this.#db.exec("PRAGMA foreign_keys = OFF");
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #all<T>(sql: string, ...params: (string | number | null)[]): T[] {
    const rows = this.#reading(() => this.#statement(sql).all(...params) as T[]);
    for (const row of rows) this.#checkRow(row);
    return rows;
  }

  #get<T>(sql: string, ...params: (string | number | null)[]): T | undefined {
    const row = this.#reading(() => this.#statement(sql).get(...params) as T | undefined);
    this.#checkRow(row);
    return row;
  }

  /** Runs `read`, with SQLite's report of a damaged file as `MAG-IO-022`. */
  #reading<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw this.#sqliteError(error);
    }
  }

  /** Rolls back the open transaction; a damaged file that fails that too fails what was asked. */
  #rollBack(): void {
    try {
      this.#db.exec("ROLLBACK");
    } catch {
      // The error that made the caller roll back is the one reported.
    }
  }

  /** Checks the `path` a row names, if it names one (see `#containedPath`). */
  #checkRow(row: unknown): void {
    const path = (row as { path?: unknown } | undefined)?.path;
    if (typeof path === "string") this.#containedPath(path);
  }

  /**
   * Throws `MAG-IO-023` unless `path`, read from a row, names a file inside the root: relative
   * and normal (no `..`, see {@linkcode storedPathFault}), and with no symbolic link on the way
   * that leads out of it (the real path of its folder, checked once per folder). Every row this
   * store answers with is checked, so a crafted or stale row is never served and no caller
   * reads, stats or reports a file outside the root through it. The file itself is not resolved
   * (a stat per file would cost a whole-tree answer a second): callers that read it resolve it.
   */
  #containedPath(path: string): void {
    this.#requireRelative(path);
    const slash = path.lastIndexOf("/");
    if (slash < 0) return;
    const folder = path.slice(0, slash);
    if (this.#insideFolders.has(folder)) return;
    const root = this.location.root;
    let real: string;
    try {
      real = realPathOf(join(root, folder));
    } catch (error) {
      // A link whose target the run may not read leads out of what it may read.
      if (!(error instanceof Deno.errors.NotCapable)) throw error;
      throw this.#outside(path, "a symbolic link on the way leads where this run may not read");
    }
    if (!isInside(root, real)) {
      throw this.#outside(path, `a symbolic link on the way leads out of the root, to ${real}`);
    }
    this.#insideFolders.add(folder);
  }

  #outside(path: string, why: string): ToolError {
    const shown = this.location.displayPath;
    return new ToolError(
      "MAG-IO-023",
      `the index ${shown} names the file ${JSON.stringify(path)}, which is not inside the root ` +
        `(${why}); the index is not served`,
      { file: shown },
    );
  }

  /**
   * The value `compute` derives from the index's rows, kept under `key` until the index changes:
   * a write through this store, or a commit by another connection (`PRAGMA data_version`). A
   * long-lived host asks the same questions of the same files query after query (a file's
   * import patterns resolve every use in it); at most {@linkcode DERIVED_VALUES} are kept.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { IndexStore, locateDb } from "./store.ts";
   * const root = Deno.makeTempDirSync();
   * const store = IndexStore.open(locateDb(root, undefined, true), "write");
   * assert.equal(store.derived("answer", () => 42), 42);
   * assert.equal(store.derived("answer", () => 0), 42); // kept until the index changes
   * store.close();
   * Deno.removeSync(root, { recursive: true });
   * ```
   */
  derived<T>(key: string, compute: () => T): T {
    const version = this.#get<{ data_version: number }>("PRAGMA data_version")!.data_version;
    if (version !== this.#derivedVersion || this.#derived.size >= DERIVED_VALUES) {
      this.#forgetDerived();
      this.#derivedVersion = version;
    }
    if (this.#derived.has(key)) return this.#derived.get(key) as T;
    const value = compute();
    this.#derived.set(key, value);
    return value;
  }

  /** Rows this connection has written since it opened. */
  #totalChanges(): number {
    return this.#get<{ n: number }>("SELECT total_changes() AS n")!.n;
  }

  /** Runs `work` in one write transaction (rolled back when it throws). */
  transaction<T>(work: () => T): T {
    const changesBefore = this.#totalChanges();
    try {
      this.#db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      throw this.#sqliteError(error);
    }
    try {
      const result = work();
      if (this.#factCountsMoved) this.setMeta(FACT_COUNTS_KEY, JSON.stringify(this.#factCounts));
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      this.#rollBack();
      throw this.#sqliteError(error);
    } finally {
      // Outside a transaction another connection may write: the tally is read again.
      this.#factCounts = undefined;
      this.#factCountsMoved = false;
      // Rows this store wrote (which `PRAGMA data_version` does not count) void what they gave.
      if (this.#totalChanges() !== changesBefore) this.#forgetDerived();
    }
  }

  /** Forgets every value derived from the rows, and the folders found inside the root. */
  #forgetDerived(): void {
    this.#derived.clear();
    this.#insideFolders.clear();
  }

  /**
   * Rows of the fact tables: kept in `meta` by every write in the same transaction (counting the
   * rows of a whole-tree index takes a second), counted once in an index written before.
   */
  #tally(): FactCounts {
    if (this.#factCounts) return this.#factCounts;
    const kept = this.meta(FACT_COUNTS_KEY);
    if (kept !== undefined) return JSON.parse(kept) as FactCounts;
    const count = (table: string) =>
      this.#get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)!.n;
    return { symbols: count("symbols"), references: count("refs"), imports: count("imports") };
  }

  /** Adds `delta` rows to the tally of `table`'s rows. Call inside a transaction. */
  #countRows(table: FactTable, delta: number): void {
    if (delta === 0) return;
    this.#factCounts ??= this.#tally();
    this.#factCounts[FACT_COUNT_OF[table]] += delta;
    this.#factCountsMoved = true;
  }

  /**
   * Whether the facts were written by this version's extraction ({@linkcode FACTS_VERSION}):
   * files whose bytes did not change keep the facts an older extraction gave them otherwise.
   */
  factsCurrent(): boolean {
    return this.meta(FACTS_VERSION_KEY) === String(FACTS_VERSION);
  }

  /** Records that every file's facts are this version's (after a full refresh). */
  markFactsCurrent(): void {
    this.setMeta(FACTS_VERSION_KEY, String(FACTS_VERSION));
  }

  /**
   * Indexed files that have no chunk: each file has its module's chunk (row id `-file id`), so
   * these are the files whose chunks a stopped side build did not write.
   */
  filesWithoutChunks(): string[] {
    if (!this.hasChunks()) return [];
    return this.#all<{ path: string }>(
      "SELECT path FROM files f WHERE NOT EXISTS (SELECT 1 FROM chunks_docsize d WHERE d.id = -f.id)",
    ).map((row) => row.path);
  }

  /**
   * Records that the facts are of no current extraction, so that the next refresh extracts every
   * file again (what a stopped side build's chunks come to when they cannot be taken).
   */
  markFactsStale(): void {
    this.deleteMeta(FACTS_VERSION_KEY);
  }

  /** Sets a `meta` value (inside a transaction or alone). */
  setMeta(key: string, value: string): void {
    this.#reading(() =>
      this.#statement("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)").run(key, value)
    );
  }

  /** Removes a `meta` value (inside a transaction or alone). */
  deleteMeta(key: string): void {
    this.#reading(() => this.#statement("DELETE FROM meta WHERE key = ?").run(key));
  }

  /** A `meta` value. */
  meta(key: string): string | undefined {
    return this.#get<{ value: string }>("SELECT value FROM meta WHERE key = ?", key)?.value;
  }

  /** Drops the lookup indexes before a cold run fills an empty index. */
  dropLookupIndexes(): void {
    this.#reading(() => {
      for (const name of LOOKUP_INDEX_NAMES) this.#db.exec(`DROP INDEX IF EXISTS ${name}`);
    });
  }

  /**
   * Makes the lookup indexes that are missing. SQLite sorts each one's keys on helper threads of
   * its own (`PRAGMA threads`, one per core up to its limit of 8): on Linux `kernel/` the eight
   * indexes took 0.28 s instead of 0.31–0.37 s on two cores.
   */
  ensureLookupIndexes(): void {
    this.#db.exec(`PRAGMA threads = ${Math.min(navigator.hardwareConcurrency ?? 1, 8)}`);
    this.transaction(() => {
      for (const name of REPLACED_INDEX_NAMES) this.#db.exec(`DROP INDEX IF EXISTS ${name}`);
      for (const sql of LOOKUP_INDEXES) this.#db.exec(sql);
    });
  }

  /** Every indexed file, by path. */
  files(): FileRow[] {
    return this.#all<FileRow>("SELECT * FROM files ORDER BY path");
  }

  /**
   * Each indexed file's path, size and modification time, in no particular order: what a
   * refresh compares with the walk. Read as arrays, not objects (a third of the time on the
   * Linux tree's 57,000 files). Each path must be relative and normal (`MAG-IO-023`); links on
   * the way are not resolved: the refresh reads no file by these paths, and drops the rows of
   * files its walk (which never leaves the root) no longer reaches.
   */
  fileStamps(): StampRow[] {
    const stamps = this.#reading(() => {
      const statement = this.#db.prepare(
        "SELECT path, size, mtime FROM files",
      ) as unknown as ArrayStatement;
      statement.setReturnArrays(true);
      return statement.all() as StampRow[];
    });
    for (const [path] of stamps) this.#requireRelative(path);
    return stamps;
  }

  /** Throws `MAG-IO-023` unless `path` is relative and normal ({@linkcode storedPathFault}). */
  #requireRelative(path: string): void {
    const fault = storedPathFault(path);
    if (fault !== undefined) throw this.#outside(path, fault);
  }

  /** The indexed file at `path`. */
  file(path: string): FileRow | undefined {
    return this.#get<FileRow>("SELECT * FROM files WHERE path = ?", path);
  }

  /** Indexed paths ending with `suffix` (which starts with `/`) or equal to it without the `/`. */
  pathsEndingWith(suffix: string): string[] {
    return suffix.startsWith("/") ? [...this.#pathsBySuffix().get(suffix.slice(1)) ?? []] : [];
  }

  /** Indexed paths whose base name is `name` (to suggest close paths): at most 20, by path. */
  pathsNamed(name: string): string[] {
    return (this.#pathsBySuffix().get(name) ?? []).slice(0, 20);
  }

  /**
   * Every indexed path under each of its suffixes that starts at a folder boundary (`a/b/c.py`
   * under `a/b/c.py`, `b/c.py` and `c.py`), by path; kept until the index changes. A task names
   * files by such suffixes, dozens of times a ranking: a scan of the `files` table each time took
   * a quarter of a warm ranking on sympy (1,300 files).
   */
  #pathsBySuffix(): Map<string, string[]> {
    return this.derived("files:suffixes", () => {
      const bySuffix = new Map<string, string[]>();
      const rows = this.#all<{ path: string }>("SELECT path FROM files ORDER BY path");
      for (const { path } of rows) {
        for (let start = 0; start >= 0; start = path.indexOf("/", start) + 1 || -1) {
          const suffix = path.slice(start);
          const paths = bySuffix.get(suffix);
          if (paths) paths.push(path);
          else bySuffix.set(suffix, [path]);
        }
      }
      return bySuffix;
    });
  }

  /** Whether some indexed file lies under the folder `folder` (root-relative, no trailing `/`). */
  hasFilesUnder(folder: string): boolean {
    return this.#get<{ path: string }>(
      "SELECT path FROM files WHERE path > ?1 || '/' AND path < ?1 || '0' LIMIT 1",
      folder,
    ) !== undefined;
  }

  /** Removes a file and all its facts. Call inside a transaction. */
  removeFile(path: string): void {
    const row = this.#get<{ id: number }>("SELECT id FROM files WHERE path = ?", path);
    if (!row) return;
    if (this.#hasChunks) {
      // Before the symbols: their row ids are the chunks' (and the next file's may reuse them).
      const chunkDelete = this.#statement("DELETE FROM chunks WHERE rowid = ?");
      const ids = this.#statement("SELECT id FROM symbols WHERE file_id = ?").all(row.id);
      for (const { id } of ids as { id: number }[]) chunkDelete.run(id);
      chunkDelete.run(-row.id);
    }
    for (const table of FACT_TABLES) {
      const { changes } = this.#statement(`DELETE FROM ${table} WHERE file_id = ?`).run(row.id);
      this.#countRows(table, -Number(changes));
    }
    this.#statement("DELETE FROM files WHERE id = ?").run(row.id);
  }

  /** Records that a file's content is unchanged although its size or time moved. */
  touchFile(path: string, size: number, mtime: number): void {
    this.#statement("UPDATE files SET size = ?, mtime = ? WHERE path = ?").run(size, mtime, path);
  }

  /**
   * Every recorded extraction failure, by path (none in an index that predates them). Like
   * {@linkcode IndexStore.fileStamps}, the refresh reads them to compare with its walk, so only
   * their form is checked: a failure is listed, never read.
   */
  failures(): FailureRow[] {
    if (!this.#tableNames().includes("failures")) return [];
    const rows = this.#reading(() =>
      this.#statement("SELECT * FROM failures ORDER BY path").all() as unknown as FailureRow[]
    );
    for (const row of rows) this.#requireRelative(row.path);
    return rows;
  }

  /**
   * Records that `failure.path` failed on the content `failure.hash`; its facts (of an older
   * content) are removed. Call inside a transaction.
   */
  recordFailure(failure: FailureRow): void {
    this.removeFile(failure.path);
    this.#statement(
      "INSERT OR REPLACE INTO failures(path, hash, size, mtime, reason) VALUES (?, ?, ?, ?, ?)",
    ).run(failure.path, failure.hash, failure.size, failure.mtime, failure.reason);
  }

  /** Forgets the failure of `path` (indexed since, or gone). Call inside a transaction. */
  clearFailure(path: string): void {
    this.#statement("DELETE FROM failures WHERE path = ?").run(path);
  }

  /** Records that a failed file's content is unchanged although its size or time moved. */
  touchFailure(path: string, size: number, mtime: number): void {
    this.#statement("UPDATE failures SET size = ?, mtime = ? WHERE path = ?").run(
      size,
      mtime,
      path,
    );
  }

  /**
   * Replaces a file's facts with `write`'s (and forgets its failure). Call inside a transaction.
   * With `chunks`, the file's chunk rows (their row ids first, {@linkcode chunkRowValues}) go to
   * it instead of the table: a cold build writes them into a side database on another thread
   * (`chunk_side.ts`).
   */
  writeFile(write: FileWrite, chunks?: (values: RowValue[]) => void): void {
    const { rows } = write;
    this.removeFile(write.path);
    const { lastInsertRowid } = this.#statement(FILE_INSERT).run(
      write.path,
      write.hash,
      write.size,
      write.mtime,
      rows.language,
      rows.parse_errors,
    );
    const fileId = Number(lastInsertRowid);
    this.clearFailure(write.path);
    const firstSymbol = this.#insertRows("symbols", SYMBOL_ROW_COLUMNS, fileId, rows.symbols);
    this.#insertRows("refs", REF_ROW_COLUMNS, fileId, rows.refs);
    this.#insertRows("imports", IMPORT_ROW_COLUMNS, fileId, rows.imports);
    if (!this.#hasChunks) return;
    const symbols = rows.symbols.length / SYMBOL_ROW_COLUMNS.length;
    const values = chunkRowValues(fileId, firstSymbol, symbols, rows.chunks);
    if (chunks) chunks(values);
    else insertChunkRows((sql, row) => this.#statement(sql).run(...row), values);
  }

  /**
   * Whether the full-text table holds no chunk, not even a deleted one's trace: a side build's
   * chunks ({@linkcode IndexStore.adoptChunks}) may only replace an empty table.
   */
  chunksEmpty(): boolean {
    if (!this.hasChunks()) return false;
    // No chunk's size, and no segment (one that holds only deletions counts too).
    return this.#get("SELECT 1 AS one FROM chunks_docsize LIMIT 1") === undefined &&
      this.#get("SELECT 1 AS one FROM chunks_idx LIMIT 1") === undefined;
  }

  /**
   * Takes the chunks a side build wrote into the database at `sidePath` (a table made by
   * `ADDED_CHUNKS_TABLE`, filled through `chunk_side.ts`) as this index's: its full-text table's
   * four tables are copied row by row, in one transaction, into this table, which must be empty
   * ({@linkcode IndexStore.chunksEmpty}). An FTS5 index is those tables and nothing else, and it
   * names each chunk by its row id alone, so the copy is the index the inserts would have made
   * (the test compares their scores). Not `ATTACH`: Deno refuses it to a run without every
   * permission. SQLite refuses writes to those tables from SQL in its defensive mode: the copy
   * runs on a second connection of its own, opened without it and closed at once, so this one
   * never leaves it.
   */
  adoptChunks(sidePath: string): void {
    if (!this.chunksEmpty()) throw new Error("the index's chunk table is not empty");
    // Not read-only: a build stopped inside a batch left a journal to roll back.
    const side = new DatabaseSync(sidePath);
    const copier = new DatabaseSync(this.location.absPath, UNDEFENDED);
    try {
      copier.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      copier.exec("PRAGMA trusted_schema = OFF");
      copier.exec("BEGIN IMMEDIATE");
      try {
        for (const table of CHUNK_SHADOW_TABLES) copyRows(side, copier, table);
        copier.exec("COMMIT");
      } catch (error) {
        copier.exec("ROLLBACK");
        throw error;
      }
    } catch (error) {
      throw this.#sqliteError(error);
    } finally {
      copier.close();
      side.close();
    }
    this.#forgetDerived();
  }

  /**
   * Inserts the rows whose values are `values` (`columns.length` per row) into `table`, all
   * with the file id `fileId`, up to {@linkcode ROWS_PER_INSERT} rows per statement: each
   * statement run is a call into SQLite whose cost does not grow with its rows. Answers the row
   * id of the first row: SQLite gives each row of an insert without ids the largest id so far
   * plus one, so the rows' ids follow each other (checked: the chunks of `symbols` rows are
   * stored under these ids).
   */
  #insertRows(
    table: FactTable,
    columns: readonly string[],
    fileId: number,
    values: RowValue[],
  ): number {
    const width = columns.length;
    const rows = values.length / width;
    this.#countRows(table, rows);
    let firstId = 0;
    for (let first = 0; first < rows; first += ROWS_PER_INSERT) {
      const count = Math.min(ROWS_PER_INSERT, rows - first);
      const statement = this.#statement(multiRowInsertSql(table, columns, count));
      const last = Number(
        statement.run(fileId, ...values.slice(first * width, (first + count) * width))
          .lastInsertRowid,
      );
      if (first === 0) firstId = last - count + 1;
      else if (last !== firstId + first + count - 1) {
        throw new Error(`the rows of ${table} were not given consecutive ids (${last})`);
      }
    }
    return firstId;
  }

  /** Counts of the index. */
  counts(): IndexCounts {
    const count = (sql: string) => this.#get<{ n: number }>(sql)?.n ?? 0;
    return {
      files: count("SELECT count(*) AS n FROM files"),
      ...this.#tally(),
      parse_error_files: count("SELECT count(*) AS n FROM files WHERE parse_errors > 0"),
    };
  }

  /** Definitions named `name` or qualified as `name`, by path and position. */
  symbolsNamed(name: string): SymbolRow[] {
    return this.#all<SymbolRow>(
      `${SYMBOL_SELECT} WHERE s.name = ?1 OR s.qualified_name = ?1 ORDER BY f.path, s.byte_start`,
      name,
    );
  }

  /** Definitions whose `symbol_id` is `id`, by path and position. */
  symbolsWithId(id: string): SymbolRow[] {
    return this.#all<SymbolRow>(
      `${SYMBOL_SELECT} WHERE s.symbol_id = ? ORDER BY f.path, s.byte_start`,
      id,
    );
  }

  /**
   * Every definition's graph fields, in row order (file by file, each file's in source order),
   * read in slices of row ids so that only the caller's objects stay in memory.
   */
  *everySymbol(): Generator<SymbolBriefRow> {
    const last = this.#get<{ last: number | null }>("SELECT max(id) AS last FROM symbols")?.last ??
      0;
    const slice = this.#statement(
      "SELECT file_id, symbol_id, name, qualified_name, kind, parent, start_line, start_col " +
        "FROM symbols WHERE id >= ? AND id < ? ORDER BY id",
    );
    for (let low = 0; low <= last; low += USE_SLICE) {
      yield* this.#reading(() => slice.all(low, low + USE_SLICE) as unknown as SymbolBriefRow[]);
    }
  }

  /** Every definition's `symbol_id` and signature, in the row order of `everySymbol`. */
  *everySignature(): Generator<Pick<SymbolRow, "symbol_id" | "signature">> {
    const last = this.#get<{ last: number | null }>("SELECT max(id) AS last FROM symbols")?.last ??
      0;
    const slice = this.#statement(
      "SELECT symbol_id, signature FROM symbols WHERE id >= ? AND id < ? ORDER BY id",
    );
    for (let low = 0; low <= last; low += USE_SLICE) {
      yield* this.#reading(() => slice.all(low, low + USE_SLICE)) as unknown as Pick<
        SymbolRow,
        "symbol_id" | "signature"
      >[];
    }
  }

  /**
   * Every use grouped by file, enclosing definition, name and call or not, with its count
   * (`callsOnly`: calls only). A use's resolution depends on exactly these, so each group is
   * resolved once however many uses it holds. Read in slices of row ids, each grouped by SQLite
   * on a plain scan (faster than through the lookup indexes, and memory stays bounded); a group
   * that straddles two slices comes twice, with its uses split.
   */
  *useGroups(callsOnly: boolean): Generator<UseGroupRow> {
    const last = this.#get<{ last: number | null }>("SELECT max(id) AS last FROM refs")?.last ?? 0;
    const slice = this.#statement(
      "SELECT file_id, enclosing, name, is_call, count(*) AS uses FROM refs NOT INDEXED " +
        `WHERE id >= ? AND id < ? ${callsOnly ? "AND is_call = 1 " : ""}` +
        "GROUP BY file_id, enclosing, name, is_call",
    );
    for (let low = 0; low <= last; low += USE_SLICE) {
      yield* this.#reading(() => slice.all(low, low + USE_SLICE) as unknown as UseGroupRow[]);
    }
  }

  /** Definitions whose name starts with `prefix` (case-sensitive), by path and position. */
  symbolsWithPrefix(prefix: string): SymbolRow[] {
    return this.#all<SymbolRow>(
      `${SYMBOL_SELECT} WHERE s.name >= ?1 AND s.name < ?1 || char(1114111) ` +
        "ORDER BY f.path, s.byte_start",
      prefix,
    );
  }

  /** Definitions of the file `fileId`, by position. */
  symbolsOfFile(fileId: number): SymbolRow[] {
    return this.#all<SymbolRow>(
      `${SYMBOL_SELECT} WHERE s.file_id = ? ORDER BY s.byte_start, s.byte_end DESC`,
      fileId,
    );
  }

  /** The row ids of `fileId`'s definitions: their chunks' rowids (see {@linkcode ChunkScore}). */
  symbolIdsOfFile(fileId: number): number[] {
    return this.#all<{ id: number }>("SELECT id FROM symbols WHERE file_id = ?", fileId)
      .map((row) => row.id);
  }

  /** The definition of `fileId` qualified as `qualifiedName` (the first when several). */
  symbolInFile(fileId: number, qualifiedName: string): SymbolRow | undefined {
    return this.#get<SymbolRow>(
      `${SYMBOL_SELECT} WHERE s.file_id = ? AND s.qualified_name = ? ORDER BY s.byte_start`,
      fileId,
      qualifiedName,
    );
  }

  /** Distinct definition names between `low` (inclusive) and `high` (exclusive). */
  namesBetween(low: string, high: string): string[] {
    return this.#all<{ name: string }>(
      "SELECT DISTINCT name FROM symbols WHERE name >= ? AND name < ?",
      low,
      high,
    ).map((row) => row.name);
  }

  /** Distinct definition names containing `part` (case-insensitive for ASCII), at most `max`. */
  namesContaining(part: string, max: number): string[] {
    return this.#all<{ name: string }>(
      "SELECT DISTINCT name FROM symbols WHERE instr(lower(name), lower(?)) > 0 LIMIT ?",
      part,
      max,
    ).map((row) => row.name);
  }

  /** Every distinct definition name. */
  allNames(): string[] {
    return this.#all<{ name: string }>("SELECT DISTINCT name FROM symbols").map((row) => row.name);
  }

  /** Uses of `name` (calls only with `callsOnly`), by path and position. */
  refsNamed(name: string, callsOnly: boolean): RefRow[] {
    return this.#all<RefRow>(
      `${REF_SELECT} WHERE r.name = ? ${callsOnly ? "AND r.is_call = 1 " : ""}` +
        "ORDER BY f.path, r.byte_start",
      name,
    );
  }

  /**
   * Uses of `query` by path and position, `count` of them from the `offset`th: the order is
   * taken from the covering index of names and the file paths, and only the rows listed are
   * read whole (`refs kfree` of the Linux tree has 37,761 uses).
   */
  usesPage(query: UseQuery, offset: number, count: number): RefRow[] {
    const { sql, params } = useCondition(query);
    return this.#all<RefRow>(
      `${REF_SELECT} WHERE r.id IN (SELECT r.id FROM refs r JOIN files f ON f.id = r.file_id ` +
        `WHERE ${sql} ORDER BY f.path, r.byte_start, r.id LIMIT ? OFFSET ?) ` +
        "ORDER BY f.path, r.byte_start, r.id",
      ...params,
      count,
      offset,
    );
  }

  /** How many uses `query` has (read from the index of names alone when no scope is given). */
  useCount(query: UseQuery): number {
    const { sql, params } = useCondition(query);
    const join = sql.includes("f.path") ? " JOIN files f ON f.id = r.file_id" : "";
    return this.#get<{ n: number }>(
      `SELECT count(*) AS n FROM refs r${join} WHERE ${sql}`,
      ...params,
    )!.n;
  }

  /** Calls made inside the definition `enclosing` of `fileId`, by position. */
  callsWithin(fileId: number, enclosing: string): RefRow[] {
    return this.#all<RefRow>(
      `${REF_SELECT} WHERE r.file_id = ? AND r.enclosing = ? AND r.is_call = 1 ORDER BY r.byte_start`,
      fileId,
      enclosing,
    );
  }

  /** Imports of the file `fileId`, by position. */
  importsOfFile(fileId: number): ImportRow[] {
    return this.#all<ImportRow>(
      `${IMPORT_SELECT} WHERE i.file_id = ? ORDER BY i.byte_start`,
      fileId,
    );
  }

  /** Imports whose target contains `part`, by path and position. */
  importsMentioning(part: string): ImportRow[] {
    return this.#all<ImportRow>(
      `${IMPORT_SELECT} WHERE instr(i.target, ?) > 0 ORDER BY f.path, i.byte_start`,
      part,
    );
  }

  /**
   * Whether the index has its chunks' full-text table: false for an index written before it was
   * added (every chunk query then answers nothing; the next refresh by a writer fills it).
   */
  hasChunks(): boolean {
    // An index opened before another run added the table has it after that run's commit.
    this.#hasChunks ||= this.derived("chunks:present", () => this.#tableNames().includes("chunks"));
    return this.#hasChunks;
  }

  /** How many chunks the index has (0 without the table). */
  chunkCount(): number {
    if (!this.hasChunks()) return 0;
    return this.derived(
      "chunks:count",
      () => this.#get<{ n: number }>("SELECT count(*) AS n FROM chunks_docsize")!.n,
    );
  }

  /**
   * How many chunks have `term` (its document frequency; 0 without the table). Counted on
   * FTS5's list of the term's chunks, with no score: about 0.05 µs a chunk.
   */
  chunkFrequency(term: string): number {
    if (!this.hasChunks()) return 0;
    return this.#get<{ n: number }>(
      "SELECT count(*) AS n FROM chunks WHERE chunks MATCH ?",
      quoteTerm(term),
    )!.n;
  }

  /**
   * BM25 (FTS5's `bm25()`: k1 = 1.2, b = 0.75, the term's IDF over all chunks, a chunk's length
   * its terms in both columns) of `term` in every chunk that has it, with the columns weighted by
   * `scoring`. Kept until the index changes, up to {@linkcode KEPT_POSTINGS} chunks for all
   * terms: a long-lived host meets the same words task after task. Costs about 1 µs a chunk,
   * half of it FTS5 reading each chunk's length.
   */
  termScores(term: string, scoring: ChunkScoring = {}): TermScores {
    const name = scoring.nameWeight ?? DEFAULT_NAME_WEIGHT;
    const body = scoring.bodyWeight ?? DEFAULT_BODY_WEIGHT;
    if (!this.hasChunks()) return { rowids: new Int32Array(0), scores: new Float64Array(0) };
    const kept = this.derived(
      "chunks:scores",
      () => ({ terms: new Map<string, TermScores>(), size: 0 }),
    );
    const key = `${name}:${body}:${term}`;
    const found = kept.terms.get(key);
    if (found) return found;
    const rows = this.#reading(() => {
      const statement = this.#statement(
        "SELECT rowid, bm25(chunks, ?, ?) FROM chunks WHERE chunks MATCH ?",
      ) as unknown as ArrayStatement;
      statement.setReturnArrays(true);
      return statement.all(name, body, quoteTerm(term)) as [number, number][];
    });
    const scores: TermScores = {
      rowids: new Int32Array(rows.length),
      scores: new Float64Array(rows.length),
    };
    rows.forEach(([rowid, score], index) => {
      scores.rowids[index] = rowid;
      scores.scores[index] = -score; // bm25() is negated: the lower, the better
    });
    if (kept.size + rows.length > KEPT_POSTINGS) {
      kept.terms.clear();
      kept.size = 0;
    }
    kept.terms.set(key, scores);
    kept.size += rows.length;
    return scores;
  }

  /**
   * The `limit` chunks with the highest sum over `terms` of weight × BM25 of the term
   * ({@linkcode IndexStore.termScores}), best first (ties by rowid). A term common to the
   * chunks is left out ({@linkcode COMMON_TERM_SHARE}): past half of them its IDF is below 0,
   * which FTS5 raises to 10⁻⁶, and past a tenth it weighs little beside the rarer terms while
   * its postings cost the most (on sympy, 40,000 chunks: the ranking of a task 25 % faster, the
   * dev set's measures unchanged). Only in a small index, and only when every term is common,
   * are the common terms scored (their counts and the chunks' lengths order the chunks). Empty
   * without the table.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { indexRoot } from "./indexer.ts";
   * import { IndexStore, locateDb } from "./store.ts";
   * const root = Deno.makeTempDirSync();
   * Deno.writeTextFileSync(`${root}/shapes.py`, "def area(radius):\n    return 3.14 * radius ** 2\n");
   * Deno.writeTextFileSync(`${root}/text.py`, "def parse_args(argv):\n    return argv[1:]\n");
   * await indexRoot({ root, threads: 0 });
   * const store = IndexStore.open(locateDb(root, undefined, false), "read");
   * const best = store.chunkScores([{ term: "radius", weight: 1 }, { term: "parse", weight: 0.5 }], 5);
   * const rows = store.chunkRows(best.map((chunk) => chunk.rowid));
   * assert.deepEqual(rows.map((row) => row.symbol?.qualified_name), ["area", "parse_args"]);
   * store.close();
   * Deno.removeSync(root, { recursive: true });
   * ```
   */
  chunkScores(
    terms: readonly WeightedTerm[],
    limit: number,
    scoring: ChunkScoring = {},
  ): ChunkScore[] {
    if (!this.hasChunks() || limit <= 0) return [];
    const chunks = this.chunkCount();
    const common = Math.min(
      chunks / 2,
      Math.max(chunks * COMMON_TERM_SHARE, COMMON_TERM_MIN_CHUNKS),
    );
    const lists: { weight: number; scores: TermScores }[] = [];
    const skipped: WeightedTerm[] = [];
    let postings = 0;
    const add = ({ term, weight }: WeightedTerm) => {
      const scores = this.termScores(term, scoring);
      lists.push({ weight, scores });
      postings += scores.rowids.length;
    };
    for (const weighted of terms) {
      if (!(weighted.weight > 0)) continue;
      const { term } = weighted;
      if (this.derived(`chunks:df:${term}`, () => this.chunkFrequency(term)) > common) {
        skipped.push(weighted);
      } else add(weighted);
    }
    // In a small index where the query's terms are all common or absent (a task about a tiny
    // project, in its own words), the common ones score: how often, in how short a chunk.
    if (postings === 0 && chunks <= COMMON_TERM_MIN_CHUNKS) skipped.forEach(add);
    const { symbols, files } = this.derived("chunks:bounds", () => ({
      symbols: this.#get<{ n: number | null }>("SELECT max(id) AS n FROM symbols")!.n ?? 0,
      files: this.#get<{ n: number | null }>("SELECT max(id) AS n FROM files")!.n ?? 0,
    }));
    // Sums by slot (definitions at 1…symbols, modules after them): in a dense array (a Map costs
    // ten times more a chunk) unless the chunks met are few beside those of the index.
    const dense = postings * 8 >= symbols + files;
    const sums = dense ? new Float64Array(symbols + files + 1) : undefined;
    const sparse = dense ? undefined : new Map<number, number>();
    const touched: number[] = [];
    for (const { weight, scores } of lists) {
      for (let i = 0; i < scores.rowids.length; i++) {
        const rowid = scores.rowids[i];
        if (scoring.within && !scoring.within.has(rowid)) continue;
        // A row another connection added after the bounds were read is left out.
        const slot = rowid > 0
          ? (rowid <= symbols ? rowid : 0)
          : (-rowid <= files ? symbols - rowid : 0);
        if (slot === 0) continue;
        const score = weight * scores.scores[i];
        if (sums) {
          if (sums[slot] === 0) touched.push(slot);
          sums[slot] += score;
        } else {
          const sum = sparse!.get(slot);
          if (sum === undefined) touched.push(slot);
          sparse!.set(slot, (sum ?? 0) + score);
        }
      }
    }
    const sumOf = sums ? (slot: number) => sums[slot] : (slot: number) => sparse!.get(slot)!;
    // The limit-th best score, then only the chunks at or above it are sorted.
    let threshold = -Infinity;
    if (touched.length > limit) {
      const all = Float64Array.from(touched, sumOf).sort();
      threshold = all[all.length - limit];
    }
    const best: ChunkScore[] = [];
    for (const slot of touched) {
      const score = sumOf(slot);
      if (score >= threshold) best.push({ rowid: slot > symbols ? symbols - slot : slot, score });
    }
    best.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    return best.slice(0, limit);
  }

  /**
   * What the chunks `rowids` are, in the order given: a definition's row (its file, span, name,
   * kind, qualified name and signature) for a positive rowid, the file for a negative one (its
   * module-level code). A rowid the index no longer has is left out.
   */
  chunkRows(rowids: readonly number[]): ChunkRow[] {
    const symbolIds = rowids.filter((rowid) => rowid > 0);
    const fileIds = rowids.filter((rowid) => rowid < 0).map((rowid) => -rowid);
    const symbols = new Map<number, SymbolRow>();
    if (symbolIds.length > 0) {
      for (
        const row of this.#all<SymbolRow & { id: number }>(
          `${SYMBOL_SELECT.replace("SELECT ", "SELECT s.id AS id, ")} ` +
            "WHERE s.id IN (SELECT value FROM json_each(?))",
          JSON.stringify(symbolIds),
        )
      ) {
        const { id, ...symbol } = row;
        symbols.set(id, symbol);
      }
    }
    const files = new Map<number, { id: number; path: string; language: string }>();
    if (fileIds.length > 0) {
      for (
        const row of this.#all<{ id: number; path: string; language: string }>(
          "SELECT id, path, language FROM files WHERE id IN (SELECT value FROM json_each(?))",
          JSON.stringify(fileIds),
        )
      ) files.set(row.id, row);
    }
    const rows: ChunkRow[] = [];
    for (const rowid of rowids) {
      const symbol = symbols.get(rowid);
      const file = rowid < 0 ? files.get(-rowid) : undefined;
      if (symbol) {
        rows.push({
          rowid,
          file_id: symbol.file_id,
          path: symbol.path,
          language: symbol.language,
          symbol,
        });
      } else if (file) {
        rows.push({
          rowid,
          file_id: file.id,
          path: file.path,
          language: file.language,
          symbol: null,
        });
      }
    }
    return rows;
  }

  /**
   * Lets this connection keep up to `kib` KiB of database pages between statements (SQLite's
   * default is 2 MiB): a long-lived host asks the same names' index pages and the file rows
   * their uses join again and again, and reading them back from the OS page cache was half of a
   * `callers` answer.
   */
  keepPages(kib: number): void {
    this.#db.exec(`PRAGMA cache_size = -${Math.trunc(kib)}`);
  }

  /**
   * Leaves copying the write-ahead log into the database to {@linkcode checkpoint} until the log
   * holds `pages` pages (SQLite's own default is 1,000): copying after each commit took 60 ms of
   * the 90 ms a long-lived host spent re-indexing one edited file of the Linux tree.
   */
  deferCheckpoints(pages: number): void {
    this.#db.exec(`PRAGMA wal_autocheckpoint = ${Math.trunc(pages)}`);
  }

  /** Copies the write-ahead log into the database as far as no reader still needs it. */
  checkpoint(): void {
    this.#db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  }

  /** Closes the database (checkpointing its WAL when it is the last connection). */
  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }
}

const EXTENT_COLUMNS = "byte_start, byte_end, start_line, start_col, end_line, end_col";

/** Tables of a file's facts. */
const FACT_TABLES = ["symbols", "refs", "imports"] as const;
type FactTable = typeof FACT_TABLES[number];

/** Rows of each fact table, as {@linkcode IndexCounts} names them. */
type FactCounts = Pick<IndexCounts, "symbols" | "references" | "imports">;
const FACT_COUNT_OF: Record<FactTable, keyof FactCounts> = {
  symbols: "symbols",
  refs: "references",
  imports: "imports",
};
/** `meta` key of the JSON of the fact tables' {@linkcode FactCounts}. */
const FACT_COUNTS_KEY = "fact_counts";

/** Derived values an index keeps at most before it drops them all (a bound on its memory). */
const DERIVED_VALUES = 20_000;

/** Default weight of a match in a chunk's `name` ({@linkcode ChunkScoring}). */
const DEFAULT_NAME_WEIGHT = 3;
/** Default weight of a match in a chunk's `body`. */
const DEFAULT_BODY_WEIGHT = 1;

/**
 * Most chunks {@linkcode IndexStore.termScores} keeps the scores of, over all its terms (12 bytes
 * each: 12 MB): more, and all are dropped.
 */
const KEPT_POSTINGS = 1_000_000;

/**
 * Replaces the rows of `table` in `to` with those of `table` in `from` (integers read as BigInt:
 * FTS5's block ids pass 2^53).
 */
function copyRows(from: DatabaseSync, to: DatabaseSync, table: string): void {
  const read = from.prepare(`SELECT * FROM ${table}`);
  read.setReadBigInts(true);
  const columns = read.columns().length;
  to.exec(`DELETE FROM ${table}`);
  const write = to.prepare(`INSERT INTO ${table} VALUES (${Array(columns).fill("?").join(", ")})`);
  for (const row of read.iterate()) write.run(...Object.values(row) as SQLInputValue[]);
}

/** `term` as an FTS5 string (a phrase of its tokens: no operator or column filter is read). */
function quoteTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

const FILE_INSERT = "INSERT INTO files(path, hash, size, mtime, language, parse_errors) " +
  "VALUES (?, ?, ?, ?, ?, ?)";

/**
 * `INSERT INTO table(file_id, columns) VALUES (?1, ?, …), …` for `count` rows: every row
 * takes the file id from the first parameter (a bare `?` numbers itself after the largest
 * number so far, so the row values follow it in order).
 */
function multiRowInsertSql(table: string, columns: readonly string[], count: number): string {
  const row = `(?1${", ?".repeat(columns.length)})`;
  return `INSERT INTO ${table}(file_id, ${columns.join(", ")}) VALUES ${
    Array(count).fill(row).join(", ")
  }`;
}
const FILE_COLUMNS = "f.path AS path, f.language AS language";
const SYMBOL_SELECT = `SELECT s.file_id, s.symbol_id, s.name, s.qualified_name, s.kind, ` +
  `s.parent, s.signature, ${prefixed("s")}, ${FILE_COLUMNS} ` +
  "FROM symbols s JOIN files f ON f.id = s.file_id";
const REF_SELECT = `SELECT r.file_id, r.name, r.is_call, r.enclosing, r.qualifier, ` +
  `${prefixed("r")}, ${FILE_COLUMNS} FROM refs r JOIN files f ON f.id = r.file_id`;
const IMPORT_SELECT = `SELECT i.file_id, i.target, i.kind, i.names, ${prefixed("i")}, ` +
  `${FILE_COLUMNS} FROM imports i JOIN files f ON f.id = i.file_id`;

function prefixed(alias: string): string {
  return EXTENT_COLUMNS.split(", ").map((column) => `${alias}.${column}`).join(", ");
}
