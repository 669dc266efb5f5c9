/**
 * A path prepared for fzf-style matching: its code points, the character class and bonus of
 * each position (fzf's "path" scheme), and case-folded or diacritic-normalised copies made on
 * demand. One instance is reused for every path of a run so the hot loop allocates nothing.
 *
 * @module
 */

/** Character classes of fzf, in its order (the order matters: `<= DELIMITER` means "not a word"). */
export const CLASS_WHITE = 0;
/** A character that is neither a letter, a digit, white space nor a delimiter. */
export const CLASS_NON_WORD = 1;
/** A path separator (`/`): in the path scheme the only delimiter. */
export const CLASS_DELIMITER = 2;
/** A lowercase letter. */
export const CLASS_LOWER = 3;
/** An uppercase letter. */
export const CLASS_UPPER = 4;
/** A letter without case (e.g. CJK). */
export const CLASS_LETTER = 5;
/** A digit or other number character. */
export const CLASS_NUMBER = 6;

/** Points for one matched character. */
export const SCORE_MATCH = 16;
/** Penalty for the first character of a gap. */
export const SCORE_GAP_START = -3;
/** Penalty for each further character of a gap. */
export const SCORE_GAP_EXTENSION = -1;
/** Bonus for a match at the start of a word. */
export const BONUS_BOUNDARY = SCORE_MATCH / 2;
/** Bonus for matching a non-word character. */
export const BONUS_NON_WORD = SCORE_MATCH / 2;
/** Bonus at a camelCase or letter-to-digit transition. */
export const BONUS_CAMEL_123 = BONUS_BOUNDARY + SCORE_GAP_EXTENSION;
/** Minimum bonus of every character inside a consecutive run. */
export const BONUS_CONSECUTIVE = -(SCORE_GAP_START + SCORE_GAP_EXTENSION);
/** The first pattern character's bonus counts this many times. */
export const BONUS_FIRST_CHAR_MULTIPLIER = 2;
/** Path scheme: a word start after white space is worth no more than any boundary. */
export const BONUS_BOUNDARY_WHITE = BONUS_BOUNDARY;
/** Path scheme: a word start right after `/` (and the start of the path) is worth most. */
export const BONUS_BOUNDARY_DELIMITER = BONUS_BOUNDARY + 1;

function bonusFor(previous: number, current: number): number {
  if (current > CLASS_NON_WORD) {
    if (previous === CLASS_WHITE) return BONUS_BOUNDARY_WHITE;
    if (previous === CLASS_DELIMITER) return BONUS_BOUNDARY_DELIMITER;
    if (previous === CLASS_NON_WORD) return BONUS_BOUNDARY;
  }
  if (
    (previous === CLASS_LOWER && current === CLASS_UPPER) ||
    (previous !== CLASS_NUMBER && current === CLASS_NUMBER)
  ) return BONUS_CAMEL_123;
  if (current === CLASS_NON_WORD || current === CLASS_DELIMITER) return BONUS_NON_WORD;
  if (current === CLASS_WHITE) return BONUS_BOUNDARY_WHITE;
  return 0;
}

/** `BONUS_MATRIX[previous * 7 + current]`: the bonus of a position from the two classes. */
const BONUS_MATRIX = new Int8Array(49);
for (let previous = 0; previous < 7; previous++) {
  for (let current = 0; current < 7; current++) {
    BONUS_MATRIX[previous * 7 + current] = bonusFor(previous, current);
  }
}

const ASCII_CLASS = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  ASCII_CLASS[code] = code >= 97 && code <= 122
    ? CLASS_LOWER
    : code >= 65 && code <= 90
    ? CLASS_UPPER
    : code >= 48 && code <= 57
    ? CLASS_NUMBER
    : code === 32 || (code >= 9 && code <= 13)
    ? CLASS_WHITE
    : code === 47
    ? CLASS_DELIMITER
    : CLASS_NON_WORD;
}

