import assert from "node:assert/strict";
import { KEYWORDS, reservedNameReason } from "./reserved_words.ts";

Deno.test("every language that extracts symbols has a list, without repeats", () => {
  const languages = [
    "bash",
    "c",
    "cpp",
    "csharp",
    "go",
    "java",
    "javascript",
    "kotlin",
    "php",
    "python",
    "ruby",
    "rust",
    "tsx",
    "typescript",
  ];
  assert.deepEqual(Object.keys(KEYWORDS).sort(), languages);
  for (const [language, words] of Object.entries(KEYWORDS)) {
    assert.equal(new Set(words).size, words.length, language);
    for (const word of words) assert.match(word, /^[A-Za-z_][A-Za-z0-9_]*$/, language);
  }
  assert.equal(KEYWORDS.go.length, 25);
  assert.deepEqual(KEYWORDS.tsx, KEYWORDS.typescript);
});

Deno.test("the reasons: keywords, forbidden names, type names, implementation names", () => {
  assert.equal(reservedNameReason("c", "int", "function"), "a keyword of C");
  for (const word of ["return", "while", "struct", "sizeof", "_Bool"]) {
    assert.ok(reservedNameReason("c", word, "function"), word);
  }
  assert.equal(reservedNameReason("cpp", "and", "function"), "a keyword of C++");
  assert.match(reservedNameReason("cpp", "my__name", "function")!, /reserves/);
  assert.equal(
    reservedNameReason("go", "init", "function"),
    "a name Go forbids a function to take",
  );
  assert.equal(reservedNameReason("go", "init", "method"), undefined);
  assert.equal(
    reservedNameReason("typescript", "string", "class"),
    "a name no class of TypeScript may take",
  );
  assert.equal(reservedNameReason("typescript", "string", "function"), undefined);
  assert.equal(reservedNameReason("java", "var", "class"), "a name no class of Java may take");
  assert.equal(reservedNameReason("java", "var", "method"), undefined);
});

Deno.test("soft and contextual keywords, and keyword-named methods, stay allowed", () => {
  for (const soft of ["match", "case", "type", "_"]) {
    assert.equal(reservedNameReason("python", soft, "function"), undefined, soft);
  }
  for (const contextual of ["type", "async", "of", "declare", "get"]) {
    assert.equal(reservedNameReason("typescript", contextual, "function"), undefined);
  }
  assert.equal(reservedNameReason("javascript", "delete", "method"), undefined);
  assert.equal(reservedNameReason("javascript", "delete", "function"), "a keyword of JavaScript");
  assert.equal(reservedNameReason("php", "list", "method"), undefined);
  assert.equal(reservedNameReason("php", "list", "function"), "a keyword of PHP");
  assert.equal(reservedNameReason("rust", "union", "function"), undefined);
  assert.equal(reservedNameReason("lua", "end", "function"), undefined, "no rules, no refusal");
});
