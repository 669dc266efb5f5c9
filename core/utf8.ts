/**
 * UTF-8 decoding that keeps byte offsets: JavaScript strings index UTF-16 code units, the
 * contract counts bytes, and invalid UTF-8 must neither crash nor shift offsets. Decoding
 * follows the WHATWG decoder (one U+FFFD per maximal invalid subpart), so every code unit maps
 * back to the byte it came from.
 *
 * This is the one decoding of file content in the package: a leading UTF-8 BOM stays in the
 * text as U+FEFF (a default `TextDecoder` drops it, and every position after it would then be
 * three bytes short). Tree-sitter takes the text as it is: its lexer skips a U+FEFF at the
 * start as whitespace, in every grammar of the registry, and its positions count the BOM's
 * code unit like any other (`tests/one_decoding_test.ts` checks both), so no tool hides the
 * BOM from its parser or shifts positions back by its width.
 *
 * @module
 */

// ignoreBOM keeps a BOM in the text as U+FEFF, so offsets after it stay right.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The UTF-8 byte order mark. */
const BOM = [0xef, 0xbb, 0xbf];

/** Decoded text plus a way back from code-unit indices to byte offsets. */
export interface DecodedText {
  /** The text (invalid sequences replaced by U+FFFD). */
  text: string;
  /** Byte offset of the code unit at `index` (`index` = text length gives the byte length). */
  byteOffset(index: number): number;
  /** Code-unit index of a byte offset that starts a character (or equals the length). */
  unitIndex(byteOffset: number): number;
}

/** Width in bytes of the valid UTF-8 sequence starting at `i`, or 0 when it is invalid there. */
function sequenceWidth(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  if (lead < 0x80) return 1;
  const cont = (k: number, low = 0x80, high = 0xbf) =>
    i + k < bytes.length && bytes[i + k] >= low && bytes[i + k] <= high;
  if (lead >= 0xc2 && lead <= 0xdf) return cont(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return cont(1, low, high) && cont(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return cont(1, low, high) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Bytes one U+FFFD stands for at an invalid position `i` (the maximal subpart, at least 1). */
function invalidRun(bytes: Uint8Array, i: number): number {
  const lead = bytes[i];
  let need = 0;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) need = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  }
  let run = 1;
  while (need > 0 && i + run < bytes.length) {
    const byte = bytes[i + run];
    if (byte < low || byte > high) break;
    low = 0x80;
    high = 0xbf;
    run++;
    need--;
  }
  return run;
}

/** Map from code-unit index to byte offset for text that is not a one-byte-per-unit copy. */
function buildUnitMap(bytes: Uint8Array, units: number): Uint32Array {
  const map = new Uint32Array(units + 1);
  let unit = 0;
  let i = 0;
  while (i < bytes.length) {
    const width = sequenceWidth(bytes, i);
    if (width === 0) {
      map[unit++] = i;
      i += invalidRun(bytes, i);
    } else if (width === 4) {
      map[unit++] = i;
      map[unit++] = i;
      i += 4;
    } else {
      map[unit++] = i;
      i += width;
    }
  }
  map[unit] = bytes.length;
  return map;
}

/**
 * Index of the first entry of the ascending `map` that is not below `value` (the last index
 * when none is): the code unit at a byte offset.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lowerBound } from "./utf8.ts";
 * assert.equal(lowerBound(new Uint32Array([0, 1, 3, 4]), 3), 2);
 * ```
 */
export function lowerBound(map: Uint32Array, value: number): number {
  let low = 0;
  let high = map.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (map[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Decodes UTF-8 bytes and keeps the way back to byte offsets. ASCII-only input (the common
 * case) needs no map at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeUtf8 } from "./utf8.ts";
 * const decoded = decodeUtf8(new TextEncoder().encode("é=1"));
 * assert.equal(decoded.text.indexOf("="), 1);
 * assert.equal(decoded.byteOffset(1), 2);
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  const text = decoder.decode(bytes);
  if (text.length === bytes.length) {
    return { text, byteOffset: (index) => index, unitIndex: (offset) => offset };
  }
  let map: Uint32Array | undefined;
  const units = () => (map ??= buildUnitMap(bytes, text.length));
  return {
    text,
    byteOffset: (index) => units()[index],
    unitIndex: (offset) => lowerBound(units(), offset),
  };
}

/**
 * The text of UTF-8 bytes, decoded as {@linkcode decodeUtf8} does (a BOM kept as U+FEFF): for a
 * slice of a file (a line, a match) or a whole file whose text is all that is needed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeText } from "./utf8.ts";
 * assert.equal(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), "\ufeffa");
 * ```
 */
export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** A file's bytes with their decoding, kept together: positions in the text map to the bytes. */
export interface DecodedFile {
  /** The bytes as read. */
  bytes: Uint8Array;
  /** Their decoding by {@linkcode decodeUtf8}. */
  decoded: DecodedText;
}

/**
 * A file's bytes and their decoding by {@linkcode decodeUtf8}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeFile } from "./utf8.ts";
 * assert.equal(decodeFile(new TextEncoder().encode("é")).decoded.text, "é");
 * ```
 */
export function decodeFile(bytes: Uint8Array): DecodedFile {
  return { bytes, decoded: decodeUtf8(bytes) };
}

/**
 * Width in bytes of the UTF-8 BOM that `bytes` start with: 3, or 0 when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bomWidth } from "./utf8.ts";
 * assert.equal(bomWidth(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), 3);
 * ```
 */
export function bomWidth(bytes: Uint8Array): number {
  return bytes.length >= 3 && BOM.every((byte, i) => bytes[i] === byte) ? 3 : 0;
}
