import assert from "node:assert/strict";
import { normalizeAliases } from "./aliases.ts";

Deno.test("legacy field names are normalised at every depth; canonical names win", () => {
  assert.deepEqual(
    normalizeAliases({
      operation_id: "op",
      version: "1",
      edits: [{
        file: "a.ts",
        line_number: 3,
        column_number: 1,
        replacement: "x",
        checksum_before: "c",
      }],
      start: { row: 2, column: 4 },
      end: { row: 2, column: 9 },
      new_text: "kept",
      new_content: "dropped",
    }),
    {
      execution_id: "op",
      schema_version: "1",
      edits: [{
        file_path: "a.ts",
        start_line: 3,
        start_col: 1,
        new_text: "x",
        expected_checksum: "c",
      }],
      start_line: 2,
      start_col: 4,
      end_line: 2,
      end_col: 9,
      new_text: "kept",
    },
  );
});
