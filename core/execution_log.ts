/**
 * The execution log every run shares: command-line runs of every tool and the MCP server's calls
 * are appended to one store, `<root>/.llm/log/executions.jsonl` (one JSON record a line), so a
 * result can be fetched by its `execution_id` after an agent's context was compacted
 * (`llm-log show ID`, or the MCP tool `get_execution`).
 *
 * The file has a size cap: when the next record would pass it, the file is rotated once
 * (`executions.jsonl` → `executions.1.jsonl`, replacing the older one), so the disk holds at most
 * twice the cap. Writers in several processes take an exclusive lock on `executions.lock` (a file
 * never renamed) around the size check, the rotation and one `write` of the whole record, so
 * records never interleave or tear, whatever their size.
 *
 * `.llm` and `.llm/log` must be real directories: a symbolic link at either (which Deno's
 * `--allow-write=<root>` would let through, as it checks names only) is refused.
 *
 * @module
 */
import { join, resolve } from "./path_syntax.ts";
import { type Diagnostic, ToolError } from "../schema/diagnostic.ts";
import {
  type ExecutionListData,
  type ExecutionRecord,
  ExecutionRecordSchema,
  type ExecutionStatus,
  type ExecutionSummary,
} from "../schema/mcp.ts";
import { isPermissionRefusal } from "./permissions.ts";
import {
  checkStore,
  DEFAULT_LOG_MAX_BYTES,
  DEFAULT_MEMORY_MAX_BYTES,
  describeError,
  encodeRecord,
  LOG_FILE,
  logExecution,
  type LogOwner,
  ROTATED_LOG_FILE,
  unwritableStore,
} from "./execution_store.ts";

export * from "./execution_store.ts";

/** The records of one log file, oldest first; lines that are not records are skipped. */
function readFile(path: string): ExecutionRecord[] {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const records: ExecutionRecord[] = [];
  for (const line of text.split("\n")) {
    const record = parseRecord(line);
    if (record) records.push(record);
  }
  return records;
}

function parseRecord(line: string): ExecutionRecord | undefined {
  if (!line) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined; // a torn line (a crash mid-write): only the record it held is lost
  }
  const record = ExecutionRecordSchema.safeParse(parsed);
  return record.success ? record.data : undefined;
}

/**
 * Looks `executionId` up in the store `dir` (newest first). Lines that are not records are
 * skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findExecution } from "./execution_log.ts";
 * const dir = Deno.makeTempDirSync();
 * assert.equal(findExecution(dir, crypto.randomUUID()), undefined);
 * Deno.removeSync(dir);
 * ```
 */
export function findExecution(dir: string, executionId: string): ExecutionRecord | undefined {
  const needle = `"execution_id":${JSON.stringify(executionId)}`;
  for (const name of [LOG_FILE, ROTATED_LOG_FILE]) {
    let text: string;
    try {
      text = Deno.readTextFileSync(join(dir, name));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    const lines = text.split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
      if (!lines[i].includes(needle)) continue;
      const record = parseRecord(lines[i]);
      if (record?.execution_id === executionId) return record;
    }
  }
  return undefined;
}

/** Filters of {@linkcode listExecutions}; each one left out lets every record through. */
export interface ExecutionFilter {
  /** Tool, by MCP name (`transform`) or command name (`llm-transform`). */
  tool?: string;
  /** How the run ended. */
  status?: ExecutionStatus;
  /** Only runs that started at or after this time. */
  since?: Date;
  /** Only runs that started before this time. */
  until?: Date;
  /** At most this many (the newest); 0 = no limit. */
  limit?: number;
}

/**
 * The MCP name of a tool named either way: `llm-ast-search` → `ast_search`, `search` → `search`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpToolName } from "./execution_log.ts";
 * assert.equal(mcpToolName("llm-ast-search"), "ast_search");
 * ```
 */
export function mcpToolName(name: string): string {
  return name.startsWith("llm-") ? name.slice(4).replaceAll("-", "_") : name;
}

function summaryOf(record: ExecutionRecord): ExecutionSummary {
  const { envelope } = record;
  const error = "error" in envelope && envelope.error
    ? envelope.error
    : envelope.diagnostics.find((diagnostic) => diagnostic.level === "error");
  const summary: ExecutionSummary = {
    execution_id: record.execution_id,
    tool: record.tool,
    timestamp: record.timestamp,
    duration_ms: record.duration_ms,
    status: record.status,
    arguments: record.arguments,
  };
  if (record.origin) summary.origin = record.origin;
  if (error && record.status !== "ok") summary.error_code = error.code;
  return summary;
}

/**
 * The runs in the store `dir` that pass `filter`, newest first, without their envelopes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listExecutions } from "./execution_log.ts";
 * const dir = Deno.makeTempDirSync();
 * assert.equal(listExecutions(dir, { tool: "llm-transform", status: "ok" }).total, 0);
 * Deno.removeSync(dir);
 * ```
 */
export function listExecutions(dir: string, filter: ExecutionFilter = {}): ExecutionListData {
  const tool = filter.tool === undefined ? undefined : mcpToolName(filter.tool);
  const matching = [...readFile(join(dir, ROTATED_LOG_FILE)), ...readFile(join(dir, LOG_FILE))]
    .filter((record) =>
      (tool === undefined || record.tool === tool) &&
      (filter.status === undefined || record.status === filter.status) &&
      (filter.since === undefined || Date.parse(record.timestamp) >= filter.since.getTime()) &&
      (filter.until === undefined || Date.parse(record.timestamp) < filter.until.getTime())
    )
    .reverse();
  const limit = filter.limit ?? 0;
  const shown = limit > 0 ? matching.slice(0, limit) : matching;
  return { count: shown.length, total: matching.length, executions: shown.map(summaryOf) };
}

