/**
 * Worker of `fs_floor.ts`: reads (into one reused buffer, as the search's reader does) or stats
 * each file of its share, and answers with the bytes read or the sizes stat'ed.
 *
 * @module
 */

/** What the worker is asked: one share of the files. */
export interface FloorRequest {
  /** `read`: open and read each file whole; `stat`: stat it. */
  op: "read" | "stat";
  /** Absolute paths. */
  paths: string[];
}

/** The parts of a worker's global scope this module uses. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<FloorRequest>) => void) | null;
  postMessage(message: number): void;
}

const scope = globalThis as unknown as WorkerScope;
let buffer = new Uint8Array(1 << 20);

/** Reads the whole file at `path` into the reused buffer; returns its length. */
function readWhole(path: string): number {
  const file = Deno.openSync(path, { read: true });
  try {
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const grown = new Uint8Array(buffer.length * 2);
        grown.set(buffer);
        buffer = grown;
      }
      const space = buffer.length - length;
      const count = file.readSync(buffer.subarray(length));
      if (count === null) return length;
      length += count;
      // A short read is the end of a regular file (as the search's reader takes it).
      if (count < space) return length;
    }
  } finally {
    file.close();
  }
}

scope.onmessage = (event) => {
  const { op, paths } = event.data;
  let sum = 0;
  for (const path of paths) sum += op === "read" ? readWhole(path) : Deno.statSync(path).size;
  scope.postMessage(sum);
};
