/**
 * The baselines of the localization bench (`localize_bench.ts`): Okapi BM25 (k1 1.2, b 0.75)
 * over whole files and over functions, with one tokenizer for documents and queries, and the
 * packing of ranked blocks into a token budget.
 *
 * - **Tokenizer**: words are runs of ASCII letters and digits; each is split at case changes
 *   (`HTTPAdapter` → `http`, `adapter`; `getJSON2` → `get`, `json`, `2`), lower-cased; tokens
 *   of one character and the words of {@linkcode STOP_WORDS} are dropped.
 * - **Score**: for each distinct query term `t` in document `d`,
 *   `idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgdl))` with
 *   `idf(t) = ln(1 + (N − df + 0.5)/(df + 0.5))` (always positive); a term repeated in the query
 *   counts once. Ties keep document order.
 * - **Tokens of a block**: `ceil(chars / 4)` of its text (UTF-16 code units).
 * - **Packing**: blocks in rank order, each taken when it still fits in what is left of the
 *   budget (a block too large is skipped, the next ones still tried).
 *
 * Pure: no file system, no parser.
 *
 * @module
 */

/** BM25's parameters. */
export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation. */
  b: number;
}

/** The classic parameters: k1 1.2, b 0.75. */
export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

/** Words dropped by the tokenizer: English function words and Python's commonest keywords. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "but",
  "by",
  "def",
  "do",
  "for",
  "from",
  "has",
  "have",
  "if",
  "import",
  "in",
  "is",
  "it",
  "its",
  "not",
  "of",
  "on",
  "or",
  "return",
  "self",
  "so",
  "that",
  "the",
  "then",
  "this",
  "to",
  "was",
  "we",
  "when",
  "which",
  "with",
]);

const WORD = /[A-Za-z0-9]+/g;
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/**
 * The tokens of a text (documents and queries alike), in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokenize } from "./localize_bm25.ts";
 * assert.deepEqual(tokenize("self.HTTPAdapter.get_json(url2) is a x"), [
 *   "http", "adapter", "get", "json", "url",
 * ]);
 * ```
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.matchAll(WORD)) {
    for (const part of word[0].matchAll(PART)) {
      const token = part[0].toLowerCase();
      if (token.length > 1 && !STOP_WORDS.has(token)) tokens.push(token);
    }
  }
  return tokens;
}

/** A document as BM25 sees it: its term counts and its length in tokens. */
export interface TermBag {
  /** Occurrences of each term. */
  terms: Map<string, number>;
  /** How many tokens it has. */
  length: number;
}

/**
 * The term bag of some tokens.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { termBag } from "./localize_bm25.ts";
 * const bag = termBag(["get", "url", "get"]);
 * assert.equal(bag.terms.get("get"), 2);
 * assert.equal(bag.length, 3);
 * ```
 */
export function termBag(tokens: readonly string[]): TermBag {
  const terms = new Map<string, number>();
  for (const token of tokens) terms.set(token, (terms.get(token) ?? 0) + 1);
  return { terms, length: tokens.length };
}

/** A ranked document: its index in the collection and its score. */
export interface Ranked {
  /** Index of the document in the collection given. */
  index: number;
  /** Its BM25 score. */
  score: number;
}

/**
 * The documents of `docs` that share a term with `query`, best first (ties in collection
 * order), scored by BM25 against the collection itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bm25Rank, termBag, tokenize } from "./localize_bm25.ts";
 * const docs = ["def parse_url(url): pass", "def read_file(path): pass", "url url url"]
 *   .map((text) => termBag(tokenize(text)));
 * const ranked = bm25Rank(docs, tokenize("parse the url"));
 * assert.deepEqual(ranked.map((r) => r.index), [0, 2]);
 * ```
 */
export function bm25Rank(
  docs: readonly TermBag[],
  query: readonly string[],
  params: Bm25Params = BM25_DEFAULTS,
): Ranked[] {
  const terms = [...new Set(query)];
  const count = docs.length;
  if (count === 0 || terms.length === 0) return [];
  let total = 0;
  const df = new Map<string, number>(terms.map((term) => [term, 0]));
  for (const doc of docs) {
    total += doc.length;
    for (const term of terms) if (doc.terms.has(term)) df.set(term, df.get(term)! + 1);
  }
  const avgdl = total / count || 1;
  const idf = new Map<string, number>();
  for (const [term, n] of df) idf.set(term, Math.log(1 + (count - n + 0.5) / (n + 0.5)));
  const ranked: Ranked[] = [];
  docs.forEach((doc, index) => {
    let score = 0;
    const norm = params.k1 * (1 - params.b + params.b * doc.length / avgdl);
    for (const term of terms) {
      const tf = doc.terms.get(term);
      if (tf) score += idf.get(term)! * tf * (params.k1 + 1) / (tf + norm);
    }
    if (score > 0) ranked.push({ index, score });
  });
  return ranked.sort((a, b) => b.score - a.score || a.index - b.index);
}

/**
 * The tokens a block of text costs: `ceil(chars / 4)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textTokens } from "./localize_bm25.ts";
 * assert.equal(textTokens("abcde"), 2);
 * assert.equal(textTokens(""), 0);
 * ```
 */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The blocks of a ranked list that a budget holds: each in rank order, taken when its
 * `tokens` still fit in what is left (one too large is skipped; later ones are still tried).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packBlocks } from "./localize_bm25.ts";
 * const blocks = [{ id: "a", tokens: 60 }, { id: "b", tokens: 50 }, { id: "c", tokens: 40 }];
 * assert.deepEqual(packBlocks(blocks, 100).map((b) => b.id), ["a", "c"]);
 * ```
 */
export function packBlocks<T extends { tokens: number }>(
  ranked: readonly T[],
  budget: number,
): T[] {
  const packed: T[] = [];
  let left = budget;
  for (const block of ranked) {
    if (block.tokens <= left) {
      packed.push(block);
      left -= block.tokens;
    }
  }
  return packed;
}

/**
 * Files in the order of their best-ranked block (each file once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filesByBestBlock } from "./localize_bm25.ts";
 * const ranked = [{ file_path: "b.py" }, { file_path: "a.py" }, { file_path: "b.py" }];
 * assert.deepEqual(filesByBestBlock(ranked), ["b.py", "a.py"]);
 * ```
 */
export function filesByBestBlock(ranked: readonly { file_path: string }[]): string[] {
  return [...new Set(ranked.map((block) => block.file_path))];
}
