/**
 * File stamps (size, mtime) of the index's entries for a freshness check, the last part of the
 * entries stat'ed by a worker thread while the calling thread stats the first part as the walk
 * reaches it. A stamp the worker could not take (or a worker that never answers) is taken on
 * the calling thread instead, so the answer is always a stat made during this run.
 *
 * @module
 */
import { ENTRY_FLAGS } from "./format.ts";
import type { StampRequest } from "./stat_worker.ts";
import type { TrigramIndex } from "./reader.ts";

/** Below this many entries a worker costs more than it saves (the default of `minEntries`). */
const PARALLEL_ENTRIES = 20_000;
/** Share of the entries the worker takes (it starts later than the calling thread). */
const WORKER_SHARE = 0.45;
/** Longest wait for the worker before stamps are taken on the calling thread. */
const WAIT_MS = 10_000;

const WORKER_URL = new URL("./stat_worker.ts", import.meta.url);

/** A file's size and mtime, or undefined when it cannot be stat'ed. */
export type Stamp = [size: number, mtimeMs: number] | undefined;

function statNow(absPath: string): Stamp {
  try {
    const info = Deno.statSync(absPath);
    return [info.size, info.mtime?.getTime() ?? NaN];
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    return undefined;
  }
}

/**
 * Stamps of files, taken in part by a worker when `parallel` and the index is large.
 *
 * @example
 * ```ts
 * import { FileStamps } from "./stamps.ts";
 * const stamps = new FileStamps(undefined, "", false);
 * stamps.of(0, Deno.cwd() + "/deno.json")?.[0] !== undefined; // true
 * ```
 */
export class FileStamps {
  #from = Infinity;
  #values: Float64Array | undefined;
  #done: Int32Array | undefined;
  #worker: Worker | undefined;

  /**
   * Starts the worker on the last entries of `index` under `root` when `parallel` and the
   * index has `minEntries` entries or more.
   */
  constructor(
    index: TrigramIndex | undefined,
    root: string,
    parallel: boolean,
    minEntries = PARALLEL_ENTRIES,
  ) {
    const count = index?.paths.length ?? 0;
    if (!index || !parallel || count < minEntries) return;
    this.#from = Math.floor(count * (1 - WORKER_SHARE));
    const paths = index.paths.slice(this.#from).map((path, i) =>
      index.arrays.flags[this.#from + i] & ENTRY_FLAGS.dir ? "" : `${root}/${path}`
    );
    const stamps = new SharedArrayBuffer(16 * paths.length);
    const done = new SharedArrayBuffer(4);
    this.#values = new Float64Array(stamps);
    this.#done = new Int32Array(done);
    this.#worker = new Worker(WORKER_URL, { type: "module" });
    this.#worker.onerror = (event) => {
      // A worker that fails leaves its stamps to the calling thread.
      event.preventDefault();
      this.#stopWorker();
    };
    this.#worker.postMessage({ paths, stamps, done } satisfies StampRequest);
  }

  /** The stamp of entry `id` at `absPath`. */
  of(id: number, absPath: string): Stamp {
    const values = this.#values;
    if (id < this.#from || !values || !this.#ready()) return statNow(absPath);
    const at = 2 * (id - this.#from);
    return Number.isNaN(values[at]) ? statNow(absPath) : [values[at], values[at + 1]];
  }

  /** Whether the worker has finished (waiting for it once, up to WAIT_MS). */
  #ready(): boolean {
    const done = this.#done!;
    if (Atomics.load(done, 0) === 0) Atomics.wait(done, 0, 0, WAIT_MS);
    if (Atomics.load(done, 0) === 1) return true;
    this.#stopWorker();
    return false;
  }

  #stopWorker(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#values = undefined;
  }

  /** Stops the worker if it still runs. */
  close(): void {
    this.#stopWorker();
  }
}
