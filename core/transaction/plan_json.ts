/**
 * The JSON text of a plan, as every writer reads it (`llm-transform`'s edit plans, `llm-write`'s
 * file plans, `llm-refactor`'s step plans): a syntax error reported with its line and column in
 * the tool's own code, and a schema violation named by its JSON path.
 *
 * @module
 */
import { ToolError } from "../../schema/diagnostic.ts";

/**
 * The JSON path of a zod issue path, e.g. `$.edits[0].byte_start`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonPath } from "./plan_json.ts";
 * assert.equal(jsonPath(["edits", 0, "byte_start"]), "$.edits[0].byte_start");
 * ```
 */
export function jsonPath(path: readonly PropertyKey[]): string {
  return "$" +
    path.map((key) =>
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(key))
        ? `.${String(key)}`
        : `[${JSON.stringify(String(key))}]`
    ).join("");
}

/**
 * Parses JSON text, turning a syntax error into `code` (`LMT-ARG-010`, or another tool's plan
 * code) with its line and column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonText } from "./plan_json.ts";
 * assert.deepEqual(parseJsonText('{"edits": []}', "the plan"), { edits: [] });
 * ```
 */
export function parseJsonText(text: string, source: string, code = "LMT-ARG-010"): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const found = /at position (\d+)/.exec(message);
    const position = found
      ? Number(found[1])
      : /end of (JSON )?input/i.test(message)
      ? text.length
      : undefined;
    const details: { line?: number; column?: number; note: string } = { note: message };
    let where = "";
    if (position !== undefined) {
      const before = text.slice(0, position);
      const line = before.split("\n").length;
      const column = new TextEncoder().encode(before.slice(before.lastIndexOf("\n") + 1)).length;
      details.line = line;
      details.column = column;
      where = ` at line ${line}, column ${column} (character ${position})`;
    }
    throw new ToolError(code, `${source} is not valid JSON${where}`, details);
  }
}
