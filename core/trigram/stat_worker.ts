/**
 * Stat worker: stats the index's files (size and mtime into shared memory) chunk by chunk from
 * the last one down, while the calling thread stats from the first one up as its walk reaches
 * them; each chunk is claimed with a compare-and-swap, so the two meet wherever the faster one
 * gets to and no file is stat'ed twice. Deno's `statSync` costs a few microseconds a file, the
 * largest part of an indexed search of a big tree. Only ever loaded as a worker: it sets the
 * global `onmessage` (the caller imports the protocol from `stat_protocol.ts`).
 *
 * @module
 */
import { CHUNK, CHUNK_ENTRIES, type StatRequest } from "./stat_protocol.ts";

/** The parts of a worker's global scope this module uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<StatRequest>) => void) | null;
  postMessage(message: "done"): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;

function statChunk(request: StatRequest, paths: string[], values: Float64Array, chunk: number) {
  const end = Math.min(paths.length, (chunk + 1) * CHUNK_ENTRIES);
  for (let id = chunk * CHUNK_ENTRIES; id < end; id++) {
    values[2 * id] = NaN;
    if (request.skip[id]) continue;
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
  const values = new Float64Array(request.stats);
  const claims = new Int32Array(request.claims);
  for (let chunk = claims.length - 1; chunk >= 0; chunk--) {
    if (Atomics.compareExchange(claims, chunk, CHUNK.free, CHUNK.worker) !== CHUNK.free) break;
    statChunk(request, paths, values, chunk);
    Atomics.store(claims, chunk, CHUNK.done);
    Atomics.notify(claims, chunk);
  }
  scope.postMessage("done");
  scope.close();
};
