/** Query compilation and the definition-query cache shared by the tree-sitter tools. */
import assert from "node:assert/strict";
import { loadLanguage } from "./loader.ts";
import { compileQuery, definitionQuery, QueryCompileError } from "./query.ts";

Deno.test("compileQuery: a valid query compiles, with its captures", async () => {
  const query = compileQuery("c", await loadLanguage("c"), "(function_definition) @fn");
  try {
    assert.deepEqual(query.captureNames, ["fn"]);
  } finally {
    query.delete();
  }
});

Deno.test("compileQuery: a wrong node name says where and what is close", async () => {
  const c = await loadLanguage("c");
  let error: unknown;
  try {
    compileQuery("c", c, "(function_definitio) @fn");
  } catch (thrown) {
    error = thrown;
  }
  assert.ok(error instanceof QueryCompileError);
  assert.equal(error.problem.language, "c");
  assert.equal(error.problem.offset, 1);
  assert.match(error.problem.expected, /function_definition/);
});

Deno.test("definitionQuery: compiled once per language, none for a language without one", async () => {
  const c = await loadLanguage("c");
  const first = definitionQuery("c", c);
  assert.ok(first);
  assert.equal(definitionQuery("c", c), first);
  assert.equal(definitionQuery("css", await loadLanguage("css")), undefined);
});
