/**
 * Guarded replacement (what agents know as str_replace): find the exact bytes of a text,
 * require the number of occurrences the caller allows, and explain a miss.
 *
 * @module
 */
import { LineIndex } from "../../schema/line_index.ts";
import { decodeText } from "../../core/utf8.ts";

/**
 * Start offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findOccurrences } from "./replace.ts";
 * const encode = (text: string) => new TextEncoder().encode(text);
 * assert.deepEqual(findOccurrences(encode("aaaa"), encode("aa")), [0, 2]);
 * ```
 */
export function findOccurrences(haystack: Uint8Array, needle: Uint8Array): number[] {
  const starts: number[] = [];
  if (needle.length === 0) return starts;
  // The native `indexOf` of a byte finds candidates at memchr speed; the rest is compared here.
  const first = needle[0];
  const last = haystack.length - needle.length;
  let at = haystack.indexOf(first);
  while (at !== -1 && at <= last) {
    let k = 1;
    while (k < needle.length && haystack[at + k] === needle[k]) k++;
    if (k === needle.length) {
      starts.push(at);
      at = haystack.indexOf(first, at + needle.length);
    } else at = haystack.indexOf(first, at + 1);
  }
  return starts;
}

/** The line of a file that looks most like a text that was not found. */
export interface ClosestLine {
  /** 1-based line number. */
  line: number;
  /** The line's text (cut to 200 characters). */
  text: string;
  /** Similarity from 0 to 1 (Dice coefficient of character bigrams, whitespace-trimmed). */
  similarity: number;
}

/**
 * The character bigrams of the probed text, for Dice similarity against many lines: each pair of
 * UTF-16 units is a number, and a 64 Ki-entry table of hashed pairs turns away most pairs of a
 * line before a map lookup, so a miss in a 16 MB file costs tens of milliseconds, not seconds.
 */
class BigramProbe {
  /** Number of bigrams of the probe (its length minus one). */
  readonly size: number;
  readonly #slotOf = new Map<number, number>();
  readonly #counts: number[] = [];
  readonly #used: Int32Array;
  readonly #hinted = new Uint8Array(1 << 16);

  constructor(probe: string) {
    this.size = Math.max(0, probe.length - 1);
    for (let i = 0; i < probe.length - 1; i++) {
      const pair = pairAt(probe, i);
      const slot = this.#slotOf.get(pair);
      if (slot === undefined) {
        this.#slotOf.set(pair, this.#counts.length);
        this.#counts.push(1);
        this.#hinted[hashOf(pair)] = 1;
      } else this.#counts[slot]++;
    }
    this.#used = new Int32Array(this.#counts.length);
  }

  /** The most {@linkcode BigramProbe.similarity} a line of `length` units can reach. */
  bound(length: number): number {
    const pairs = length - 1;
    return pairs < 1 || this.size === 0
      ? 0
      : (2 * Math.min(pairs, this.size)) / (this.size + pairs);
  }

  /** Dice coefficient of the bigram multisets of the probe and `line`. */
  similarity(line: string): number {
    if (line.length < 2 || this.size === 0) return 0;
    let shared = 0;
    const touched: number[] = [];
    for (let i = 0; i < line.length - 1; i++) {
      const pair = pairAt(line, i);
      if (this.#hinted[hashOf(pair)] === 0) continue;
      const slot = this.#slotOf.get(pair);
      if (slot === undefined) continue;
      if (this.#used[slot] === 0) touched.push(slot);
      if (this.#used[slot]++ < this.#counts[slot]) shared++;
    }
    for (const slot of touched) this.#used[slot] = 0;
    return (2 * shared) / (this.size + line.length - 1);
  }
}

function pairAt(text: string, i: number): number {
  return text.charCodeAt(i) * 0x10000 + text.charCodeAt(i + 1);
}

function hashOf(pair: number): number {
  return ((pair >>> 16) * 31 + (pair & 0xffff)) & 0xffff;
}

const MAX_SCANNED_LINE = 1000;

/**
 * The line of `text` most similar to the first non-blank line of `wanted`, or `undefined`
 * when nothing is alike at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closestLine } from "./replace.ts";
 * assert.equal(closestLine("fn main() {\n    println!(\"hi\");\n}\n", "println!(\"hello\");")?.line, 2);
 * ```
 */
export function closestLine(text: string, wanted: string): ClosestLine | undefined {
  const probe = wanted.split("\n").map((line) => line.trim()).find((line) => line.length > 0);
  if (!probe) return undefined;
  const grams = new BigramProbe(probe);
  let best: ClosestLine | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line.length > MAX_SCANNED_LINE) return;
    // A line too long or too short to beat the best so far is not scored.
    if (line !== probe && grams.bound(line.length) <= (best?.similarity ?? 0)) return;
    const similarity = line === probe ? 1 : grams.similarity(line);
    if (similarity > (best?.similarity ?? 0)) {
      best = { line: i + 1, text: raw.replace(/\r$/, "").slice(0, 200), similarity };
    }
  });
  return best;
}

/**
 * Why a text was not found, as a note for the agent: a line-ending mismatch when the text
 * matches once `\n` is read as `\r\n` (or the reverse), else the closest line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { missNote } from "./replace.ts";
 * assert.match(missNote(new TextEncoder().encode("a\r\nb\r\n"), "a\nb").note, /CRLF/);
 * ```
 */
export function missNote(bytes: Uint8Array, old: string): { note: string; line?: number } {
  const text = decodeText(bytes);
  const encoder = new TextEncoder();
  const lines: string[] = [];
  let line: number | undefined;
  const asCrlf = old.replace(/\r?\n/g, "\r\n");
  const asLf = old.replace(/\r\n/g, "\n");
  if (asCrlf !== old && findOccurrences(bytes, encoder.encode(asCrlf)).length) {
    lines.push("the file uses CRLF line endings: the text matches when written with \\r\\n");
  } else if (asLf !== old && findOccurrences(bytes, encoder.encode(asLf)).length) {
    lines.push("the file uses LF line endings: the text matches when written with \\n");
  }
  const closest = closestLine(text, old);
  if (closest) {
    line = closest.line;
    lines.push(
      `closest line ${closest.line} (${Math.round(closest.similarity * 100)}% alike): ${
        JSON.stringify(closest.text)
      }`,
    );
  } else lines.push("no line of the file resembles the text");
  return { note: lines.join("\n"), line };
}

/**
 * `line:col` of each occurrence, one per line, for a diagnostic's note (at most `limit`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeOccurrences } from "./replace.ts";
 * import { LineIndex } from "@llm/search/schema";
 * assert.equal(
 *   describeOccurrences(LineIndex.fromText("x\nx\n"), [0, 2], 1),
 *   "line 1 col 0 (bytes 0..1)\nline 2 col 0 (bytes 2..3)",
 * );
 * ```
 */
export function describeOccurrences(
  index: LineIndex,
  starts: readonly number[],
  length: number,
  limit = 20,
): string {
  const shown = starts.slice(0, limit).map((start) => {
    const { line, col } = index.position(start);
    return `line ${line} col ${col} (bytes ${start}..${start + length})`;
  });
  if (starts.length > limit) shown.push(`… and ${starts.length - limit} more`);
  return shown.join("\n");
}
