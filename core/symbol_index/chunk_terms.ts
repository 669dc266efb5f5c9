/**
 * The terms of a text for BM25: what the symbol index's full-text table of chunks (`chunks`, one
 * per definition and one per file's module-level code) holds, and what a task text is split into
 * to be matched against it. One pure function, {@linkcode chunkTerms}, does both sides, so a word
 * of a task and the same word in code give the same term.
 *
 * A term is a lower-cased run of letters (and digits after a letter):
 *
 * - every **identifier** (`[A-Za-z_][A-Za-z0-9_]*`, and Unicode letters, marks and digits alike)
 *   gives its parts, split at `_`, at digits and at case changes, lower-cased (`HTTPServerError`
 *   → `http server error`, `parse_args` → `parse args`); when it has more than one part (digits
 *   counted), also the whole identifier lower-cased without its underscores (`httpservererror`,
 *   `parseargs`, `atan2`), so that a name matches as a name too;
 * - the words of strings and comments are identifiers to this scan, and are split the same way;
 * - **numbers** (a run starting with a digit: `42`, `0x1F`, `1e-9`) and the digit parts of an
 *   identifier give nothing;
 * - terms of one character (`x`, `i`, the `t` of `don't`) give nothing: every chunk has them, so
 *   they would be the longest lists of the index and weigh nothing in a BM25 score;
 * - neither do the words of {@linkcode STOP_TERMS}.
 *
 * A text gives at most `max` terms ({@linkcode MAX_CHUNK_TERMS}, 2,000, by default): the first
 * ones. A generated function of 10,000 lines (a table of rules, a parser's states) would otherwise
 * be the longest document of the index and match every task a little; its first 2,000 terms say
 * what it is as well.
 *
 * @module
 */

/**
 * Words that are no terms. Two short lists, each of words that nearly every chunk of code holds,
 * so that they say nothing of what a chunk does (their BM25 weight is near 0) while their lists
 * of chunks are the longest of the index (space, and time for a task that names them):
 *
 * - **keywords** of Python, JavaScript/TypeScript and C, the languages most trees are written in
 *   (`self`, `def`, `return`, `const`, `struct`, …): code has them on every few lines;
 * - **English function words** (`the`, `to`, `of`, …): docstrings and comments are prose, and
 *   so is a task.
 *
 * Words of one character are left out anyway. Left in on purpose: type names and builtins (`int`,
 * `str`: a task about an `int` conversion names them), and the keywords that are also the names
 * of things or words that tell (`function`, `lambda`, `new`, `case`, `default`, `global`: sympy's
 * `Function` and `Lambda` are classes, "test case" and "default value" say something). A stop
 * word is no term on either side (a task's `And` is no term either), so the list stays short.
 */
export const STOP_TERMS: ReadonlySet<string> = new Set(
  (
    // Python
    "and as assert async await break class continue def del elif else except finally for from " +
    "if import in is none nonlocal not or pass raise return self cls true false try while " +
    "with yield " +
    // JavaScript / TypeScript
    "const let var this typeof instanceof null undefined void export extends do of " +
    // C (and the preprocessor)
    "struct static typedef extern sizeof include define ifdef ifndef endif " +
    // English
    "the an to be are was were it its that by on at which"
  ).split(" "),
);

/** Most terms a text gives by default (see the module doc). */
export const MAX_CHUNK_TERMS = 2_000;

/**
 * The terms of `text` (see the module doc), in the order of the text, repeated as often as they
 * occur (BM25 counts them), at most `max`.
 *
 * @example Identifiers, a comment and a number
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkTerms } from "./chunk_terms.ts";
 * assert.deepEqual(
 *   chunkTerms("def parse_args(self): # the HTTPServerError of 42 ports"),
 *   ["parse", "args", "parseargs", "http", "server", "error", "httpservererror", "ports"],
 * );
 * assert.deepEqual(chunkTerms("a b c d", 2), []); // one-letter words are no terms
 * assert.deepEqual(chunkTerms("alpha beta gamma", 2), ["alpha", "beta"]);
 * ```
 */
export function chunkTerms(text: string, max: number = MAX_CHUNK_TERMS): string[] {
  const terms: string[] = [];
  addTerms(terms, text, 0, text.length, max);
  return terms;
}

/**
 * Appends the terms of `text` from code unit `start` to `end` to `terms` while it holds fewer
 * than `max` (what {@linkcode chunkTerms} does for a whole text): the terms of a chunk made of
 * several ranges of a file, under one cap. Answers whether there is room left.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addTerms } from "./chunk_terms.ts";
 * const terms: string[] = [];
 * addTerms(terms, "class Point2D:", 0, 14, 10);
 * assert.deepEqual(terms, ["point", "point2d"]);
 * ```
 */
export function addTerms(
  terms: string[],
  text: string,
  start: number,
  end: number,
  max: number,
): boolean {
  let i = start;
  while (i < end) {
    if (terms.length >= max) return false;
    const code = text.charCodeAt(i);
    if (code < 128) {
      const kind = ASCII_KIND[code];
      if (kind === DIGIT) {
        // A number, with its letters (`0x1F`, `1e9`, `2j`): nothing.
        i++;
        while (i < end && ASCII_KIND[text.charCodeAt(i)] > OTHER) i++;
      } else if (kind !== OTHER) {
        i = identifier(terms, text, i, end, max);
      } else i++;
    } else if (letterAt(text, i, end) > 0) {
      i = identifier(terms, text, i, end, max);
    } else i += 1;
  }
  return terms.length < max;
}

/**
 * The terms of a root-relative path, `/`-separated: its folders' and its base name's (without
 * its extension), as {@linkcode chunkTerms} splits them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pathTerms } from "./chunk_terms.ts";
 * assert.deepEqual(pathTerms("sympy/core/test_basic.py"), ["sympy", "core", "test", "basic", "testbasic"]);
 * ```
 */
