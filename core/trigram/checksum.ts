/**
 * The index file's checksum: a 32-bit hash over 32-bit words, each step a bijection of the
 * running value mixed with the next word, so any change confined to one word (a flipped bit, a
 * rewritten byte) always changes the result. Plain JavaScript at several GB/s: `node:zlib`'s
 * CRC-32 would cost every search start-up the load of the Node compatibility module.
 *
 * @module
 */

const MULTIPLIER = 0x9e3779b1;

function mix(hash: number, word: number): number {
  const mixed = Math.imul(hash ^ word, MULTIPLIER);
  return mixed ^ (mixed >>> 15);
}

/**
 * The checksum of `bytes` (its length is part of it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checksum32 } from "./checksum.ts";
 * assert.notEqual(checksum32(new Uint8Array([1, 2, 3])), checksum32(new Uint8Array([1, 2, 4])));
 * ```
 */
export function checksum32(bytes: Uint8Array): number {
  const words = bytes.length >>> 2;
  let hash = mix(0x811c9dc5, bytes.length);
  if ((bytes.byteOffset & 3) === 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
    for (let i = 0; i < words; i++) hash = mix(hash, view[i]);
  } else {
    for (let i = 0; i < words; i++) {
      const at = 4 * i;
      hash = mix(
        hash,
        bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24),
      );
    }
  }
  for (let at = 4 * words; at < bytes.length; at++) hash = mix(hash, bytes[at]);
  return hash >>> 0;
}
