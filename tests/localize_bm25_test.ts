/**
 * The baselines of the localization bench (`bench/localize_bm25.ts`): the tokenizer, BM25
 * against a hand computation, the packing into a budget and the files by best block.
 */
import assert from "node:assert/strict";
import {
  BM25_DEFAULTS,
  bm25Rank,
  filesByBestBlock,
  packBlocks,
  termBag,
  textTokens,
  tokenize,
} from "../bench/localize_bm25.ts";

Deno.test("tokenize splits identifiers at non-alphanumerics and case changes", () => {
  assert.deepEqual(tokenize("parseHTTPResponse"), ["parse", "http", "response"]);
  assert.deepEqual(tokenize("get_json_body"), ["get", "json", "body"]);
  assert.deepEqual(tokenize("XMLParser.feedData2"), ["xml", "parser", "feed", "data"]);
  assert.deepEqual(tokenize("utf8 404 v2"), ["utf", "404"]); // one-character tokens go
  assert.deepEqual(tokenize("requests.Session().mount()"), ["requests", "session", "mount"]);
  assert.deepEqual(tokenize("ÉCOLE café"), ["cole", "caf"]); // ASCII words only
  assert.deepEqual(tokenize(""), []);
});

Deno.test("tokenize lower-cases and drops stop words", () => {
  assert.deepEqual(
    tokenize("The Session is not closed when it raises, so return self"),
    ["session", "closed", "raises"],
  );
});

Deno.test("bm25Rank agrees with a hand computation", () => {
  const docs = [
    termBag(["url", "parse", "url"]), // 3 tokens
    termBag(["file", "read"]), // 2 tokens
    termBag(["url", "file", "read", "write"]), // 4 tokens
  ];
  const ranked = bm25Rank(docs, ["url", "parse", "url"]);
  const { k1, b } = BM25_DEFAULTS;
  const avgdl = 3;
  const idf = (df: number) => Math.log(1 + (3 - df + 0.5) / (df + 0.5));
  const part = (tf: number, length: number) =>
    tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl));
  const doc0 = idf(2) * part(2, 3) + idf(1) * part(1, 3); // a repeated query term counts once
  const doc2 = idf(2) * part(1, 4);
  assert.deepEqual(ranked.map((r) => r.index), [0, 2]);
  assert.ok(Math.abs(ranked[0].score - doc0) < 1e-12);
  assert.ok(Math.abs(ranked[1].score - doc2) < 1e-12);
});

Deno.test("bm25Rank prefers the shorter of two documents with the same counts", () => {
  const short = termBag(["cache", "key"]);
  const long = termBag(["cache", "key", "a1", "a2", "a3", "a4", "a5", "a6"]);
  assert.deepEqual(bm25Rank([long, short], ["cache"]).map((r) => r.index), [1, 0]);
  // With b = 0, length does not count: a tie, kept in collection order.
  const flat = bm25Rank([long, short], ["cache"], { k1: 1.2, b: 0 });
  assert.deepEqual(flat.map((r) => r.index), [0, 1]);
  assert.equal(flat[0].score, flat[1].score);
});

Deno.test("bm25Rank leaves out documents with no query term, and answers nothing to nothing", () => {
  const docs = [termBag(["a1"]), termBag(["b1"])];
  assert.deepEqual(bm25Rank(docs, ["b1"]).map((r) => r.index), [1]);
  assert.deepEqual(bm25Rank(docs, []), []);
  assert.deepEqual(bm25Rank([], ["a1"]), []);
  assert.deepEqual(bm25Rank([termBag([])], ["a1"]), []);
});

Deno.test("textTokens is ceil(chars / 4)", () => {
  assert.equal(textTokens("abcd"), 1);
  assert.equal(textTokens("abcde"), 2);
  assert.equal(textTokens("x".repeat(8000)), 2000);
});

Deno.test("packBlocks keeps rank order, skips what no longer fits and tries the rest", () => {
  const blocks = [10, 95, 30, 60, 5].map((tokens, i) => ({ id: i, tokens }));
  assert.deepEqual(packBlocks(blocks, 100).map((b) => b.id), [0, 2, 3]);
  assert.deepEqual(packBlocks(blocks, 105).map((b) => b.id), [0, 1]);
  assert.deepEqual(packBlocks(blocks, 0), []);
  assert.deepEqual(packBlocks([{ tokens: 0 }], 0).length, 1);
});

Deno.test("filesByBestBlock ranks each file at its best block", () => {
  const blocks = ["b.py", "a.py", "b.py", "c.py", "a.py"].map((file_path) => ({ file_path }));
  assert.deepEqual(filesByBestBlock(blocks), ["b.py", "a.py", "c.py"]);
});
