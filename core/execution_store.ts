/**
 * Writing the shared execution log: the store's place (`<root>/.llm/log`), its checks, and
 * appending one record under the writers' lock with rotation at the size cap. Kept apart from
 * reading ({@link ./execution_log.ts}) so a command-line run that only appends its record does
 * not build the record schemas at start-up.
 *
 * @module
 */
import { basename, dirname, join, resolve, sep } from "./path_syntax.ts";
import { type Diagnostic, makeDiagnostic, ToolError } from "../schema/diagnostic.ts";
import type { CodePrefix } from "../schema/error_codes.ts";
import type { ExecutionRecord } from "../schema/mcp.ts";
import { stateFolder } from "./transaction/confine.ts";

/** Name of the live log file in the log directory. */
export const LOG_FILE = "executions.jsonl";

/** Name of the rotated (older) log file. */
export const ROTATED_LOG_FILE = "executions.1.jsonl";

/** Name of the lock file writers hold while they append (never renamed). */
export const LOCK_FILE = "executions.lock";

/** Default size cap of the log file. */
export const DEFAULT_LOG_MAX_BYTES: number = 16 * 1024 * 1024;

/** Default bound of the records kept in memory by a long-lived host. */
export const DEFAULT_MEMORY_MAX_BYTES: number = 128 * 1024 * 1024;

/** The levels of the store under a root. */
const STORE_LEVELS = [".llm", "log"] as const;

/**
 * The store of a workspace: `<root>/.llm/log` (`root` as given, made absolute).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storeDirectory } from "./execution_log.ts";
 * assert.equal(storeDirectory("/repo"), "/repo/.llm/log");
 * ```
 */
export function storeDirectory(root: string): string {
  return join(resolve(root), ...STORE_LEVELS);
}

/** The message of a thrown value, for a warning. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where the absolute `dir` hangs from: a folder under a state folder (`<root>/.llm/log`, or an
 * MCP server's `--log-dir <root>/.llm/mcp-log`) is checked from the parent of `.llm`, level by
 * level; another directory (a `--log-dir` in the user's cache) as its last level only.
 */
function storeLevels(dir: string): { base: string; levels: string[] } {
  const parts = dir.split(sep);
  const state = parts.lastIndexOf(STORE_LEVELS[0]);
  return state > 0
    ? { base: parts.slice(0, state).join(sep) || sep, levels: parts.slice(state) }
    : { base: dirname(dir), levels: [basename(dir)] };
}

/**
 * Checks that the store `dir` is made of real directories (for `<root>/.llm/log`: `.llm` and
 * `.llm/log`, as the journal's `.llm/journal` is checked); with `create`, makes what is missing
 * (a workspace store one level at a time, never through a link) and puts a `.gitignore` in a
 * new store so the log never dirties the repository. Returns whether `dir` exists; throws
 * `${prefix}-PERM-020` when a level is a symbolic link or not a directory, or one of the log's
 * files is not a regular file. Call it right before each read or write of the store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkStore, storeDirectory } from "./execution_log.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(checkStore(storeDirectory(root), "LMS", true), true);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function checkStore(dir: string, prefix: CodePrefix, create: boolean): boolean {
  const { base, levels } = storeLevels(resolve(dir));
  const code = `${prefix}-PERM-020`;
  if (stateFolder(base, levels, code, false) !== null) {
    for (const name of [LOG_FILE, ROTATED_LOG_FILE, LOCK_FILE]) requireFile(join(dir, name), code);
    return true;
  }
  if (!create) return false;
  if (levels[0] !== STORE_LEVELS[0]) Deno.mkdirSync(base, { recursive: true });
  stateFolder(base, levels, code, true);
  Deno.writeTextFileSync(join(dir, ".gitignore"), "*\n");
  return true;
}

/** Throws `code` when `path` holds something other than a regular file (a link, a FIFO, …). */
function requireFile(path: string, code: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (info.isFile) return;
  throw new ToolError(
    code,
    `${path} is ${info.isSymlink ? "a symbolic link" : "not a regular file"}; the execution ` +
      "log is not read or written through it",
    { file: path, remediation: `Remove ${path}; the tools recreate it.` },
  );
}

function fileSize(path: string): number {
  try {
    return Deno.lstatSync(path).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}

/** Writes all of `bytes` to `file` (a short write continues where it stopped). */
function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
}

