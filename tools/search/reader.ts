/**
 * Reads whole files into one reusable buffer: one allocation per worker instead of one per
 * file, which halves the cost of reading a large tree. The buffer can be supplied by the
 * caller (the prefilter's WebAssembly memory), so bytes are scanned where they were read.
 *
 * @module
 */

/** Supplies a buffer of at least `length` bytes; it may return a new, larger one. */
export type BufferSource = (length: number) => Uint8Array;

/** The default source: a plain buffer that doubles when too small. */
function growingBuffer(): BufferSource {
  let buffer = new Uint8Array(1 << 20);
  return (length) => {
    if (buffer.length < length) {
      const grown = new Uint8Array(Math.max(length, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    return buffer;
  };
}

/** A reader that reuses its buffer; the returned view is valid until the next read. */
export class ReusableReader {
  readonly #source: BufferSource;

  /** A reader over `source` (default: its own growing buffer). */
  constructor(source: BufferSource = growingBuffer()) {
    this.#source = source;
  }

  /**
   * The bytes of the file at `path` (a view into the shared buffer, starting at offset 0).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ReusableReader } from "./reader.ts";
   * const dir = Deno.makeTempDirSync();
   * Deno.writeTextFileSync(`${dir}/a.txt`, "hello\n");
   * const bytes = new ReusableReader().read(`${dir}/a.txt`);
   * assert.equal(new TextDecoder().decode(bytes), "hello\n");
   * Deno.removeSync(dir, { recursive: true });
   * ```
   */
  read(path: string): Uint8Array {
    const file = Deno.openSync(path, { read: true });
    try {
      let buffer = this.#source(0);
      let length = 0;
      for (;;) {
        if (length === buffer.length) {
          const previous = buffer;
          buffer = this.#source(length * 2);
          // A grown WebAssembly memory keeps its bytes and detaches the old view; only a new,
          // separate buffer needs the bytes copied over.
          const detached = previous.buffer.byteLength === 0;
          if (!detached && buffer.buffer !== previous.buffer) {
            buffer.set(previous.subarray(0, length));
          }
        }
        const space = buffer.length - length;
        const read = file.readSync(buffer.subarray(length));
        if (read === null || read === 0) break;
        length += read;
        // A regular file fills every read until its end: a short read means the end is
        // reached, which saves one read call per file.
        if (read < space) break;
      }
      return buffer.subarray(0, length);
    } finally {
      file.close();
    }
  }
}