/** How a long-lived host keeps its log. */
export interface ExecutionLogOptions {
  /** Store the records are appended to; without it they are kept in memory only. */
  dir?: string;
  /**
   * Store looked in for records this host did not make (e.g. command-line runs), when it may
   * read but not write it; defaults to `dir`.
   */
  lookupDir?: string;
  /** Size cap of one log file in bytes. */
  maxFileBytes?: number;
  /** Bound of the records kept in memory, in serialised bytes. */
  maxMemoryBytes?: number;
  /** Who writes: names the warnings and prefixes their codes; default `llm-mcp`. */
  owner?: LogOwner;
  /** Receives warnings (the MCP server writes them to stderr). */
  warn?: (diagnostic: Diagnostic) => void;
}

interface Kept {
  record: ExecutionRecord;
  bytes: number;
}

/**
 * The log of a long-lived host (the MCP server): every record in memory (bounded by bytes, oldest
 * out first) and appended to a store when it has one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutionLog } from "@llm/search/mcp";
 * import { queryEnvelope } from "@llm/search/schema";
 * const log = new ExecutionLog();
 * const envelope = queryEnvelope("llm-x", { count: 0 }, []);
 * log.record({
 *   execution_id: envelope.execution_id, tool: "x", arguments: {}, timestamp: envelope.timestamp,
 *   duration_ms: 1, status: envelope.status, envelope,
 * });
 * assert.equal(log.get(envelope.execution_id)?.tool, "x");
 * ```
 */
export class ExecutionLog {
  readonly #memory = new Map<string, Kept>();
  readonly #maxMemoryBytes: number;
  readonly #maxFileBytes: number;
  readonly #owner: LogOwner;
  readonly #warn: (diagnostic: Diagnostic) => void;
  readonly #lookupDir: string | undefined;
  #memoryBytes = 0;
  #dir: string | undefined;

  /** Opens the log; an unwritable or linked store leaves it in memory with an `*-IO-020` warning. */
  constructor(options: ExecutionLogOptions = {}) {
    this.#maxMemoryBytes = options.maxMemoryBytes ?? DEFAULT_MEMORY_MAX_BYTES;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_LOG_MAX_BYTES;
    this.#owner = options.owner ?? { name: "llm-mcp", prefix: "MCP" };
    this.#warn = options.warn ?? (() => {});
    if (options.dir !== undefined) this.#open(resolve(options.dir));
    this.#lookupDir = options.lookupDir ?? this.#dir;
  }

  /** The store records are appended to, or undefined when the log is in memory only. */
  get dir(): string | undefined {
    return this.#dir;
  }

  #open(dir: string): void {
    const state = Deno.permissions.querySync({ name: "write", path: dir }).state;
    if (state !== "granted") {
      this.#unwritable(dir, `no write permission for ${dir}`);
      return;
    }
    try {
      checkStore(dir, this.#owner.prefix, true);
      // Open for append once, so a read-only directory is found now rather than at the first call.
      Deno.openSync(join(dir, LOG_FILE), { append: true, create: true }).close();
      this.#dir = dir;
    } catch (error) {
      this.#unwritable(dir, describeError(error));
    }
  }

  #unwritable(dir: string, reason: string): void {
    this.#dir = undefined;
    this.#warn(unwritableStore(this.#owner, dir, reason));
  }

  /** Records one call: in memory, and appended to the store when there is one. */
  record(record: ExecutionRecord): void {
    const line = encodeRecord(record);
    this.#remember(record, line.length);
    if (this.#dir !== undefined) this.#append(this.#dir, record, line);
  }

  #remember(record: ExecutionRecord, bytes: number): void {
    this.#memory.set(record.execution_id, { record, bytes });
    this.#memoryBytes += bytes;
    for (const [id, kept] of this.#memory) {
      if (this.#memoryBytes <= this.#maxMemoryBytes || id === record.execution_id) break;
      this.#memory.delete(id);
      this.#memoryBytes -= kept.bytes;
    }
  }

  #append(dir: string, record: ExecutionRecord, line: Uint8Array): void {
    try {
      checkStore(dir, this.#owner.prefix, false);
      const cut = logExecution(dir, record, this.#owner, this.#maxFileBytes, line);
      if (cut) this.#warn(cut);
    } catch (error) {
      const refused = isPermissionRefusal(error) || error instanceof Deno.errors.PermissionDenied ||
        error instanceof ToolError;
      if (refused) this.#unwritable(dir, describeError(error));
      else {this.#warn(
          unwritableStore(this.#owner, dir, `appending failed: ${describeError(error)}`),
        );}
    }
  }

  /** The record of `executionId`: from memory, else from the store, else the lookup store. */
  get(executionId: string): ExecutionRecord | undefined {
    const kept = this.#memory.get(executionId);
    if (kept) return kept.record;
    for (const dir of new Set([this.#dir, this.#lookupDir])) {
      const found = dir === undefined ? undefined : this.#find(dir, executionId);
      if (found) return found;
    }
    return undefined;
  }

  #find(dir: string, executionId: string): ExecutionRecord | undefined {
    try {
      return checkStore(dir, this.#owner.prefix, false)
        ? findExecution(dir, executionId)
        : undefined;
    } catch (error) {
      if (error instanceof ToolError) {
        this.#warn({ ...error.toDiagnostic(this.#owner.name), level: "warning" });
        return undefined;
      }
      if (!isPermissionRefusal(error)) throw error;
      return undefined; // a store this host may not read: only its own records can be found
    }
  }
}
