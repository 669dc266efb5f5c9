/**
 * A pool of parse workers. A one-shot run makes a pool and closes it when done, so the
 * process can exit at once; a long-lived host (the MCP server) keeps the shared pool, whose
 * workers keep their grammars and compiled queries between runs.
 *
 * @module
 */
import type { FileOutcome } from "./file_search.ts";
import type { JobMessage, WorkerFailure, WorkerReply } from "./job.ts";

/** Receives the outcome (or failure) of each file a worker searched. */
export type FileListener = (index: number, outcome?: FileOutcome, failure?: WorkerFailure) => void;

interface PendingJob {
  message: Omit<JobMessage, "slot">;
  onFile: FileListener;
  waiting: Set<number>;
  failures: WorkerFailure[];
  resolve: (failures: WorkerFailure[]) => void;
}

/** Name of the failure of a file whose worker died on it (a crash, not an exception). */
export const WORKER_CRASHED = "WorkerCrashed";

/**
 * A worker is replaced at most this many times per job: each replacement follows a file that
 * killed a worker, and a file is claimed once, so only a worker that dies while it starts can
 * make this many.
 */
const RESTARTS_PER_JOB = 8;

/**
 * Parse workers that share one claim counter per job with the calling thread. A worker whose
 * parser runtime aborted, or that died, is replaced by a fresh one that joins the job; the file
 * it died on is reported as failed, never parsed again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ParsePool } from "./pool.ts";
 * const pool = new ParsePool(1);
 * assert.equal(pool.size, 1);
 * pool.close();
 * ```
 */
export class ParsePool {
  readonly #workers: (Worker | undefined)[];
  readonly #jobs = new Map<number, PendingJob>();
  #nextJob = 0;
  #closed = false;
  #restarts = 0;

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
      // A worker that died (it could not load, or a file crashed it): the file it was on is
      // reported, the others are left to the rest of the pool and to its replacement.
      event.preventDefault();
      const failure = { name: WORKER_CRASHED, message: event.message };
      for (const [id, job] of this.#jobs) {
        const index = Atomics.load(new Int32Array(job.message.current), slot);
        if (index >= 0) job.onFile(index, undefined, failure);
        this.#replace(id, slot, failure);
      }
      if (this.#workers[slot] === worker) this.#retire(slot);
    };
    return worker;
  }

  #retire(slot: number): void {
    this.#workers[slot]?.terminate();
    this.#workers[slot] = undefined;
  }

  #receive(slot: number, reply: WorkerReply): void {
    const job = this.#jobs.get(reply.job);
    if (!job) return;
    if (reply.type === "file") job.onFile(reply.index, reply.outcome, reply.failure);
    else if (reply.failure?.name === "ParserAbortedError") this.#replace(reply.job, slot);
    else this.#finish(reply.job, slot, reply.failure);
  }

  /**
   * Replaces the worker of `slot`, whose runtime aborted or which died, by a fresh one that
   * joins job `id`; past the restart budget the slot stays empty and the job goes on without it.
   */
  #replace(id: number, slot: number, failure?: WorkerFailure): void {
    const job = this.#jobs.get(id);
    if (!job || !job.waiting.has(slot) || this.#closed) return;
    this.#retire(slot);
    if (this.#restarts >= RESTARTS_PER_JOB) {
      this.#finish(
        id,
        slot,
        failure ?? { name: "ParserAbortedError", message: "restart budget spent" },
      );
      return;
    }
    this.#restarts++;
    const worker = this.#start(slot);
    this.#workers[slot] = worker;
    worker.postMessage({ ...job.message, slot } satisfies JobMessage);
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
  run(
    job: Omit<JobMessage, "id" | "slot" | "current">,
    onFile: FileListener,
  ): Promise<WorkerFailure[]> {
    const id = this.#nextJob++;
    this.#restarts = 0;
    const waiting = new Set<number>();
    this.#workers.forEach((worker, slot) => {
      if (worker) waiting.add(slot);
    });
    if (waiting.size === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      const current = new Int32Array(new SharedArrayBuffer(4 * this.#workers.length)).fill(-1);
      const message = { ...job, id, current: current.buffer as SharedArrayBuffer };
      this.#jobs.set(id, { message, onFile, waiting, failures: [], resolve });
      for (const slot of waiting) {
        this.#workers[slot]?.postMessage({ ...message, slot } satisfies JobMessage);
      }
    });
  }

  /** Terminates every worker; pending jobs resolve at once. */
  close(): void {
    this.#closed = true;
    this.#workers.forEach((_, slot) => this.#retire(slot));
    for (const [id, job] of this.#jobs) {
      this.#jobs.delete(id);
      job.resolve(job.failures);
    }
  }
}

let shared: ParsePool | undefined;

/**
 * The process-wide pool of `size` workers for long-lived hosts, started on first use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSharedPool, sharedPool } from "./pool.ts";
 * assert.equal(sharedPool(1).size, 1);
 * assert.equal(sharedPool(1), sharedPool(1)); // the same pool while its size holds
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
 * Terminates the shared pool's workers: a host that shuts down calls it, as does a program whose
 * {@linkcode astSearch} runs kept their workers (`keepWorkers`, or a `cache`).
 *
 * @example End the workers kept between runs
 * ```ts
 * import assert from "node:assert/strict";
 * import { astSearch, closeSharedPool } from "@llm/search/ast-search";
 * const options = { cwd: Deno.cwd(), kinds: ["class"], language: "ts", keepWorkers: true };
 * const first = await astSearch(options);
 * const again = await astSearch(options); // the same workers, if the first run started any
 * assert.equal(again.data.match_count, first.data.match_count);
 * closeSharedPool();
 * ```
 */
export function closeSharedPool(): void {
  shared?.close();
  shared = undefined;
}
