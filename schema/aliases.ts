/**
 * Normalisation of the legacy field names that inputs accept (contract §1).
 *
 * @module
 */

/** Legacy name → canonical name, for flat fields. */
export const FIELD_ALIASES: Readonly<Record<string, string>> = {
  file: "file_path",
  line_start: "start_line",
  line_number: "start_line",
  line_end: "end_line",
  col_start: "start_col",
  column_number: "start_col",
  col_end: "end_col",
  operation_id: "execution_id",
  version: "schema_version",
  replacement: "new_text",
  new_content: "new_text",
  checksum_before: "expected_checksum",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `start: {row, column}` / `end: {row, column}` → `start_line`/`start_col`/`end_line`/`end_col`. */
function flattenPoints(record: Record<string, unknown>, out: Record<string, unknown>): void {
  for (const side of ["start", "end"] as const) {
    const point = record[side];
    if (!isRecord(point)) continue;
    if (typeof point.row === "number") out[`${side}_line`] ??= point.row;
    if (typeof point.column === "number") out[`${side}_col`] ??= point.column;
  }
}

/**
 * Returns a copy of `value` with legacy field names renamed to the canonical ones, at every
 * depth. A canonical field that is present wins over its alias.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeAliases } from "@llm/search/schema";
 * assert.deepEqual(
 *   normalizeAliases({ file: "a.ts", replacement: "x", start: { row: 3, column: 1 } }),
 *   { file_path: "a.ts", new_text: "x", start_line: 3, start_col: 1 },
 * );
 * ```
 */
export function normalizeAliases(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeAliases);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key in FIELD_ALIASES || key === "start" || key === "end") continue;
    out[key] = normalizeAliases(child);
  }
  for (const [key, child] of Object.entries(value)) {
    const canonical = FIELD_ALIASES[key];
    if (canonical !== undefined) out[canonical] ??= normalizeAliases(child);
  }
  flattenPoints(value, out);
  for (const side of ["start", "end"] as const) {
    if (side in value && !isRecord(value[side])) out[side] = value[side];
  }
  return out;
}
