/**
 * The Span type and its construction, free of zod so hot paths (search workers) load fast.
 * `schema/span.ts` adds the zod schema and re-exports both.
 *
 * @module
 */
import { spanId } from "./ids.ts";
import type { LineIndex } from "./line_index.ts";

/** A half-open byte range `[byte_start, byte_end)` of a file, with positions and a stable id. */
export interface Span {
  /** Root-relative path with `/` separators, or absolute when outside the root. */
  file_path: string;
  /** UTF-8 byte offset of the first byte. */
  byte_start: number;
  /** UTF-8 byte offset just past the last byte. */
  byte_end: number;
  /** 1-based line of `byte_start`. */
  start_line: number;
  /** 0-based byte column of `byte_start` within its line. */
  start_col: number;
  /** 1-based line of `byte_end`. */
  end_line: number;
  /** 0-based byte column of `byte_end` within its line. */
  end_col: number;
  /** {@linkcode spanId} of `(file_path, byte_start, byte_end)`. */
  span_id: string;
}

/**
 * Builds the span of `[byteStart, byteEnd)` in an indexed file.
 * Throws {@linkcode OffsetError} for offsets outside the file or inside a character.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineIndex, makeSpan } from "@llm/search/schema";
 * const span = makeSpan("a.txt", LineIndex.fromText("one\ntwo\n"), 4, 7);
 * assert.equal(span.start_line, 2);
 * assert.equal(span.end_col, 3);
 * ```
 */
export function makeSpan(
  filePath: string,
  index: LineIndex,
  byteStart: number,
  byteEnd: number,
): Span {
  if (byteStart > byteEnd) {
    throw new RangeError(`span start ${byteStart} is after its end ${byteEnd}`);
  }
  const start = index.position(byteStart);
  const end = index.position(byteEnd);
  return {
    file_path: filePath,
    byte_start: byteStart,
    byte_end: byteEnd,
    start_line: start.line,
    start_col: start.col,
    end_line: end.line,
    end_col: end.col,
    span_id: spanId(filePath, byteStart, byteEnd),
  };
}