/**
 * Appends one record to the store `dir` under its lock: rotates first when the record would pass
 * `maxFileBytes`. Returns `false`, writing nothing, when the record alone is larger than the cap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appendExecution, checkStore, findExecution } from "./execution_log.ts";
 * import { queryEnvelope } from "@llm/search/schema";
 * const dir = Deno.makeTempDirSync();
 * checkStore(dir, "LMS", true);
 * const envelope = queryEnvelope("llm-search", { count: 0 }, []);
 * appendExecution(dir, {
 *   execution_id: envelope.execution_id, tool: "search", origin: "cli", arguments: {},
 *   timestamp: envelope.timestamp, duration_ms: 3, status: "ok", envelope,
 * });
 * assert.equal(findExecution(dir, envelope.execution_id)?.origin, "cli");
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function appendExecution(
  dir: string,
  record: ExecutionRecord,
  maxFileBytes: number = DEFAULT_LOG_MAX_BYTES,
): boolean {
  return appendLine(dir, encodeRecord(record), maxFileBytes);
}

/**
 * Appends `record` to the store `dir`; when it alone passes the cap, appends it without its
 * results instead (a query's data cut to its count, a mutation's `result` left out) with the
 * `*-IO-021` warning added to its diagnostics, so the run is still listed and found by id.
 * Returns that warning when the record was cut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkStore, findExecution, logExecution } from "./execution_log.ts";
 * import { queryEnvelope } from "@llm/search/schema";
 * const dir = Deno.makeTempDirSync();
 * checkStore(dir, "LMS", true);
 * const envelope = queryEnvelope("llm-search", { count: 1, text: "x".repeat(2_000) }, []);
 * const owner = { name: "llm-search", prefix: "LMS" } as const;
 * const record = {
 *   execution_id: envelope.execution_id, tool: "search", arguments: {},
 *   timestamp: envelope.timestamp, duration_ms: 3, status: envelope.status, envelope,
 * };
 * assert.equal(logExecution(dir, record, owner, 1_000)?.code, "LMS-IO-021");
 * const logged = findExecution(dir, envelope.execution_id);
 * assert.equal(logged?.envelope.diagnostics[0].code, "LMS-IO-021");
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function logExecution(
  dir: string,
  record: ExecutionRecord,
  owner: LogOwner,
  maxFileBytes: number = DEFAULT_LOG_MAX_BYTES,
  line: Uint8Array = encodeRecord(record),
): Diagnostic | undefined {
  if (appendLine(dir, line, maxFileBytes)) return undefined;
  const warning = tooLarge(owner, dir, record, maxFileBytes);
  appendLine(dir, encodeRecord(withoutResults(record, warning)), maxFileBytes);
  return warning;
}

/** `record` with its results left out and `warning` added to its envelope's diagnostics. */
function withoutResults(record: ExecutionRecord, warning: Diagnostic): ExecutionRecord {
  const { envelope } = record;
  const diagnostics = [...envelope.diagnostics, warning];
  if ("data" in envelope) {
    return {
      ...record,
      envelope: { ...envelope, data: { count: envelope.data.count }, diagnostics },
    };
  }
  const { result: _left, ...rest } = envelope;
  return { ...record, envelope: { ...rest, diagnostics } };
}

/** One record as its line in the log file. */
export function encodeRecord(record: ExecutionRecord): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(record) + "\n");
}

/** {@linkcode appendExecution} of a record already encoded. */
function appendLine(dir: string, bytes: Uint8Array, maxFileBytes: number): boolean {
  if (bytes.length > maxFileBytes) return false;
  const lock = Deno.openSync(join(dir, LOCK_FILE), { write: true, create: true });
  try {
    lock.lockSync(true);
    const live = join(dir, LOG_FILE);
    if (fileSize(live) + bytes.length > maxFileBytes) {
      Deno.renameSync(live, join(dir, ROTATED_LOG_FILE));
    }
    const file = Deno.openSync(live, { append: true, create: true });
    try {
      writeAll(file, bytes);
    } finally {
      file.close();
    }
  } finally {
    lock.close(); // closing releases the lock
  }
  return true;
}

/** The tool a warning about the log comes from. */
export interface LogOwner {
  /** Command name, e.g. `llm-mcp`. */
  name: string;
  /** Code prefix, e.g. `MCP`. */
  prefix: CodePrefix;
}

/**
 * The `*-IO-020` warning: a run's record was not written to the store `dir`, for `reason`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unwritableStore } from "./execution_log.ts";
 * const owner = { name: "llm-search", prefix: "LMS" } as const;
 * assert.equal(unwritableStore(owner, "/repo/.llm/log", "no write permission").code, "LMS-IO-020");
 * ```
 */
export function unwritableStore(owner: LogOwner, dir: string, reason: string): Diagnostic {
  return makeDiagnostic(
    owner.name,
    `${owner.prefix}-IO-020`,
    `execution log not written to ${dir}: ${reason}`,
    { level: "warning", file: dir },
  );
}

/** The `*-IO-021` warning: `record` alone is larger than the store's size cap. */
export function tooLarge(
  owner: LogOwner,
  dir: string,
  record: ExecutionRecord,
  maxFileBytes: number,
): Diagnostic {
  return makeDiagnostic(
    owner.name,
    `${owner.prefix}-IO-021`,
    `execution ${record.execution_id} is larger than the log cap (${maxFileBytes} bytes); ` +
      "it is logged without its results",
    { level: "warning", file: join(dir, LOG_FILE) },
  );
}
