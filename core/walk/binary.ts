/**
 * Binary detection shared by every content-reading tool: a NUL byte in the first 8 KiB,
 * as git and ripgrep decide.
 *
 * @module
 */

/** How many leading bytes are inspected for a NUL. */
export const BINARY_PROBE_BYTES = 8192;

/**
 * Whether `bytes` looks binary (a NUL byte within the first 8 KiB).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isBinary } from "./binary.ts";
 * assert.equal(isBinary(new Uint8Array([0x61, 0x00])), true);
 * assert.equal(isBinary(new TextEncoder().encode("plain text\n")), false);
 * ```
 */
export function isBinary(bytes: Uint8Array): boolean {
  const probe = bytes.length > BINARY_PROBE_BYTES ? bytes.subarray(0, BINARY_PROBE_BYTES) : bytes;
  return probe.indexOf(0) !== -1;
}
