/**
 * SHA-256 checksums in the contract's `sha256:<hex>` notation.
 *
 * @module
 */
import type { createHash as CreateHash } from "node:crypto";
import { sha256Hex } from "./sha256.ts";

/**
 * What the TypeScript SHA-256 hashes before `node:crypto` takes over: inputs under 64 KiB, while
 * a process has hashed less than 256 KiB with it. Loading `node:crypto` costs a command ≈ 22 ms
 * of CPU at start (about as much as Deno's own start), which ids and a small edit never earn
 * back; but in a short-lived process the TypeScript hash runs mostly unoptimised (64 KiB ≈ 6 ms
 * cold, 256 KiB ≈ 13 ms, 1 MiB ≈ 35 ms) and even warm it is ≈ 8× slower, so big inputs and
 * runs that hash many files (an index) go to `node:crypto`.
 */
const TYPESCRIPT_LIMIT = 64 * 1024;
let typescriptBytesLeft = 256 * 1024;
let nodeCreateHash: typeof CreateHash | undefined;
const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function nodeSha256Hex(data: Uint8Array): string {
  nodeCreateHash ??=
    (process.getBuiltinModule("node:crypto") as typeof import("node:crypto")).createHash;
  return nodeCreateHash("sha256").update(data).digest("hex");
}

/** A checksum as written in every envelope: `sha256:` followed by 64 lowercase hex digits. */
export type Checksum = `sha256:${string}`;

const CHECKSUM_PATTERN = /^(?:sha256:)?([0-9a-fA-F]{64})$/;

/**
 * SHA-256 of some bytes (or the UTF-8 of a string), as `sha256:<hex>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256 } from "@llm/search/schema";
 * assert.equal(
 *   sha256(""),
 *   "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * );
 * ```
 */
export function sha256(data: Uint8Array | string): Checksum {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  if (bytes.length < TYPESCRIPT_LIMIT && bytes.length <= typescriptBytesLeft) {
    typescriptBytesLeft -= bytes.length;
    return `sha256:${sha256Hex(bytes)}`;
  }
  return `sha256:${nodeSha256Hex(bytes)}`;
}

/**
 * SHA-256 of some bytes (or the UTF-8 of a string), as `sha256:<hex>`, by Web Crypto: native,
 * built into Deno's runtime and needing no permission, so an edit that hashes whole files pays
 * neither the TypeScript hash (≈ 35 ms per cold MiB) nor loading `node:crypto` (≈ 30–40 ms of a
 * command's wall time). Equal to {@linkcode sha256} for every input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Async } from "@llm/search/schema";
 * assert.equal(
 *   await sha256Async(""),
 *   "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * );
 * ```
 */
export async function sha256Async(data: Uint8Array | string): Promise<Checksum> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  // Web Crypto takes an ArrayBuffer-backed view; a view of a SharedArrayBuffer is copied.
  const source = bytes.buffer instanceof ArrayBuffer
    ? bytes as Uint8Array<ArrayBuffer>
    : bytes.slice();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", source));
  let hex = "";
  for (const byte of digest) hex += HEX[byte];
  return `sha256:${hex}`;
}

/**
 * Normalises a checksum given by a user: accepts bare hex or `sha256:` hex, any case.
 * Returns `undefined` when the text is not a SHA-256 checksum at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeChecksum } from "@llm/search/schema";
 * assert.equal(
 *   normalizeChecksum("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"),
 *   "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * );
 * assert.equal(normalizeChecksum("md5:d41d8cd98f00b204e9800998ecf8427e"), undefined);
 * ```
 */
export function normalizeChecksum(text: string): Checksum | undefined {
  const found = CHECKSUM_PATTERN.exec(text.trim());
  return found ? `sha256:${found[1].toLowerCase()}` : undefined;
}
