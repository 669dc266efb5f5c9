/**
 * The indexer's extraction workers: each file goes to the worker with the fewest files in
 * flight, its bytes transferred, not copied. A worker that dies (a parser runtime abort) fails
 * only the files it held and is replaced, a bounded number of times per run.
 *
 * @module
 */
import type { ExtractReply, ExtractTask } from "./extract_job.ts";

/** Name of the failure of a file whose worker died on it. */
export const WORKER_DIED = "WorkerDied";

/** Workers replaced at most this many times per pool; past it a dead worker stays dead. */
const MAX_RESTARTS = 8;

interface Slot {
  worker: Worker;
  pending: Map<number, (reply: ExtractReply) => void>;
}

/**
 * Extraction workers for one index run.
 *
 * @example
 * ```ts
 * import { ExtractPool } from "./pool.ts";
 * const pool = new ExtractPool(1);
 * const bytes = new TextEncoder().encode("int f(void) { return 0; }\n");
 * const reply = await pool.extract({ id: 1, path: "a.c", language: "c", bytes });
 * pool.close();
 * "facts" in reply; // true
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
    worker.onmessage = (event: MessageEvent<ExtractReply>) => {
      const resolve = slot.pending.get(event.data.id);
      slot.pending.delete(event.data.id);
      resolve?.(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.#retire(slot, event.message);
    };
    return slot;
  }

  /** Fails the files a dead worker held and puts a fresh worker in its place. */
  #retire(slot: Slot, message: string): void {
    slot.worker.terminate();
    const index = this.#slots.indexOf(slot);
    if (index >= 0) {
      if (this.#restarts < MAX_RESTARTS) {
        this.#restarts++;
        this.#slots[index] = this.#start();
      } else this.#slots.splice(index, 1);
    }
    for (const [id, resolve] of slot.pending) {
      resolve({ id, failure: { name: WORKER_DIED, message } });
    }
    slot.pending.clear();
  }

  /** Extracts one file on the least busy worker. */
  extract(task: ExtractTask): Promise<ExtractReply> {
    const slot = this.#slots.reduce<Slot | undefined>(
      (best, candidate) => !best || candidate.pending.size < best.pending.size ? candidate : best,
      undefined,
    );
    if (!slot) {
      return Promise.resolve({
        id: task.id,
        failure: { name: WORKER_DIED, message: "every extraction worker died" },
      });
    }
    return new Promise((resolve) => {
      slot.pending.set(task.id, resolve);
      slot.worker.postMessage(task, [task.bytes.buffer]);
    });
  }

  /** Stops every worker. */
  close(): void {
    for (const slot of this.#slots) slot.worker.terminate();
    this.#slots.length = 0;
  }
}
