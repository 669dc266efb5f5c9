/**
 * The YAML gate: the `yaml` package's parser (YAML 1.2, every document of a stream), run in
 * process. Its errors and warnings carry the offset where the text goes wrong, turned into a
 * 1-based line and a 0-based UTF-16 column by its own line counter.
 *
 * @module
 */
import { LineCounter, parseAllDocuments, type YAMLError } from "yaml";
import type { NativeDiagnostic } from "./native.ts";

function finding(error: YAMLError, lines: LineCounter): NativeDiagnostic {
  const { line, col } = lines.linePos(error.pos[0]);
  return {
    level: error.name === "YAMLWarning" ? "warning" : "error",
    message: error.message,
    nativeCode: error.code,
    line,
    column: col - 1,
    columnUnit: "utf16",
  };
}

/**
 * The YAML gate's findings: nothing for a valid YAML stream, else each error (and warning) the
 * parser gives, in stream order, with its code (`BAD_INDENT`, `DUPLICATE_KEY`, …).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkYaml } from "./yaml.ts";
 * assert.equal(checkYaml("a: 1\na: 2\n")[0].nativeCode, "DUPLICATE_KEY");
 * ```
 */
export function checkYaml(text: string): NativeDiagnostic[] {
  const lines = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  const documents = Array.isArray(parsed) ? parsed : [parsed];
  return documents.flatMap((document) => [
    ...document.errors.map((error) => finding(error, lines)),
    ...document.warnings.map((warning) => finding(warning, lines)),
  ]);
}
