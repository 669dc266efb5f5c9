/**
 * Stamp worker: stats the index's files (size and mtime into shared memory) chunk by chunk from
 * the last one down, while the calling thread stats from the first one up as its walk reaches
 * them; each chunk is claimed with a compare-and-swap, so the two meet wherever the faster one
 * gets to and no file is stat'ed twice. Deno's `statSync` costs a few microseconds a file, the
 * largest part of an indexed search of a big tree. No imports, so it starts fast.
 *
 * @module
 */

/** Chunk states in the shared claims array. */
export const CHUNK = { free: 0, caller: 1, worker: 2, done: 3 } as const;

/** Entries per chunk. */
export const CHUNK_ENTRIES = 512;

/** What the caller sends: the files and where to put their stamps. */
export interface StampRequest {
  /** The root every path is relative to. */
  root: string;
  /** The index's entry paths joined by "\n". */
  pathText: string;
  /** Per entry, whether it is a directory (1) or a file (0). */
  dirs: Uint8Array;
  /** `Float64Array` of 2 × entries: size then mtime (NaN when it cannot be stat'ed). */
  stamps: SharedArrayBuffer;
  /** `Int32Array` of one state (CHUNK) per chunk. */
  claims: SharedArrayBuffer;
}

/** The parts of a worker's global scope this module uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<StampRequest>) => void) | null;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;

function statChunk(request: StampRequest, paths: string[], values: Float64Array, chunk: number) {
  const end = Math.min(paths.length, (chunk + 1) * CHUNK_ENTRIES);
  for (let id = chunk * CHUNK_ENTRIES; id < end; id++) {
    values[2 * id] = NaN;
    if (request.dirs[id]) continue;
    try {
      const info = Deno.statSync(`${request.root}/${paths[id]}`);
      values[2 * id] = info.size;
      values[2 * id + 1] = info.mtime?.getTime() ?? NaN;
    } catch {
      // Left NaN: the caller stats the file itself and meets the error there.
    }
  }
}

scope.onmessage = (event) => {
  const request = event.data;
  const paths = request.pathText.split("\n");
  const values = new Float64Array(request.stamps);
  const claims = new Int32Array(request.claims);
  for (let chunk = claims.length - 1; chunk >= 0; chunk--) {
    if (Atomics.compareExchange(claims, chunk, CHUNK.free, CHUNK.worker) !== CHUNK.free) break;
    statChunk(request, paths, values, chunk);
    Atomics.store(claims, chunk, CHUNK.done);
    Atomics.notify(claims, chunk);
  }
  scope.close();
};
