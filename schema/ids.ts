/**
 * Identifiers shared by every tool: run and match ids, `span_id`, `symbol_id`.
 *
 * @module
 */
import { sha256Hex } from "./sha256.ts";

const encoder = new TextEncoder();

/**
 * A fresh UUID v4, used for `execution_id` and `match_id`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newId } from "@llm/search/schema";
 * assert.match(newId(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
 * ```
 */
export function newId(): string {
  return crypto.randomUUID();
}

/** Writes `value` (a safe integer ≥ 0) as 8 big-endian bytes at `offset`. */
function putU64BigEndian(bytes: Uint8Array, offset: number, value: number): void {
  const high = Math.floor(value / 0x100000000);
  for (let i = 0; i < 4; i++) {
    bytes[offset + 7 - i] = (value >>> (8 * i)) & 0xff;
    bytes[offset + 3 - i] = (high >>> (8 * i)) & 0xff;
  }
}

/**
 * The stable id of a span (Magellan's algorithm): the first 8 bytes, as 16 lowercase hex
 * digits, of SHA-256( utf8(file_path) ‖ ":" ‖ u64be(byte_start) ‖ ":" ‖ u64be(byte_end) ).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spanId } from "@llm/search/schema";
 * assert.equal(spanId("src/main.rs", 3, 7), "ef8007a25c15a56d");
 * ```
 */
export function spanId(filePath: string, byteStart: number, byteEnd: number): string {
  const path = encoder.encode(filePath);
  const bytes = new Uint8Array(path.length + 18);
  bytes.set(path);
  bytes[path.length] = bytes[path.length + 9] = 0x3a; // ":"
  putU64BigEndian(bytes, path.length + 1, byteStart);
  putU64BigEndian(bytes, path.length + 10, byteEnd);
  return sha256Hex(bytes).slice(0, 16);
}

/** What identifies a symbol definition independently of where its bytes sit. */
export interface SymbolKey {
  /** Registry name of the language, e.g. `rust`. */
  language: string;
  /** The file's path as reported in spans (root-relative, `/` separators). */
  file_path: string;
  /** Qualified name, e.g. `Parser::parse` or `mod.Class.method`. */
  qualified_name: string;
  /** Normalised kind, e.g. `function`. */
  kind: string;
}

/**
 * The stable id of a symbol definition: the first 8 bytes, as 16 lowercase hex digits, of
 * SHA-256( language ‖ NUL ‖ file_path ‖ NUL ‖ qualified_name ‖ NUL ‖ kind ), each part
 * UTF-8 encoded. Offsets are left out on purpose so the id survives edits elsewhere in the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolId } from "@llm/search/schema";
 * const id = symbolId({
 *   language: "rust", file_path: "src/lib.rs", qualified_name: "parse", kind: "function",
 * });
 * assert.match(id, /^[0-9a-f]{16}$/);
 * ```
 */
export function symbolId(key: SymbolKey): string {
  const text = [key.language, key.file_path, key.qualified_name, key.kind].join("\0");
  return sha256Hex(encoder.encode(text)).slice(0, 16);
}
