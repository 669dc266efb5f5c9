/**
 * The execution log: every call the server answers is recorded with its arguments, time, status
 * and full envelope — in memory (bounded by bytes, oldest first out) and, with a log directory,
 * in an append-only JSONL file with a size cap. When the file would pass the cap it is rotated
 * once (`executions.jsonl` → `executions.1.jsonl`, replacing the older one), so the disk holds
 * at most twice the cap. A past result can then be fetched by id, which keeps an agent grounded
 * after its context was compacted.
 *
 * @module
 */
import { join } from "node:path";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import { type ExecutionRecord, ExecutionRecordSchema } from "../../schema/mcp.ts";
import { isPermissionRefusal } from "../../core/permissions.ts";

/** Name of the live log file in the log directory. */
export const LOG_FILE = "executions.jsonl";

/** Name of the rotated (older) log file. */
export const ROTATED_LOG_FILE = "executions.1.jsonl";

/** Default size cap of the log file. */
export const DEFAULT_LOG_MAX_BYTES: number = 16 * 1024 * 1024;

/** Default bound of the records kept in memory. */
export const DEFAULT_MEMORY_MAX_BYTES: number = 128 * 1024 * 1024;

/** How to keep the log. */
export interface ExecutionLogOptions {
  /** Directory of the JSONL files; without it the log is in memory only. */
  dir?: string;
  /** Size cap of one log file in bytes. */
  maxFileBytes?: number;
  /** Bound of the records kept in memory, in serialised bytes. */
  maxMemoryBytes?: number;
  /** Receives warnings (the server writes them to stderr). */
  warn?: (diagnostic: Diagnostic) => void;
}

interface Kept {
  record: ExecutionRecord;
  bytes: number;
}

const encoder = new TextEncoder();

function fileSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The log of one server.
 *
 * @example
 * ```ts
 * import { ExecutionLog } from "@llm/search/mcp";
 * import { queryEnvelope } from "@llm/search/schema";
 * const log = new ExecutionLog();
 * const envelope = queryEnvelope("llm-x", { count: 0 }, []);
 * log.record({
 *   execution_id: envelope.execution_id, tool: "x", arguments: {}, timestamp: envelope.timestamp,
 *   duration_ms: 1, status: envelope.status, envelope,
 * });
 * log.get(envelope.execution_id)?.tool; // "x"
 * ```
 */
export class ExecutionLog {
  readonly #memory = new Map<string, Kept>();
  readonly #maxMemoryBytes: number;
  readonly #maxFileBytes: number;
  readonly #warn: (diagnostic: Diagnostic) => void;
  #memoryBytes = 0;
  #dir: string | undefined;

  /** Opens the log; an unwritable directory leaves it in memory with an `MCP-IO-010` warning. */
  constructor(options: ExecutionLogOptions = {}) {
    this.#maxMemoryBytes = options.maxMemoryBytes ?? DEFAULT_MEMORY_MAX_BYTES;
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_LOG_MAX_BYTES;
    this.#warn = options.warn ?? (() => {});
    if (options.dir !== undefined) this.#open(options.dir);
  }

  /** The directory records are appended to, or undefined when the log is in memory only. */
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
      Deno.mkdirSync(dir, { recursive: true });
      // Open for append once, so a read-only directory is found now rather than at the first call.
      Deno.openSync(join(dir, LOG_FILE), { append: true, create: true }).close();
      this.#dir = dir;
    } catch (error) {
      this.#unwritable(dir, describe(error));
    }
  }

  #unwritable(dir: string, reason: string): void {
    this.#dir = undefined;
    this.#warn(
      makeDiagnostic("llm-mcp", "MCP-IO-010", `execution log not written to ${dir}: ${reason}`, {
        level: "warning",
        file: dir,
      }),
    );
  }

  /** Records one call: in memory, and appended to the log file when there is one. */
  record(record: ExecutionRecord): void {
    const line = JSON.stringify(record) + "\n";
    const bytes = encoder.encode(line);
    this.#remember(record, bytes.length);
    if (this.#dir !== undefined) this.#append(this.#dir, bytes, record.execution_id);
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

  #append(dir: string, bytes: Uint8Array, id: string): void {
    const live = join(dir, LOG_FILE);
    try {
      if (bytes.length > this.#maxFileBytes) {
        this.#warn(
          makeDiagnostic(
            "llm-mcp",
            "MCP-IO-011",
            `execution ${id} (${bytes.length} bytes) is larger than the log cap ` +
              `(${this.#maxFileBytes} bytes); it is kept in memory only`,
            { level: "warning", file: live },
          ),
        );
        return;
      }
      if (fileSize(live) + bytes.length > this.#maxFileBytes) {
        Deno.renameSync(live, join(dir, ROTATED_LOG_FILE));
      }
      Deno.writeFileSync(live, bytes, { append: true, create: true });
    } catch (error) {
      if (!isPermissionRefusal(error) && !(error instanceof Deno.errors.PermissionDenied)) {
        this.#warn(
          makeDiagnostic(
            "llm-mcp",
            "MCP-IO-010",
            `appending to ${live} failed: ${describe(error)}`,
            {
              level: "warning",
              file: live,
            },
          ),
        );
        return;
      }
      this.#unwritable(dir, describe(error));
    }
  }

  /** The record of `executionId`: from memory, else from the log files. */
  get(executionId: string): ExecutionRecord | undefined {
    const kept = this.#memory.get(executionId);
    if (kept) return kept.record;
    return this.#dir === undefined ? undefined : findExecution(this.#dir, executionId);
  }
}

function readLines(path: string): string[] {
  try {
    return Deno.readTextFileSync(path).split("\n");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/**
 * Looks `executionId` up in the log files of `dir` (newest first). Lines that are not records
 * (a write cut short by a crash) are skipped.
 *
 * @example
 * ```ts
 * import { findExecution } from "@llm/search/mcp";
 * const dir = Deno.makeTempDirSync();
 * findExecution(dir, crypto.randomUUID()); // undefined
 * ```
 */
export function findExecution(dir: string, executionId: string): ExecutionRecord | undefined {
  const needle = `"execution_id":${JSON.stringify(executionId)}`;
  for (const file of [LOG_FILE, ROTATED_LOG_FILE]) {
    const lines = readLines(join(dir, file));
    for (let i = lines.length - 1; i >= 0; i--) {
      if (!lines[i].includes(needle)) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(lines[i]);
      } catch {
        continue; // a torn line: the record it held is lost, the others are intact
      }
      const record = ExecutionRecordSchema.safeParse(parsed);
      if (record.success && record.data.execution_id === executionId) return record.data;
    }
  }
  return undefined;
}
