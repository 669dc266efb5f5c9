/**
 * A pool of parse workers. A one-shot run makes a pool and closes it when done, so the
 * process can exit at once; a long-lived host (the MCP server) keeps the shared pool, whose
 * workers keep their grammars and compiled queries between runs.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { FileOutcome } from "./file_search.ts";
import type { JobMessage, WorkerFailure, WorkerReply } from "./job.ts";

/** Receives the outcome (or failure) of each file a worker searched. */
export type FileListener = (index: number, outcome?: FileOutcome, failure?: WorkerFailure) => void;

interface PendingJob {
  onFile: FileListener;
  waiting: Set<number>;
  failures: WorkerFailure[];
  resolve: (failures: WorkerFailure[]) => void;
}

/**
 * Parse workers that share one claim counter per job with the calling thread.
 *
 * @example
 * ```ts
 * import { ParsePool } from "@llm/search/ast-search";
 * const pool = new ParsePool(1);
 * pool.close();
 * ```
 */
export class ParsePool {
  readonly #workers: (Worker | undefined)[];
  readonly #jobs = new Map<number, PendingJob>();
  #nextJob = 0;
  #closed = false;

  /** Starts `size` workers (they load grammars only when a job needs them). */
  constructor(size: number) {
    this.#workers = Array.from({ length: size }, (_, slot) => this.#start(slot));
  }

  /** Number of live workers. */
  get size(): number {
    return this.#workers.filter(Boolean).length;
  }

  /** Whether {@linkcode ParsePool.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  #start(slot: number): Worker {
    // A literal URL, so tools that analyse worker specifiers see it.
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<WorkerReply>) => this.#receive(slot, event.data);
    worker.onerror = (event) => {
      // A worker that died (it could not even load) leaves its claims to the others.
      event.preventDefault();
      this.#workers[slot] = undefined;
      worker.terminate();
      for (const [id] of this.#jobs) {
        this.#finish(id, slot, { name: "WorkerError", message: event.message });
      }
    };
    return worker;
  }

  #receive(slot: number, reply: WorkerReply): void {
    const job = this.#jobs.get(reply.job);
    if (!job) return;
    if (reply.type === "file") job.onFile(reply.index, reply.outcome, reply.failure);
    else this.#finish(reply.job, slot, reply.failure);
  }

  #finish(id: number, slot: number, failure?: WorkerFailure): void {
    const job = this.#jobs.get(id);
    if (!job || !job.waiting.delete(slot)) return;
    if (failure) job.failures.push(failure);
    if (job.waiting.size === 0) {
      this.#jobs.delete(id);
      job.resolve(job.failures);
    }
  }

  /**
   * Hands a job to every live worker; resolves, with the failures of workers that gave up,
   * once each has run out of files to claim.
   */
  run(job: Omit<JobMessage, "id">, onFile: FileListener): Promise<WorkerFailure[]> {
    const id = this.#nextJob++;
    const waiting = new Set<number>();
    this.#workers.forEach((worker, slot) => {
      if (worker) waiting.add(slot);
    });
    if (waiting.size === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      this.#jobs.set(id, { onFile, waiting, failures: [], resolve });
      const message: JobMessage = { ...job, id };
      for (const slot of waiting) this.#workers[slot]?.postMessage(message);
    });
  }

  /** Terminates every worker; pending jobs resolve at once. */
  close(): void {
    this.#closed = true;
    this.#workers.forEach((worker, slot) => {
      worker?.terminate();
      this.#workers[slot] = undefined;
    });
    for (const [id, job] of this.#jobs) {
      this.#jobs.delete(id);
      job.resolve(job.failures);
    }
  }
}

const WORKER_URL = new URL("./worker.ts", import.meta.url);
/** The package root: a worker loads modules from `tools/`, `grammars/`, `core/` and `schema/`. */
const PACKAGE_ROOT = new URL("../../", import.meta.url);

/**
 * Whether parse workers can start in this process. A worker loading local modules needs read
 * permission for them (the main thread does not), so under a scoped `--allow-read` that does
 * not cover the package the run parses on the calling thread alone. A package loaded over
 * HTTP (JSR, a remote run) imports its workers under the same `--allow-import` as itself, and
 * a compiled binary reads its embedded modules without permission.
 *
 * @example
 * ```ts
 * import { workersAvailable } from "@llm/search/ast-search";
 * typeof workersAvailable(); // "boolean"
 * ```
 */
export function workersAvailable(): boolean {
  if (WORKER_URL.protocol !== "file:") return true;
  const root = fileURLToPath(PACKAGE_ROOT);
  if (root.includes("deno-compile-")) return true;
  return Deno.permissions.querySync({ name: "read", path: root }).state === "granted";
}

let shared: ParsePool | undefined;

/**
 * The process-wide pool of `size` workers for long-lived hosts, started on first use.
 *
 * @example
 * ```ts
 * import { closeSharedPool, sharedPool } from "@llm/search/ast-search";
 * sharedPool(1).size; // 1
 * closeSharedPool();
 * ```
 */
export function sharedPool(size: number): ParsePool {
  if (!shared || shared.closed || shared.size !== size) {
    shared?.close();
    shared = new ParsePool(size);
  }
  return shared;
}

/**
 * Terminates the shared pool's workers (a host that shuts down calls it).
 *
 * @example
 * ```ts
 * import { closeSharedPool } from "@llm/search/ast-search";
 * closeSharedPool();
 * ```
 */
export function closeSharedPool(): void {
  shared?.close();
  shared = undefined;
}
