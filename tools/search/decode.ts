/**
 * Decoding for matching: like `core/utf8.ts`, but each byte of an invalid UTF-8 sequence
 * becomes its own lone surrogate U+DC80–U+DCFF (Python's "surrogateescape") instead of U+FFFD.
 * Every class the matcher emits excludes that range, so no `.`, negated class or escape can
 * match an invalid byte (ripgrep's behaviour), a real U+FFFD in the file stays distinct from
 * one, and each escaped unit maps back to exactly one byte.
 *
 * @module
 */
import { type DecodedText, decodeUtf8, lowerBound } from "../../core/utf8.ts";

/** Code point of the valid UTF-8 sequence at `i` and its width, or width 0 when invalid. */
function codePointAt(bytes: Uint8Array, i: number): [number, number] {
  const lead = bytes[i];
  if (lead < 0x80) return [lead, 1];
  const cont = (k: number, low = 0x80, high = 0xbf) =>
    i + k < bytes.length && bytes[i + k] >= low && bytes[i + k] <= high;
  if (lead >= 0xc2 && lead <= 0xdf && cont(1)) {
    return [((lead & 0x1f) << 6) | (bytes[i + 1] & 0x3f), 2];
  }
  if (lead >= 0xe0 && lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    if (cont(1, low, high) && cont(2)) {
      return [((lead & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f), 3];
    }
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    if (cont(1, low, high) && cont(2) && cont(3)) {
      const value = ((lead & 0x07) << 18) | ((bytes[i + 1] & 0x3f) << 12) |
        ((bytes[i + 2] & 0x3f) << 6) | (bytes[i + 3] & 0x3f);
      return [value, 4];
    }
  }
  return [0, 0];
}

/** Text of UTF-16 units, lone surrogates kept (a UTF-16 `TextDecoder` would replace them). */
function unitsToString(units: Uint16Array): string {
  let text = "";
  for (let from = 0; from < units.length; from += 8192) {
    text += String.fromCharCode(...units.subarray(from, from + 8192));
  }
  return text;
}

/** The surrogateescape decoding of bytes that hold invalid UTF-8. */
function decodeEscaping(bytes: Uint8Array): DecodedText {
  const units = new Uint16Array(bytes.length);
  const offsets = new Uint32Array(bytes.length + 1);
  let unit = 0;
  for (let i = 0; i < bytes.length;) {
    const [value, width] = codePointAt(bytes, i);
    offsets[unit] = i;
    if (width === 0) {
      units[unit++] = 0xdc00 | bytes[i];
      i++;
    } else if (value > 0xffff) {
      units[unit++] = 0xd800 | ((value - 0x10000) >> 10);
      offsets[unit] = i;
      units[unit++] = 0xdc00 | ((value - 0x10000) & 0x3ff);
      i += width;
    } else {
      units[unit++] = value;
      i += width;
    }
  }
  offsets[unit] = bytes.length;
  const map = offsets.subarray(0, unit + 1);
  return {
    text: unitsToString(units.subarray(0, unit)),
    byteOffset: (index) => map[index],
    unitIndex: (offset) => lowerBound(map, offset),
  };
}

/**
 * Decodes bytes for matching: valid UTF-8 (the common case) through the native decoder,
 * anything holding an invalid byte with each invalid byte as a lone surrogate U+DC80–U+DCFF.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeForMatching } from "./decode.ts";
 * const decoded = decodeForMatching(new Uint8Array([0x61, 0xff, 0x62]));
 * assert.equal(decoded.text, "a\udcffb");
 * assert.equal(decoded.byteOffset(2), 2);
 * ```
 */
export function decodeForMatching(bytes: Uint8Array): DecodedText {
  const decoded = decodeUtf8(bytes);
  return decoded.text.includes("\ufffd") ? decodeEscaping(bytes) : decoded;
}
