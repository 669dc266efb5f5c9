/**
 * Stamp worker: stats a share of the index's files (size and mtime into shared memory) while
 * the calling thread stats the rest, then raises the done flag. Deno's `statSync` costs a few
 * microseconds a file, the largest part of an indexed search of a big tree. No imports, so it
 * starts fast.
 *
 * @module
 */

/** What the caller sends: the files and where to put their stamps. */
export interface StampRequest {
  /** Absolute paths; an empty string for an entry that is not a file. */
  paths: string[];
  /** `Float64Array` of 2 × paths: size then mtime per path (NaN when it cannot be stat'ed). */
  stamps: SharedArrayBuffer;
  /** `Int32Array` of 1: set to 1 when every path is done. */
  done: SharedArrayBuffer;
}

/** The parts of a worker's global scope this module uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<StampRequest>) => void) | null;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.onmessage = (event) => {
  const { paths, stamps, done } = event.data;
  const values = new Float64Array(stamps);
  const flag = new Int32Array(done);
  for (let i = 0; i < paths.length; i++) {
    values[2 * i] = NaN;
    if (paths[i] === "") continue;
    try {
      const info = Deno.statSync(paths[i]);
      values[2 * i] = info.size;
      values[2 * i + 1] = info.mtime?.getTime() ?? NaN;
    } catch {
      // Left NaN: the caller stats the file itself and meets the error there.
    }
  }
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  scope.close();
};
