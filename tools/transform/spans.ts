/**
 * Span edits on one file's bytes, as a pure function: validation (bounds, order, character
 * boundaries, span checksums, overlaps) and application, with each edit's place in the new
 * file.
 *
 * @module
 */
import { normalizeChecksum, sha256 } from "../../schema/checksum.ts";
import { isCharBoundary } from "../../schema/line_index.ts";

/** One edit of a file: replace `[byte_start, byte_end)` with `new_text`. */
export interface SpanEdit {
  /** Position in the plan; orders insertions at the same point. */
  index: number;
  /** Start of the replaced bytes. */
  byte_start: number;
  /** End of the replaced bytes (= start for an insertion). */
  byte_end: number;
  /** Replacement text (empty for a deletion). */
  new_text: string;
  /** Checksum the replaced bytes must have (`sha256:` or bare hex). */
  expected_checksum?: string;
}

/** Why an edit cannot be applied. */
export interface EditProblem {
  /** The edit's `index`. */
  index: number;
  /** Registry code (`LMT-V-002` … `LMT-V-006`). */
  code: string;
  /** One-line message. */
  message: string;
  /** Detail: expected vs actual, the file's length, the other edit. */
  note?: string;
}

/** Where an applied edit ended up. */
export interface PlacedEdit {
  /** The edit's `index`. */
  index: number;
  /** Start of the replaced bytes in the old file. */
  byte_start: number;
  /** End of the replaced bytes in the old file. */
  byte_end: number;
  /** Start of the new text in the new file. */
  new_start: number;
  /** End of the new text in the new file. */
  new_end: number;
  /** `sha256:` of the replaced bytes. */
  checksum_before: string;
  /** `sha256:` of the new text. */
  checksum_after: string;
  /** The new text equals the bytes it replaces. */
  unchanged: boolean;
}

/** Result of {@linkcode applySpanEdits}. */
export interface SpanEditResult {
  /** The new bytes; the old ones when there are problems. */
  bytes: Uint8Array;
  /** The edits in application order `(byte_start, byte_end, index)`; empty when there are problems. */
  placed: PlacedEdit[];
  /** Every problem found; when not empty, nothing was applied. */
  problems: EditProblem[];
}

const encoder = new TextEncoder();

function order(a: SpanEdit, b: SpanEdit): number {
  return a.byte_start - b.byte_start || a.byte_end - b.byte_end || a.index - b.index;
}

/** The nearest character boundaries around `offset`, for a helpful note. */
function boundariesAround(bytes: Uint8Array, offset: number): string {
  let before = offset;
  while (before > 0 && !isCharBoundary(bytes, before)) before--;
  let after = offset;
  while (after < bytes.length && !isCharBoundary(bytes, after)) after++;
  return `the nearest character boundaries are ${before} and ${after}`;
}

/** Checks one edit against the file on its own; returns its problem or undefined. */
function checkEdit(bytes: Uint8Array, edit: SpanEdit): EditProblem | undefined {
  const { index, byte_start: start, byte_end: end } = edit;
  const length = bytes.length;
  if (start > length || end > length) {
    return {
      index,
      code: "LMT-V-003",
      message: `span ${start}..${end} lies outside the file (length ${length} bytes)`,
      note: `file length: ${length} bytes`,
    };
  }
  if (start > end) {
    return {
      index,
      code: "LMT-V-004",
      message: `span starts at ${start}, after its end ${end}`,
    };
  }
  for (const offset of [start, end]) {
    if (!isCharBoundary(bytes, offset)) {
      return {
        index,
        code: "LMT-V-005",
        message: `byte offset ${offset} falls inside a multi-byte UTF-8 character`,
        note: boundariesAround(bytes, offset),
      };
    }
  }
  if (edit.expected_checksum !== undefined) {
    const expected = normalizeChecksum(edit.expected_checksum);
    const actual = sha256(bytes.subarray(start, end));
    if (expected !== actual) {
      return {
        index,
        code: "LMT-V-002",
        message: `the bytes at ${start}..${end} do not have the expected checksum`,
        note: `expected ${expected ?? edit.expected_checksum}\nactual   ${actual}`,
      };
    }
  }
  return undefined;
}

/**
 * Validates `edits` against `bytes` and, when all are valid, applies them. Edits may come in
 * any order; they must not overlap, except that any number of insertions may share a point
 * (they land in plan order) and an insertion may touch either end of a replaced range. The
 * result is the same as applying the edits one by one from the highest offset down; it is
 * built in one pass from the lowest up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applySpanEdits } from "./spans.ts";
 * const bytes = new TextEncoder().encode("hello world");
 * const result = applySpanEdits(bytes, [{ index: 0, byte_start: 6, byte_end: 11, new_text: "there" }]);
 * assert.equal(new TextDecoder().decode(result.bytes), "hello there");
 * assert.equal(result.placed[0].new_end, 11);
 * ```
 */
export function applySpanEdits(bytes: Uint8Array, edits: readonly SpanEdit[]): SpanEditResult {
  const problems: EditProblem[] = [];
  const valid: SpanEdit[] = [];
  for (const edit of edits) {
    const problem = checkEdit(bytes, edit);
    if (problem) problems.push(problem);
    else valid.push(edit);
  }
  valid.sort(order);
  let reach = -1;
  let reachedBy: SpanEdit | undefined;
  for (const edit of valid) {
    if (reachedBy && edit.byte_start < reach) {
      problems.push({
        index: edit.index,
        code: "LMT-V-006",
        message: `span ${edit.byte_start}..${edit.byte_end} overlaps edit ${reachedBy.index} ` +
          `(${reachedBy.byte_start}..${reachedBy.byte_end})`,
        note: `overlapping edit: ${reachedBy.index}`,
      });
    }
    if (edit.byte_end > reach) {
      reach = edit.byte_end;
      reachedBy = edit;
    }
  }
  if (problems.length) {
    problems.sort((a, b) => a.index - b.index);
    return { bytes, placed: [], problems };
  }
  const texts = valid.map((edit) => encoder.encode(edit.new_text));
  let size = bytes.length;
  valid.forEach((edit, i) => size += texts[i].length - (edit.byte_end - edit.byte_start));
  const out = new Uint8Array(size);
  const placed: PlacedEdit[] = [];
  let read = 0;
  let write = 0;
  valid.forEach((edit, i) => {
    out.set(bytes.subarray(read, edit.byte_start), write);
    write += edit.byte_start - read;
    const old = bytes.subarray(edit.byte_start, edit.byte_end);
    out.set(texts[i], write);
    placed.push({
      index: edit.index,
      byte_start: edit.byte_start,
      byte_end: edit.byte_end,
      new_start: write,
      new_end: write + texts[i].length,
      checksum_before: sha256(old),
      checksum_after: sha256(texts[i]),
      unchanged: sameBytes(old, texts[i]),
    });
    write += texts[i].length;
    read = edit.byte_end;
  });
  out.set(bytes.subarray(read), write);
  return { bytes: out, placed, problems };
}

/**
 * Whether two byte arrays hold the same bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameBytes } from "./spans.ts";
 * assert.ok(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2])));
 * assert.ok(!sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3])));
 * ```
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
