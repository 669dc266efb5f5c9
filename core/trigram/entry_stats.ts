/**
 * Stats (size, mtime) of the index's entries taken now, for a freshness check against what the
 * index recorded. On a large index a
 * worker thread stats chunks from the last one down while the calling thread stats files from
 * the first one up as its walk reaches them; chunks are claimed atomically, so whichever thread
 * is faster does more and a slow-starting worker costs nothing but its start. Every stat is
 * made during this run, whichever thread made it.
 *
 * @module
 */
import { ENTRY_FLAGS } from "./format.ts";
import { CHUNK, CHUNK_ENTRIES, type StatRequest } from "./stat_protocol.ts";
import type { TrigramIndex } from "./reader.ts";

/** Below this many entries a worker costs more than it saves (the default of `minEntries`). */
const PARALLEL_ENTRIES = 20_000;
/** Longest wait for a chunk the worker is on before stats are taken on the calling thread. */
const WAIT_MS = 5_000;

const WORKER_URL = new URL("./stat_worker.ts", import.meta.url);

/** An entry's file's size and mtime now, or undefined when it cannot be stat'ed. */
export type EntryStat = [size: number, mtimeMs: number] | undefined;

/**
 * The stat of the file at `absPath` now (a missing or unreadable file has none; a path outside
 * the run's permissions throws).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statNow } from "./entry_stats.ts";
 * assert.equal(statNow(Deno.cwd() + "/no such file"), undefined);
 * ```
 */
export function statNow(absPath: string): EntryStat {
  try {
    const info = Deno.statSync(absPath);
    return [info.size, info.mtime?.getTime() ?? NaN];
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    return undefined;
  }
}

/**
 * Stats of the index's files, taken in part by a worker when `parallel` and the index is large.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EntryStats } from "./entry_stats.ts";
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello\n");
 * const stats = new EntryStats(undefined, "", false);
 * assert.equal(stats.of(0, path)?.[0], 6); // its size
 * Deno.removeSync(path);
 * ```
 */
export class EntryStats {
  #values: Float64Array | undefined;
  #claims: Int32Array | undefined;
  #worker: Worker | undefined;
  #settle: () => void;
  /**
   * Settles when the worker has claimed and stat'ed its last chunk (at once when there is no
   * worker, and when it fails or is stopped).
   */
  readonly workerDone: Promise<void>;

  /**
   * Starts the worker on the entries of `index` under `root` when `parallel` and the index has
   * `minEntries` entries or more. The worker stats the files `wanted` accepts (by default every
   * file); the others it leaves to {@linkcode EntryStats.of}, which stats any file asked for.
   */
  constructor(
    index: TrigramIndex | undefined,
    root: string,
    parallel: boolean,
    minEntries = PARALLEL_ENTRIES,
    wanted: (filePath: string) => boolean = () => true,
  ) {
    const count = index?.paths.length ?? 0;
    const done = Promise.withResolvers<void>();
    this.workerDone = done.promise;
    this.#settle = done.resolve;
    if (!index || !parallel || count < minEntries) {
      done.resolve();
      return;
    }
    const stats = new SharedArrayBuffer(16 * count);
    const claims = new SharedArrayBuffer(4 * Math.ceil(count / CHUNK_ENTRIES));
    this.#values = new Float64Array(stats);
    this.#claims = new Int32Array(claims);
    // Started first: the thread boots while the files to skip are picked.
    this.#worker = new Worker(WORKER_URL, { type: "module" });
    // A worker that fails leaves its unclaimed chunks to the calling thread, which stats them.
    this.#worker.onerror = (event) => {
      event.preventDefault();
      done.resolve();
    };
    this.#worker.onmessage = () => done.resolve();
    const skip = index.arrays.flags.map((flags, id) =>
      flags & ENTRY_FLAGS.dir || !wanted(index.paths[id]) ? 1 : 0
    );
    this.#worker.postMessage(
      { root, pathText: index.pathText, skip, stats, claims } satisfies StatRequest,
    );
  }

  /** The stat of entry `id` at `absPath`. */
  of(id: number, absPath: string): EntryStat {
    const claims = this.#claims;
    if (!claims) return statNow(absPath);
    const chunk = Math.floor(id / CHUNK_ENTRIES);
    let state = Atomics.compareExchange(claims, chunk, CHUNK.free, CHUNK.caller);
    if (state === CHUNK.worker) {
      Atomics.wait(claims, chunk, CHUNK.worker, WAIT_MS);
      state = Atomics.load(claims, chunk);
    }
    if (state !== CHUNK.done) return statNow(absPath);
    const values = this.#values!;
    return Number.isNaN(values[2 * id]) ? statNow(absPath) : [values[2 * id], values[2 * id + 1]];
  }

  /** Stops the worker if it still runs. */
  close(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#settle();
  }
}