export function pathTerms(path: string): string[] {
  const slash = path.lastIndexOf("/");
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return chunkTerms(`${path.slice(0, slash + 1)}${stem}`, Infinity);
}

// Classes of ASCII characters.
const OTHER = 0;
const DIGIT = 1;
const UNDERSCORE = 2;
const UPPER = 3;
const LOWER = 4;

const ASCII_KIND = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII_KIND[c] = DIGIT;
for (let c = 65; c <= 90; c++) ASCII_KIND[c] = UPPER;
for (let c = 97; c <= 122; c++) ASCII_KIND[c] = LOWER;
ASCII_KIND[95] = UNDERSCORE;
/** The bit of a non-ASCII character among the classes an identifier holds. */
const UNICODE = 5;
/** The classes of snake_case: lower-case letters and `_`. */
const SNAKE = (1 << LOWER) | (1 << UNDERSCORE);

const UNICODE_WORD = /^[\p{L}\p{M}\p{N}]$/u;
const UNICODE_UPPER = /^\p{Lu}$/u;

/**
 * How many code units the letter, mark or digit at `i` takes (2 for one outside the Basic
 * Multilingual Plane), or 0 when there is none there. Non-ASCII only.
 */
function letterAt(text: string, i: number, end: number): number {
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < end) {
    return UNICODE_WORD.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  return UNICODE_WORD.test(text[i]) ? 1 : 0;
}

/** The class of the non-ASCII letter, mark or digit at `i`, as {@linkcode ASCII_KIND} says. */
function unicodeKind(text: string, i: number): number {
  const char = String.fromCodePoint(text.codePointAt(i)!);
  if (UNICODE_DIGIT.test(char)) return DIGIT;
  return UNICODE_UPPER.test(char) ? UPPER : LOWER;
}

const UNICODE_DIGIT = /^\p{N}$/u;

/** The classes of an identifier's code units (reused: one identifier at a time). */
let kinds = new Uint8Array(256);

/**
 * Adds the terms of the identifier starting at `start` (a letter or `_`); answers where it ends.
 */
function identifier(terms: string[], text: string, start: number, end: number, max: number) {
  let j = start;
  // The classes met, one bit each: most identifiers are lower-case words and snake_case.
  let seen = 0;
  while (j < end) {
    const code = text.charCodeAt(j);
    if (code < 128) {
      const kind = ASCII_KIND[code];
      if (kind === OTHER) break;
      seen |= 1 << kind;
      j++;
    } else {
      const width = letterAt(text, j, end);
      if (width === 0) break;
      seen |= 1 << UNICODE;
      j += width;
    }
  }
  if (seen === 1 << LOWER) {
    // One part, as written.
    if (j - start > 1) {
      const term = text.slice(start, j);
      if (!STOP_TERMS.has(term)) terms.push(term);
    }
    return j;
  }
  if ((seen & ~SNAKE) === 0) {
    // Lower-case words joined by `_`: its parts, and the whole without the `_` when several.
    let parts = 0;
    let whole = "";
    for (let i = start; i < j;) {
      if (text.charCodeAt(i) === 95) {
        i++;
        continue;
      }
      let k = i + 1;
      while (k < j && text.charCodeAt(k) !== 95) k++;
      const part = text.slice(i, k);
      if (part.length > 1 && !STOP_TERMS.has(part)) pushTerm(terms, part, max);
      whole += part;
      parts++;
      i = k;
    }
    if (parts > 1 && whole.length > 1 && !STOP_TERMS.has(whole)) pushTerm(terms, whole, max);
    return j;
  }
  if (j - start > kinds.length) kinds = new Uint8Array(2 * (j - start));
  for (let k = start; k < j; k++) {
    const code = text.charCodeAt(k);
    // The second half of a surrogate pair takes the class of the first.
    kinds[k - start] = code < 128
      ? ASCII_KIND[code]
      : code >= 0xdc00 && code <= 0xdfff
      ? kinds[k - start - 1]
      : unicodeKind(text, k);
  }
  // Parts: runs of one class; an upper-case run before a lower-case one gives it its last letter
  // (`HTTPServer`: `HTTP`, `Server`); a lower-case run after one upper-case letter is one part.
  let parts = 0;
  let i = start;
  while (i < j) {
    const first = kinds[i - start];
    if (first === UNDERSCORE) {
      i++;
      continue;
    }
    let k = i + 1;
    while (k < j && kinds[k - start] === first) k++;
    if (first === UPPER && k < j && kinds[k - start] === LOWER) {
      // The last upper-case letter (both halves of a surrogate pair) starts the next part.
      let last = k - 1;
      if (last > i && isLowSurrogate(text.charCodeAt(last))) last--;
      if (last > i) {
        parts++;
        push(terms, text.slice(i, last), max);
        i = last;
      }
      while (k < j && kinds[k - start] === LOWER) k++;
    }
    parts++;
    if (first !== DIGIT) push(terms, text.slice(i, k), max);
    i = k;
  }
  if (parts > 1 && terms.length < max) {
    const whole = text.slice(start, j);
    push(terms, whole.includes("_") ? whole.replaceAll("_", "") : whole, max);
  }
  return j;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Adds `term` while `terms` has room. */
function pushTerm(terms: string[], term: string, max: number): void {
  if (terms.length < max) terms.push(term);
}

/** Adds `word` lower-cased unless it is one character, a stop word, or there is no room. */
function push(terms: string[], word: string, max: number): void {
  if (word.length < 2 || terms.length >= max) return;
  const term = word.toLowerCase();
  if (!STOP_TERMS.has(term)) terms.push(term);
}
