import assert from "node:assert/strict";
import { newId, spanId, symbolId } from "./ids.ts";

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