const nonAsciiClasses = new Map<number, number>();
const lowerCache = new Map<number, number>();
const normalCache = new Map<number, number>();

/**
 * fzf's class of a code point: Unicode categories decide for non-ASCII characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLASS_UPPER, classOf } from "./text.ts";
 * assert.equal(classOf("É".codePointAt(0)!), CLASS_UPPER);
 * ```
 */
export function classOf(code: number): number {
  if (code < 128) return ASCII_CLASS[code];
  let found = nonAsciiClasses.get(code);
  if (found === undefined) {
    const char = String.fromCodePoint(code);
    found = /\p{Ll}/u.test(char)
      ? CLASS_LOWER
      : /\p{Lu}/u.test(char)
      ? CLASS_UPPER
      : /\p{N}/u.test(char)
      ? CLASS_NUMBER
      : /\p{L}/u.test(char)
      ? CLASS_LETTER
      : /\s/u.test(char)
      ? CLASS_WHITE
      : CLASS_NON_WORD;
    nonAsciiClasses.set(code, found);
  }
  return found;
}

/**
 * Simple lowercase mapping of one code point (a mapping to several code points keeps it as is).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lowerOf } from "./text.ts";
 * assert.equal(String.fromCodePoint(lowerOf("Ä".codePointAt(0)!)), "ä");
 * ```
 */
export function lowerOf(code: number): number {
  if (code < 128) return code >= 65 && code <= 90 ? code + 32 : code;
  let found = lowerCache.get(code);
  if (found === undefined) {
    const lower = String.fromCodePoint(code).toLowerCase();
    const first = lower.codePointAt(0)!;
    found = lower.length === String.fromCodePoint(first).length ? first : code;
    lowerCache.set(code, found);
  }
  return found;
}

/**
 * fzf's normalisation of Latin letters with diacritics to their base letter (`é` → `e`),
 * here via Unicode canonical decomposition, kept only when the base is ASCII.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeOf } from "./text.ts";
 * assert.equal(String.fromCodePoint(normalizeOf("é".codePointAt(0)!)), "e");
 * ```
 */
export function normalizeOf(code: number): number {
  if (code < 0xc0) return code;
  let found = normalCache.get(code);
  if (found === undefined) {
    const decomposed = String.fromCodePoint(code).normalize("NFD");
    const base = decomposed.codePointAt(0)!;
    found = base < 128 && decomposed.length > 1 && /^.\p{M}+$/u.test(decomposed) ? base : code;
    normalCache.set(code, found);
  }
  return found;
}

/**
 * Folds a code point the way a term asks: lowercase when the term ignores case, diacritics
 * stripped when it normalises. Lowercasing follows fzf: only uppercase letters change.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fold } from "./text.ts";
 * assert.equal(fold("É".codePointAt(0)!, false, true), "e".codePointAt(0));
 * ```
 */
export function fold(code: number, caseSensitive: boolean, normalize: boolean): number {
  if (code < 128) return !caseSensitive && code >= 65 && code <= 90 ? code + 32 : code;
  let folded = code;
  if (!caseSensitive && classOf(code) === CLASS_UPPER) folded = lowerOf(folded);
  if (normalize) folded = normalizeOf(folded);
  return folded;
}

/**
 * Number of UTF-8 bytes of a code point (a lone surrogate counts 3, as its replacement does).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { utf8Length } from "./text.ts";
 * assert.equal(utf8Length("é".codePointAt(0)!), 2);
 * ```
 */
