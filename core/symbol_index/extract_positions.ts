/**
 * Positions for extraction: UTF-16 indices of the parsed text as byte extents, and the innermost
 * enclosing container of ranges visited in document order. Shared by the extraction modules
 * (definitions, references, imports), which all map tree-sitter ranges the same way.
 *
 * @module
 */
import type { DecodedFile } from "../utf8.ts";
import { LineIndex } from "../../schema/line_index.ts";
import type { Extent } from "./facts.ts";

/** Converts UTF-16 indices of the parsed text to extents in bytes, lines and byte columns. */
export class ExtentMapper {
  readonly #byteOffset: (index: number) => number;
  readonly #lines: LineIndex;

  /**
   * A mapper for the text of `file`. Its decoding maps back to the bytes read, where encoding
   * the text again would not: a BOM dropped, or an invalid byte read as U+FFFD (three bytes).
   */
  constructor(file: DecodedFile) {
    this.#byteOffset = file.decoded.byteOffset;
    this.#lines = new LineIndex(file.bytes);
  }

  /** The extent of code units `[start, end)`. */
  extent(start: number, end: number): Extent {
    const byteStart = this.#byteOffset(start);
    const byteEnd = this.#byteOffset(end);
    const lineStarts = this.#lines.lineStarts;
    const startLine = this.#lines.lineOf(byteStart);
    const endLine = byteEnd === byteStart ? startLine : this.#lines.lineOf(byteEnd);
    return {
      byte_start: byteStart,
      byte_end: byteEnd,
      start_line: startLine,
      start_col: byteStart - lineStarts[startLine - 1],
      end_line: endLine,
      end_col: byteEnd - lineStarts[endLine - 1],
    };
  }
}

/** A definition that encloses others (a function, a class…), with its qualified name. */
export interface Container {
  start: number;
  end: number;
  kind: string;
  name: string;
  qualified: string;
}

/**
 * Tracks the innermost enclosing container of ranges visited in document order: containers are
 * entered as the ranges pass their starts and left past their ends. The list may grow while it
 * is read, as long as each container added starts at or after the ranges visited so far.
 */
export class Enclosures {
  readonly #containers: readonly Container[];
  readonly #open: Container[] = [];
  #next = 0;

  /** Enclosures of `containers`, sorted by start (outer first at equal starts). */
  constructor(containers: readonly Container[]) {
    this.#containers = containers;
  }

  /** A fresh tracker over the same containers, to visit another series of ranges. */
  fork(): Enclosures {
    return new Enclosures(this.#containers);
  }

  /**
   * The innermost container that holds `[start, end)` and is not that very range; call in
   * order of `start`.
   */
  innermost(start: number, end: number): Container | undefined {
    const containers = this.#containers;
    const open = this.#open;
    while (this.#next < containers.length && containers[this.#next].start <= start) {
      const container = containers[this.#next++];
      while (open.length && open[open.length - 1].end < container.end) open.pop();
      open.push(container);
    }
    for (let i = open.length - 1; i >= 0; i--) {
      const container = open[i];
      if (container.end >= end && (container.start < start || container.end > end)) {
        return container;
      }
    }
    return undefined;
  }
}
