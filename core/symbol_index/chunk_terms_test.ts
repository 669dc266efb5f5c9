import assert from "node:assert/strict";
import { addTerms, chunkTerms, MAX_CHUNK_TERMS, pathTerms, STOP_TERMS } from "./chunk_terms.ts";

Deno.test("chunkTerms: identifiers split at _, digits and case changes, with the whole when compound", () => {
  const cases: Record<string, string[]> = {
    HTTPServerError: ["http", "server", "error", "httpservererror"],
    parse_args: ["parse", "args", "parseargs"],
    getHTTPResponseCode: ["get", "http", "response", "code", "gethttpresponsecode"],
    XMLHttpRequest: ["xml", "http", "request", "xmlhttprequest"],
    camelCase: ["camel", "case", "camelcase"],
    SCREAMING_CASE: ["screaming", "case", "screamingcase"],
    Point2D: ["point", "point2d"],
    atan2: ["atan", "atan2"],
    utf8_decode: ["utf", "decode", "utf8decode"],
    __init__: ["init"],
    _private: ["private"],
    Matrix: ["matrix"],
    lowercase: ["lowercase"],
    ABc: ["bc", "abc"],
  };
  for (const [identifier, terms] of Object.entries(cases)) {
    assert.deepEqual(chunkTerms(identifier), terms, identifier);
  }
});

Deno.test("chunkTerms: numbers, one-letter words and stop words give nothing", () => {
  assert.deepEqual(chunkTerms("0x1F 1e-9 3.14 2j 100_000 42"), []);
  assert.deepEqual(chunkTerms("x = y + i"), []);
  assert.deepEqual(chunkTerms("def f(self): return None"), []);
  assert.deepEqual(chunkTerms("the value of it"), ["value"]);
  // A stop word is still part of a compound's whole.
  assert.deepEqual(chunkTerms("is_not self_test"), ["isnot", "test", "selftest"]);
  // Keywords that name things are kept.
  assert.deepEqual(chunkTerms("Function Lambda new_case"), [
    "function",
    "lambda",
    "new",
    "case",
    "newcase",
  ]);
  for (const word of STOP_TERMS) assert.deepEqual(chunkTerms(word), [], word);
});

Deno.test("chunkTerms: strings and comments are words like identifiers; punctuation separates", () => {
  assert.deepEqual(
    chunkTerms('raise ValueError("Index out of range: a[%s]")  # see issue-1234, don\'t'),
    ["value", "error", "valueerror", "index", "out", "range", "see", "issue", "don"],
  );
  assert.deepEqual(chunkTerms("os.path.join(a,b)"), ["os", "path", "join"]);
  assert.deepEqual(chunkTerms("a::b::CamelCase->field"), ["camel", "case", "camelcase", "field"]);
});

Deno.test("chunkTerms: Unicode letters are identifier letters, split by case; other scripts stay one word", () => {
  assert.deepEqual(chunkTerms("naïveBayes"), ["naïve", "bayes", "naïvebayes"]);
  assert.deepEqual(chunkTerms("Éclair_École"), ["éclair", "école", "éclairécole"]);
  assert.deepEqual(chunkTerms("# 日本語テキスト"), ["日本語テキスト"]);
  assert.deepEqual(chunkTerms("ΣUM σ"), ["σum"]);
  // A letter outside the Basic Multilingual Plane is one letter (two code units).
  assert.deepEqual(chunkTerms("𝑥𝑦 abc"), ["𝑥𝑦", "abc"]);
  // An unpaired surrogate is no letter.
  assert.deepEqual(chunkTerms("ab\ud800cd"), ["ab", "cd"]);
});

Deno.test("chunkTerms: the cap keeps the first terms", () => {
  const text = Array.from({ length: 3000 }, (_, i) => `word${i}x`).join(" ");
  const terms = chunkTerms(text);
  assert.equal(terms.length, MAX_CHUNK_TERMS);
  assert.equal(terms[0], "word");
  assert.deepEqual(chunkTerms("alpha_beta gamma", 2), ["alpha", "beta"]);
  assert.equal(chunkTerms(text, Infinity).length, 6000);
});

Deno.test("addTerms: ranges of a text under one cap, answering whether there is room left", () => {
  const terms: string[] = [];
  const text = "first second third fourth";
  assert.equal(addTerms(terms, text, 0, 12, 3), true);
  assert.deepEqual(terms, ["first", "second"]);
  // A range that cuts a word reads the part inside it.
  assert.equal(addTerms(terms, text, 13, 16, 3), false);
  assert.deepEqual(terms, ["first", "second", "thi"]);
  assert.equal(addTerms(terms, text, 19, 25, 3), false);
  assert.deepEqual(terms, ["first", "second", "thi"]);
});

Deno.test("pathTerms: folders and the base name without its extension", () => {
  assert.deepEqual(pathTerms("sympy/core/test_basic.py"), [
    "sympy",
    "core",
    "test",
    "basic",
    "testbasic",
  ]);
  assert.deepEqual(pathTerms("src/HttpClient.test.ts"), [
    "src",
    "http",
    "client",
    "httpclient",
    "test",
  ]);
  assert.deepEqual(pathTerms(".github/workflows/ci.yml"), ["github", "workflows", "ci"]);
  assert.deepEqual(pathTerms("Makefile"), ["makefile"]);
  assert.deepEqual(pathTerms(".bashrc"), ["bashrc"]);
});

Deno.test("chunkTerms: every term is what FTS5's unicode61 tokenizer keeps as one token", () => {
  const text = Deno.readTextFileSync(new URL("./chunk_terms.ts", import.meta.url));
  for (const term of chunkTerms(text, Infinity)) {
    assert.match(term, /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+$/u, term);
    assert.equal(term, term.toLowerCase());
  }
});
