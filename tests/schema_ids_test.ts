import assert from "node:assert/strict";
import {
  EditPlanSchema,
  newId,
  normalizeAliases,
  normalizeChecksum,
  parseEditPlan,
  sha256,
  spanId,
  symbolId,
} from "../schema/mod.ts";

Deno.test("span_id follows Magellan's algorithm (contract vector)", () => {
  assert.equal(spanId("src/main.rs", 3, 7), "ef8007a25c15a56d");
  assert.notEqual(spanId("src/main.rs", 3, 8), spanId("src/main.rs", 3, 7));
});

Deno.test("symbol_id depends on language, path, qualified name and kind, not offsets", () => {
  const key = {
    language: "rust",
    file_path: "src/lib.rs",
    qualified_name: "Parser::parse",
    kind: "method",
  };
  assert.match(symbolId(key), /^[0-9a-f]{16}$/);
  assert.equal(symbolId(key), symbolId({ ...key }));
  assert.notEqual(symbolId(key), symbolId({ ...key, kind: "function" }));
  assert.notEqual(symbolId(key), symbolId({ ...key, file_path: "src/main.rs" }));
});

Deno.test("execution and match ids are UUID v4", () => {
  assert.match(newId(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(newId(), newId());
});

Deno.test("checksums are sha256:<hex>; inputs accept bare or prefixed hex in any case", () => {
  const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  assert.equal(sha256(""), `sha256:${empty}`);
  assert.equal(sha256(new Uint8Array()), `sha256:${empty}`);
  assert.equal(normalizeChecksum(empty.toUpperCase()), `sha256:${empty}`);
  assert.equal(normalizeChecksum(`sha256:${empty}`), `sha256:${empty}`);
  assert.equal(normalizeChecksum("md5:abc"), undefined);
});

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

Deno.test("edit plans parse with legacy names and report violations by JSON path", () => {
  const parsed = parseEditPlan({
    edits: [{
      file: "a.txt",
      byte_start: 0,
      byte_end: 1,
      new_content: "b",
      expected_checksum: "A".repeat(64),
    }],
  });
  assert.ok(parsed.success);
  assert.equal(parsed.data.edits[0].file_path, "a.txt");
  assert.equal(parsed.data.edits[0].new_text, "b");
  const bad = parseEditPlan({ edits: [{ file_path: "a", byte_start: -1, byte_end: 2 }] });
  assert.ok(!bad.success);
  const paths = bad.error.issues.map((issue) => issue.path.join("."));
  assert.ok(paths.includes("edits.0.byte_start"));
  assert.ok(paths.includes("edits.0.new_text"));
  assert.ok(!EditPlanSchema.safeParse({ edits: [] }).success);
});
