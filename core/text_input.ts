/**
 * Text a tool takes as input — a plan on standard input or in a file, the new text of a
 * definition, a JSON string that becomes a file's content — must be UTF-8 text: decoding it
 * loosely would put U+FFFD where the caller's bytes were and write that into files with no
 * word said. Invalid UTF-8 (or a lone surrogate, which a JSON `"\ud800"` escape can carry and
 * UTF-8 cannot encode) is refused with `*-ARG-005` naming its position instead. Where bytes
 * need not be text (`llm-write` of standard input, `llm-validate --stdin`), the tools take them
 * exactly and never come here.
 *
 * @module
 */
import { ToolError } from "../schema/diagnostic.ts";
import type { CodePrefix } from "../schema/error_codes.ts";
import { decodeUtf8 } from "./utf8.ts";

/** The byte offset of the first byte of `bytes` that is not UTF-8, or -1 when all are. */
function firstInvalidByte(bytes: Uint8Array): number {
  const decoded = decodeUtf8(bytes);
  const text = decoded.text;
  for (let index = text.indexOf("\uFFFD"); index >= 0; index = text.indexOf("\uFFFD", index + 1)) {
    const at = decoded.byteOffset(index);
    // A U+FFFD the input spelled itself (EF BF BD) is text like any other.
    if (bytes[at] !== 0xef || bytes[at + 1] !== 0xbf || bytes[at + 2] !== 0xbd) return at;
  }
  return -1;
}

/**
 * The text of `bytes`, which must be UTF-8; a leading BOM is dropped (it signs the encoding, it
 * is no part of a plan or a snippet). `what` names the input in the message, e.g. `"standard
 * input"`. Throws `*-ARG-005` with the offset and line of the first invalid byte.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { utf8Input } from "./text_input.ts";
 * assert.equal(utf8Input("LMT", new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), "the plan"), "{}");
 * assert.throws(
 *   () => utf8Input("LMT", new Uint8Array([0x61, 0xe9, 0x62]), "standard input"),
 *   { code: "LMT-ARG-005" },
 * );
 * ```
 */
export function utf8Input(prefix: CodePrefix, bytes: Uint8Array, what: string): string {
  const at = firstInvalidByte(bytes);
  if (at >= 0) {
    const line = bytes.subarray(0, at).reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 1);
    throw new ToolError(
      `${prefix}-ARG-005`,
      `${what} is not valid UTF-8 (byte 0x${bytes[at].toString(16).padStart(2, "0")} at offset ` +
        `${at}, line ${line}); nothing was done with it`,
      { line, note: `first invalid byte at offset ${at}` },
    );
  }
  const text = decodeUtf8(bytes).text;
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/**
 * `text` when it can be written as UTF-8 exactly; throws `*-ARG-005` when it holds a lone
 * surrogate (UTF-8 would turn it into U+FFFD). `what` names the input, e.g. `"$.files[0].content"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wellFormedInput } from "./text_input.ts";
 * assert.equal(wellFormedInput("LFW", "x = 1\n", "content"), "x = 1\n");
 * ```
 */
export function wellFormedInput(prefix: CodePrefix, text: string, what: string): string {
  if (text.isWellFormed()) return text;
  let at = 0;
  for (; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    const low = text.charCodeAt(at + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) at++;
    else if (unit >= 0xd800 && unit <= 0xdfff) break;
  }
  throw new ToolError(
    `${prefix}-ARG-005`,
    `${what} holds a lone surrogate (\\u${text.charCodeAt(at).toString(16)} at code unit ` +
      `${at}), which UTF-8 cannot encode; nothing was done with it`,
  );
}
