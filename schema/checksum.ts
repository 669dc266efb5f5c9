/**
 * SHA-256 checksums in the contract's `sha256:<hex>` notation.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** A checksum as written in every envelope: `sha256:` followed by 64 lowercase hex digits. */
export type Checksum = `sha256:${string}`;

const CHECKSUM_PATTERN = /^(?:sha256:)?([0-9a-fA-F]{64})$/;

/**
 * SHA-256 of some bytes (or the UTF-8 of a string), as `sha256:<hex>`.
 *
 * @example
 * ```ts
 * import { sha256 } from "@llm/search/schema";
 * sha256(""); // "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 * ```
 */
export function sha256(data: Uint8Array | string): Checksum {
  return `sha256:${createHash("sha256").update(data).digest("hex")}`;
}

/**
 * Normalises a checksum given by a user: accepts bare hex or `sha256:` hex, any case.
 * Returns `undefined` when the text is not a SHA-256 checksum at all.
 *
 * @example
 * ```ts
 * import { normalizeChecksum } from "@llm/search/schema";
 * normalizeChecksum("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855");
 * // "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 * ```
 */
export function normalizeChecksum(text: string): Checksum | undefined {
  const found = CHECKSUM_PATTERN.exec(text.trim());
  return found ? `sha256:${found[1].toLowerCase()}` : undefined;
}
