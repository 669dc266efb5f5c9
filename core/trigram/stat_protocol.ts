/**
 * What the stat worker (`stat_worker.ts`) and its caller (`entry_stats.ts`) share. Kept apart from
 * the worker module, which sets the global `onmessage` when it is evaluated: importing it into
 * any other thread would take over that thread's messages.
 *
 * @module
 */

/** Chunk states in the shared claims array. */
export const CHUNK = { free: 0, caller: 1, worker: 2, done: 3 } as const;

/** Entries per chunk. */
export const CHUNK_ENTRIES = 512;

/** What the caller sends: the files and where to put their stats. */
export interface StatRequest {
  /** The root every path is relative to. */
  root: string;
  /** The index's entry paths joined by "\n". */
  pathText: string;
  /** Per entry, 1 when it is not stat'ed (a directory, or a file the caller does not ask for). */
  skip: Uint8Array;
  /** `Float64Array` of 2 × entries: size then mtime (NaN when it cannot be stat'ed). */
  stats: SharedArrayBuffer;
  /** `Int32Array` of one state (CHUNK) per chunk. */
  claims: SharedArrayBuffer;
}
