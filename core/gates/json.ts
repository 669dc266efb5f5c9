/**
 * The JSON gate: `JSON.parse`, the engine's own strict RFC 8259 parser, run in process. V8's
 * messages do not always say where the text goes wrong ("Unexpected token '}', … is not valid
 * JSON"), so the position is found with the same parser: a prefix of a JSON text is either
 * still completable (the parse fails only at its end) or not, and that property is monotone,
 * so a binary search finds the longest completable prefix; the error is at its end.
 *
 * @module
 */
import type { NativeDiagnostic } from "./native.ts";

/** Whether `prefix` can still be completed to a JSON text: its parse fails only at its end. */
function completable(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message);
    if (position) return Number(position[1]) >= prefix.length;
    return /end of JSON input|Unterminated string/.test(message);
  }
}

/** Index (UTF-16) of the first character at which `text` stops being a JSON text. */
function errorIndex(text: string): number {
  let low = 0; // completable
  let high = text.length; // not known to be: the whole text failed
  if (completable(text)) return text.length;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (completable(text.slice(0, middle))) low = middle;
    else high = middle;
  }
  return low;
}

/** 1-based line and 0-based UTF-16 column of `index` in `text`. */
function lineColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: index - lineStart };
}

/**
 * The JSON gate's findings: nothing for a valid JSON text, else `JSON.parse`'s message at the
 * first character that cannot belong to one. A leading byte order mark is allowed (RFC 8259 §8.1
 * lets a parser ignore it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkJson } from "./json.ts";
 * assert.equal(checkJson('{"a": 1,\n "b": }')[0].line, 2);
 * ```
 */
export function checkJson(text: string): NativeDiagnostic[] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  try {
    JSON.parse(body);
    return [];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const index = errorIndex(body) + (body === text ? 0 : 1);
    const { line, column } = lineColumn(text, index);
    return [{
      level: "error",
      message,
      nativeCode: "SyntaxError",
      line,
      column,
      columnUnit: "utf16",
    }];
  }
}
