/**
 * SHA-256 (FIPS 180-4), synchronous and without `node:crypto`: the ids (`span_id`,
 * `symbol_id`) hash a few dozen bytes each, and loading `node:crypto` costs a command about as
 * much CPU time as Deno's own start (≈ 22 ms measured here), while Web Crypto's digest is
 * asynchronous. Checksums of contents use it up to a budget, then `node:crypto`
 * (`checksum.ts`). A unit test compares it with `node:crypto` on generated inputs.
 *
 * @module
 */

const K = new Int32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = [
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
];

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

// Reused by every call (the ids hash millions of short strings while indexing): the message
// schedule, the chaining state, and a buffer for the padded message.
const w = new Int32Array(64);
const state = new Int32Array(8);
let buffer = new Uint8Array(128);

/** The message padded to whole 64-byte blocks (a 1 bit, zeros, the bit length), in `buffer`. */
function pad(data: Uint8Array): number {
  const length = Math.ceil((data.length + 9) / 64) * 64;
  if (buffer.length < length) buffer = new Uint8Array(length * 2);
  buffer.fill(0, data.length, length);
  buffer.set(data);
  buffer[data.length] = 0x80;
  const bits = data.length * 8;
  const high = Math.floor(bits / 0x100000000);
  for (let i = 0; i < 4; i++) {
    buffer[length - 1 - i] = (bits >>> (8 * i)) & 0xff;
    buffer[length - 5 - i] = (high >>> (8 * i)) & 0xff;
  }
  return length;
}

/** Mixes the 64-byte block at `offset` of `buffer` into `state`. */
function compress(offset: number): void {
  for (let i = 0; i < 16; i++) {
    const at = offset + i * 4;
    w[i] = (buffer[at] << 24) | (buffer[at + 1] << 16) | (buffer[at + 2] << 8) | buffer[at + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
    const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = state[0], b = state[1], c = state[2], d = state[3];
  let e = state[4], f = state[5], g = state[6], h = state[7];
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) |
      0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/**
 * The SHA-256 digest of `data` as 64 lowercase hex digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./sha256.ts";
 * assert.equal(sha256Hex(new TextEncoder().encode("abc")).slice(0, 16), "ba7816bf8f01cfea");
 * ```
 */
export function sha256Hex(data: Uint8Array): string {
  const length = pad(data);
  state.set(INITIAL);
  for (let offset = 0; offset < length; offset += 64) compress(offset);
  let hex = "";
  for (let i = 0; i < 8; i++) {
    const word = state[i];
    hex += HEX[(word >>> 24) & 0xff] + HEX[(word >>> 16) & 0xff] + HEX[(word >>> 8) & 0xff] +
      HEX[word & 0xff];
  }
  return hex;
}
