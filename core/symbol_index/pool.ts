/**
 * The indexer's extraction workers: each file goes to the worker with the fewest files in
 * flight, its bytes transferred, not copied. A worker that dies fails only the files it held
 * and is replaced, a bounded number of times per run. A worker whose parser runtime aborted
 * (it cannot parse again) fails only the file it aborted on, hands the files queued behind it
 * back unread, and is replaced too: before, one abort failed every later file of that worker
 * (3,486 files of the Linux tree).
 *
 * @module
 */
import type { ExtractReply, ExtractTask, WorkerMessage } from "./extract_job.ts";

/** Name of the failure of a file whose worker died on it. */
export const WORKER_DIED = "WorkerDied";

/** Name of the failure of the file a worker's parser runtime aborted on. */
const ABORTED = "ParserAbortedError";

/** Workers replaced at most this many times per pool; past it a dead worker stays dead. */
const MAX_RESTARTS = 8;

/** A file in flight: where its reply goes, and what to send again if it is handed back. */
interface Pending {
  resolve: (reply: ExtractReply) => void;
  task: Omit<ExtractTask, "bytes">;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Extraction workers for one index run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExtractPool } from "./pool.ts";
 * const pool = new ExtractPool(1);
 * const bytes = new TextEncoder().encode("int f(void) { return 0; }\n");
 * const reply = await pool.extract({ id: 1, path: "a.c", language: "c", bytes });
 * pool.close();
 * assert.ok("rows" in reply);
 * assert.equal(reply.rows.symbols[1], "f"); // the symbol's row: its id, then its name
 * ```
 */
export class ExtractPool {
  readonly #slots: Slot[] = [];
  #restarts = 0;

  /** Starts `size` workers. */
  constructor(size: number) {
    for (let index = 0; index < size; index++) this.#slots.push(this.#start());
  }

  #start(): Slot {
    // A literal URL, so tools that analyse worker specifiers see it.
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    const slot: Slot = { worker, pending: new Map() };
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => this.#receive(slot, event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.#retire(slot, event.message);
    };
    return slot;
  }

  /** Answers a file, or sends a file handed back by an aborted worker to another one. */
  #receive(slot: Slot, message: WorkerMessage): void {
    const pending = slot.pending.get(message.id);
    slot.pending.delete(message.id);
    if ("handedBack" in message) {
      if (pending) this.#dispatch({ ...pending.task, bytes: message.handedBack }, pending.resolve);
    } else {
      if ("failure" in message && message.failure.name === ABORTED) this.#replace(slot);
      pending?.resolve(message);
    }
    if (slot.pending.size === 0 && !this.#slots.includes(slot)) slot.worker.terminate();
  }

  /**
   * Takes `slot` out of the pool, with a fresh worker in its place while the restart budget
   * lasts. It is stopped once it has handed back the files it holds.
   */
  #replace(slot: Slot): void {
    const index = this.#slots.indexOf(slot);
    if (index < 0) return;
    if (this.#restarts < MAX_RESTARTS) {
      this.#restarts++;
      this.#slots[index] = this.#start();
    } else this.#slots.splice(index, 1);
  }

  /** Fails the files a dead worker held and puts a fresh worker in its place. */
  #retire(slot: Slot, message: string): void {
    slot.worker.terminate();
    this.#replace(slot);
    for (const [id, pending] of slot.pending) {
      pending.resolve({ id, failure: { name: WORKER_DIED, message } });
    }
    slot.pending.clear();
  }

  /** Extracts one file on the least busy worker. */
  extract(task: ExtractTask): Promise<ExtractReply> {
    return new Promise((resolve) => this.#dispatch(task, resolve));
  }

  #dispatch(task: ExtractTask, resolve: (reply: ExtractReply) => void): void {
    const slot = this.#slots.reduce<Slot | undefined>(
      (best, candidate) => !best || candidate.pending.size < best.pending.size ? candidate : best,
      undefined,
    );
    if (!slot) {
      resolve({
        id: task.id,
        failure: { name: WORKER_DIED, message: "every extraction worker died" },
      });
      return;
    }
    const { bytes: _, ...rest } = task;
    slot.pending.set(task.id, { resolve, task: rest });
    slot.worker.postMessage(task, [task.bytes.buffer]);
  }

  /** Stops every worker. */
  close(): void {
    for (const slot of this.#slots) slot.worker.terminate();
    this.#slots.length = 0;
  }
}
