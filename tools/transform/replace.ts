/**
 * Guarded replacement (what agents know as str_replace): find the exact bytes of a text,
 * require the number of occurrences the caller allows, and explain a miss.
 *
 * @module
 */
import { LineIndex } from "../../schema/line_index.ts";

/**
 * Start offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right.
 *
 * @example
 * ```ts
 * import { findOccurrences } from "./replace.ts";
 * const encode = (text: string) => new TextEncoder().encode(text);
 * findOccurrences(encode("aaaa"), encode("aa")); // [0, 2]
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

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

function dice(a: Map<string, number>, aSize: number, b: string): number {
  if (b.length < 2 || aSize === 0) return 0;
  let shared = 0;
  const seen = new Map<string, number>();
  for (let i = 0; i < b.length - 1; i++) {
    const pair = b.slice(i, i + 2);
    const used = seen.get(pair) ?? 0;
    if (used < (a.get(pair) ?? 0)) shared++;
    seen.set(pair, used + 1);
  }
  return (2 * shared) / (aSize + b.length - 1);
}

const MAX_SCANNED_LINE = 1000;

/**
 * The line of `text` most similar to the first non-blank line of `wanted`, or `undefined`
 * when nothing is alike at all.
 *
 * @example
 * ```ts
 * import { closestLine } from "./replace.ts";
 * closestLine("fn main() {\n    println!(\"hi\");\n}\n", "println!(\"hello\");")?.line; // 2
 * ```
 */
export function closestLine(text: string, wanted: string): ClosestLine | undefined {
  const probe = wanted.split("\n").map((line) => line.trim()).find((line) => line.length > 0);
  if (!probe) return undefined;
  const grams = bigrams(probe);
  const size = Math.max(0, probe.length - 1);
  let best: ClosestLine | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line.length > MAX_SCANNED_LINE) return;
    const similarity = line === probe ? 1 : dice(grams, size, line);
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
 * import { missNote } from "./replace.ts";
 * missNote(new TextEncoder().encode("a\r\nb\r\n"), "a\nb").note.includes("CRLF"); // true
 * ```
 */
export function missNote(bytes: Uint8Array, old: string): { note: string; line?: number } {
  const text = new TextDecoder().decode(bytes);
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
 * import { describeOccurrences } from "./replace.ts";
 * import { LineIndex } from "@llm/search/schema";
 * describeOccurrences(LineIndex.fromText("x\nx\n"), [0, 2], 1); // "line 1 col 0 (bytes 0..1)" …
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
