import assert from "node:assert/strict";
import { checkJson } from "./json.ts";

Deno.test("a valid JSON text has no finding; a BOM is allowed", () => {
  assert.deepEqual(checkJson('{"a": [1, 2.5e3, "é", null, true]}\n'), []);
  assert.deepEqual(checkJson('\uFEFF{"a": 1}'), []);
});

Deno.test("the error position where V8 gives none: line and UTF-16 column", () => {
  const cases: [string, number, number][] = [
    ['{"a": 1,\n "b": }', 2, 6],
    ["[1,2,]", 1, 5],
    ['{"é": x}', 1, 6],
    ['{"a": tru }', 1, 9],
    ["", 1, 0],
  ];
  for (const [text, line, column] of cases) {
    const [finding] = checkJson(text);
    assert.deepEqual([finding.line, finding.column], [line, column], JSON.stringify(text));
    assert.equal(finding.nativeCode, "SyntaxError");
  }
});

Deno.test("the search agrees with V8 wherever V8 names the position", () => {
  const texts = [
    '{"a": 1',
    "[1 2]",
    '{"a" 1}',
    '{"a":\n  "x\ny"}',
    "1.",
    "[-]",
    '"\\u12x"',
    '\uFEFF{"a": [1, 2 3]}',
  ];
  for (const text of texts) {
    const [finding] = checkJson(text);
    const body = text.replace(/^\uFEFF/, "");
    let position = -1;
    try {
      JSON.parse(body);
    } catch (error) {
      position = Number(/at position (\d+)/.exec((error as Error).message)?.[1]);
    }
    const index = position + text.length - body.length;
    const before = text.slice(0, index);
    const line = before.split("\n").length;
    const column = index - (before.lastIndexOf("\n") + 1);
    assert.deepEqual([finding.line, finding.column], [line, column], JSON.stringify(text));
  }
});