export function utf8Length(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/**
 * One path, ready for the matching algorithms. {@linkcode MatchText.load} refills it; the typed
 * arrays grow as needed and are reused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MatchText } from "./text.ts";
 * const text = new MatchText();
 * text.load("src/fooBar.ts");
 * assert.equal(text.basenameStart, 4);
 * assert.equal(text.bonus[4], 9); // a word start right after "/"
 * assert.equal(text.bonus[7], 7); // the camelCase "B"
 * ```
 */
export class MatchText {
  /** Code points of the path. */
  codes: Int32Array = new Int32Array(256);
  /** Code points lowercased (fzf's rule: uppercase letters only), filled by every load. */
  lower: Int32Array = new Int32Array(256);
  /** Character class of each position. */
  classes: Uint8Array = new Uint8Array(256);
  /** fzf's bonus of each position (path scheme: the start counts as after a `/`). */
  bonus: Int8Array = new Int8Array(256);
  /** Number of code points. */
  length = 0;
  /** Code point index where the basename starts (after the last `/`). */
  basenameStart = 0;
  /** End of the basename's stem (its last `.`), or `length` when it has no extension. */
  stemEnd = 0;
  /** Number of `/` in the path. */
  slashes = 0;
  /** Whether every code point is ASCII (then folding needs no normalisation). */
  ascii = true;
  /** The path itself. */
  path = "";
  /** Normalised variants of a non-ASCII path (without and with case), made on demand. */
  #normalized: (Int32Array | undefined)[] = [undefined, undefined];
  #normalizedBuffers: Int32Array[] = [new Int32Array(256), new Int32Array(256)];

  /** Prepares `path`. */
  load(path: string): void {
    this.path = path;
    let capacity = this.codes.length;
    if (path.length > capacity) {
      while (capacity < path.length) capacity *= 2;
      this.codes = new Int32Array(capacity);
      this.lower = new Int32Array(capacity);
      this.classes = new Uint8Array(capacity);
      this.bonus = new Int8Array(capacity);
      this.#normalizedBuffers = [new Int32Array(capacity), new Int32Array(capacity)];
    }
    const { codes, lower, classes, bonus } = this;
    let length = 0;
    let ascii = true;
    let previous = CLASS_DELIMITER;
    let basenameStart = 0;
    let lastDot = -1;
    let slashes = 0;
    for (let i = 0; i < path.length; i++) {
      let code = path.charCodeAt(i);
      let klass: number;
      if (code < 128) {
        klass = ASCII_CLASS[code];
        lower[length] = klass === CLASS_UPPER ? code + 32 : code;
        if (code === 47) {
          basenameStart = length + 1;
          slashes++;
        } else if (code === 46) lastDot = length;
      } else {
        ascii = false;
        if (code >= 0xd800 && code <= 0xdbff && i + 1 < path.length) {
          const low = path.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
            i++;
          }
        }
        klass = classOf(code);
        lower[length] = klass === CLASS_UPPER ? lowerOf(code) : code;
      }
      codes[length] = code;
      classes[length] = klass;
      bonus[length] = BONUS_MATRIX[previous * 7 + klass];
      previous = klass;
      length++;
    }
    this.length = length;
    this.ascii = ascii;
    this.basenameStart = basenameStart;
    this.stemEnd = lastDot > basenameStart ? lastDot : length;
    this.slashes = slashes;
    if (!ascii) this.#normalized[0] = this.#normalized[1] = undefined;
  }

  /** The code points folded for a term's case and normalisation rules (cached per load). */
  variant(caseSensitive: boolean, normalize: boolean): Int32Array {
    if (this.ascii || !normalize) return caseSensitive ? this.codes : this.lower;
    const slot = caseSensitive ? 1 : 0;
    let folded = this.#normalized[slot];
    if (folded === undefined) {
      folded = this.#normalizedBuffers[slot];
      const { codes, length } = this;
      for (let i = 0; i < length; i++) folded[i] = fold(codes[i], caseSensitive, true);
      this.#normalized[slot] = folded;
    }
    return folded;
  }

  /** UTF-8 byte offset of each listed code point index, in the same order. */
  byteOffsets(indices: readonly number[]): number[] {
    if (this.ascii) return [...indices];
    const starts: number[] = new Array(this.length);
    let offset = 0;
    for (let i = 0; i < this.length; i++) {
      starts[i] = offset;
      offset += utf8Length(this.codes[i]);
    }
    return indices.map((index) => starts[index]);
  }
}
