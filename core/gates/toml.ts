/**
 * The TOML gate: the `smol-toml` parser (TOML 1.0), run in process. It stops at the first error
 * and gives its 1-based line and column; the column counts UTF-16 code units of the line.
 *
 * @module
 */
import { parse, TomlError } from "smol-toml";
import type { NativeDiagnostic } from "./native.ts";

/**
 * The TOML gate's findings: nothing for a valid TOML document, else the parser's error, its
 * message without the code frame it appends.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkToml } from "./toml.ts";
 * assert.equal(checkToml("a = 1\na = 2\n")[0].line, 2);
 * ```
 */
export function checkToml(text: string): NativeDiagnostic[] {
  try {
    parse(text);
    return [];
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return [{
      level: "error",
      message: error.message.split("\n\n")[0],
      nativeCode: "TomlError",
      line: error.line,
      column: error.column - 1,
      columnUnit: "utf16",
    }];
  }
}
