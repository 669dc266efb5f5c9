/**
 * The raw-byte prefilter: does a file contain at least one of the required literals? Files
 * that do not are never decoded. The scan jumps between occurrences of the literal's rarest
 * byte with the engine's native `indexOf`, ripgrep's rare-byte heuristic in small.
 *
 * @module
 */

/** Approximate frequency rank of bytes in source code (higher = more common). */
function commonness(byte: number): number {
  if (byte === 0x20 || byte === 0x65 || byte === 0x74) return 100; // space, e, t
  if (byte >= 0x61 && byte <= 0x7a) return 60; // lower-case letters
  if (
    byte === 0x0a || byte === 0x09 || byte === 0x2c || byte === 0x3b || byte === 0x28 ||
    byte === 0x29
  ) {
    return 50;
  }
  if (byte === 0x5f || byte === 0x2e || byte === 0x2a) return 40; // _ . *
  if (byte >= 0x41 && byte <= 0x5a) return 30; // upper-case letters
  if (byte >= 0x30 && byte <= 0x39) return 30;
  return 10;
}

/** A literal prepared for scanning. */
export interface LiteralNeedle {
  /** The literal's UTF-8 bytes (lower-cased ASCII when case-insensitive). */
  bytes: Uint8Array;
  /** Index of the byte to scan for. */
  anchor: number;
  /** Compare ASCII letters ignoring case. */
  ignoreCase: boolean;
}

const encoder = new TextEncoder();

function isAsciiLetter(byte: number): boolean {
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/**
 * Prepares literals for {@linkcode containsAny}.
 *
 * @example
 * ```ts
 * import { prepareNeedles, containsAny } from "@llm/search/search";
 * const needles = prepareNeedles(["PM_RESUME"], false);
 * containsAny(new TextEncoder().encode("x PM_RESUME y"), needles); // true
 * ```
 */
export function prepareNeedles(literals: readonly string[], ignoreCase: boolean): LiteralNeedle[] {
  return literals.map((literal) => {
    const bytes = encoder.encode(ignoreCase ? literal.toLowerCase() : literal);
    let anchor = 0;
    for (let i = 1; i < bytes.length; i++) {
      // Under ignoreCase a letter has two byte values, so scanning for it is not possible.
      if (ignoreCase && isAsciiLetter(bytes[i])) continue;
      if (
        (ignoreCase && isAsciiLetter(bytes[anchor])) ||
        commonness(bytes[i]) < commonness(bytes[anchor])
      ) anchor = i;
    }
    return { bytes, anchor, ignoreCase: ignoreCase && bytes.some(isAsciiLetter) };
  });
}

function matchesAt(
  haystack: Uint8Array,
  start: number,
  needle: Uint8Array,
  ignoreCase: boolean,
): boolean {
  for (let j = 0; j < needle.length; j++) {
    let byte = haystack[start + j];
    if (ignoreCase && isAsciiLetter(byte)) byte |= 0x20;
    if (byte !== needle[j]) return false;
  }
  return true;
}

/** Offset of the first occurrence of `needle` in `haystack`, or -1. */
function find(haystack: Uint8Array, needle: LiteralNeedle): number {
  const { bytes, anchor, ignoreCase } = needle;
  if (bytes.length === 0) return 0;
  const last = haystack.length - bytes.length;
  const anchorByte = bytes[anchor];
  if (ignoreCase && isAsciiLetter(anchorByte)) {
    // Every byte of the needle is a letter: fall back to a plain scan.
    for (let start = 0; start <= last; start++) {
      if (matchesAt(haystack, start, bytes, true)) return start;
    }
    return -1;
  }
  for (
    let at = haystack.indexOf(anchorByte, anchor);
    at !== -1;
    at = haystack.indexOf(anchorByte, at + 1)
  ) {
    const start = at - anchor;
    if (start > last) return -1;
    if (matchesAt(haystack, start, bytes, ignoreCase)) return start;
  }
  return -1;
}

/** Whether `haystack` contains at least one of the needles (always true for no needles). */
export function containsAny(haystack: Uint8Array, needles: readonly LiteralNeedle[]): boolean {
  if (needles.length === 0) return true;
  return needles.some((needle) => find(haystack, needle) !== -1);
}
