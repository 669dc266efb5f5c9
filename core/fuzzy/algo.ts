/**
 * fzf's matching algorithms, re-implemented over code point arrays: FuzzyMatchV2 (a
 * Smith-Waterman variant that finds the best-scoring alignment, with fzf's bonuses for word
 * boundaries, path separators, camelCase and digit transitions, consecutive runs and the first
 * character), exact, exact-boundary, prefix, suffix and equal matching.
 *
 * Every function takes the prepared text (its per-position bonuses and classes), the text's code
 * points folded for the term `T` (see `MatchText.variant`) and the folded pattern `P`; it
 * returns the score, or -1 when the pattern does not match. The start and end of the match are
 * left in the {@linkcode Slab}; matched positions are appended to `positions` when it is given.
 *
 * Differences from fzf, all deliberate and deterministic: a one-character fuzzy pattern and an
 * exact term take the best-scoring occurrence (fzf stops at the first word boundary), and the
 * bonus of the very first position is the same in every algorithm (fzf's exact matcher gives it
 * one point less).
 *
 * @module
 */
import {
  BONUS_BOUNDARY,
  BONUS_BOUNDARY_WHITE,
  BONUS_CONSECUTIVE,
  BONUS_FIRST_CHAR_MULTIPLIER,
  CLASS_DELIMITER,
  CLASS_WHITE,
  SCORE_GAP_EXTENSION,
  SCORE_GAP_START,
  SCORE_MATCH,
} from "./text.ts";

/** What the algorithms read of a prepared text (a `MatchText`). */
export interface Haystack {
  /** fzf's bonus of each position. */
  bonus: Int8Array;
  /** Character class of each position. */
  classes: Uint8Array;
  /** Number of code points. */
  length: number;
}

/**
 * Scratch memory of the algorithms, reused across calls; also carries the last match range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MatchText } from "./text.ts";
 * import { exactMatch, Slab } from "./algo.ts";
 * const text = new MatchText();
 * text.load("lib/core.ts");
 * const slab = new Slab();
 * exactMatch(text, text.lower, 0, Int32Array.from("core", (c) => c.charCodeAt(0)), false, slab);
 * assert.deepEqual([slab.start, slab.end], [4, 8]);
 * ```
 */
export class Slab {
  /** Score matrix of FuzzyMatchV2. */
  h: Int32Array = new Int32Array(4096);
  /** Consecutive-run lengths of FuzzyMatchV2. */
  c: Int32Array = new Int32Array(4096);
  /** First occurrence of each pattern character. */
  f: Int32Array = new Int32Array(64);
  /** Start (code point index) of the last match. */
  start = 0;
  /** End (exclusive) of the last match. */
  end = 0;

  /** Makes room for a `cells`-cell matrix and an `m`-character pattern. */
  ensure(cells: number, m: number): void {
    if (this.h.length < cells) {
      let size = this.h.length;
      while (size < cells) size *= 2;
      this.h = new Int32Array(size);
      this.c = new Int32Array(size);
    }
    if (this.f.length < m) this.f = new Int32Array(Math.max(m, this.f.length * 2));
  }
}

/**
 * fzf's `calculateScore`: the score of matching `P` at the given positions of `[sidx, eidx)`,
 * walking the range once (used by the exact, prefix and suffix matchers).
 */
function calculateScore(
  T: Int32Array,
  B: Int8Array,
  sidx: number,
  eidx: number,
  P: Int32Array,
): number {
  let pidx = 0;
  let score = 0;
  let inGap = false;
  let consecutive = 0;
  let firstBonus = 0;
  for (let idx = sidx; idx < eidx; idx++) {
    if (T[idx] === P[pidx]) {
      score += SCORE_MATCH;
      let bonus = B[idx];
      if (consecutive === 0) firstBonus = bonus;
      else {
        if (bonus >= BONUS_BOUNDARY && bonus > firstBonus) firstBonus = bonus;
        bonus = Math.max(bonus, firstBonus, BONUS_CONSECUTIVE);
      }
      score += pidx === 0 ? bonus * BONUS_FIRST_CHAR_MULTIPLIER : bonus;
      inGap = false;
      consecutive++;
      pidx++;
    } else {
      score += inGap ? SCORE_GAP_EXTENSION : SCORE_GAP_START;
      inGap = true;
      consecutive = 0;
      firstBonus = 0;
    }
  }
  return score;
}

/**
 * fzf's FuzzyMatchV2 on `T[from, length)`: the highest-scoring way to find `P` as a subsequence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MatchText } from "./text.ts";
 * import { fuzzyMatch, Slab } from "./algo.ts";
 * const text = new MatchText();
 * text.load("src/fooBar.ts");
 * const positions: number[] = [];
 * fuzzyMatch(text, text.variant(false, false), 0, Int32Array.from([102, 98]), new Slab(), positions);
 * assert.deepEqual(positions, [4, 7]); // "f" at the word start, "b" at the camelCase hump
 * ```
 */
export function fuzzyMatch(
  text: Haystack,
  T: Int32Array,
  from: number,
  P: Int32Array,
  slab: Slab,
  positions?: number[],
): number {
  const B = text.bonus;
  const to = text.length;
  const m = P.length;
  if (m === 0) {
    slab.start = slab.end = from;
    return 0;
  }
  if (to - from < m) return -1;
  slab.ensure(0, m);
  const F = slab.f;
  // Phase 1: the first occurrence of each pattern character, greedily; no match, no work.
  let pidx = 0;
  let pchar = P[0];
  for (let i = from; i < to; i++) {
    if (T[i] === pchar) {
      F[pidx++] = i;
      if (pidx === m) break;
      pchar = P[pidx];
    }
  }
  if (pidx < m) return -1;
  const last = P[m - 1];
  let lastIdx = F[m - 1];
  for (let i = to - 1; i > lastIdx; i--) {
    if (T[i] === last) {
      lastIdx = i;
      break;
    }
  }
  const f0 = F[0];
  if (m === 1) {
    let best = -1;
    let bestPos = f0;
    const first = P[0];
    for (let i = f0; i <= lastIdx; i++) {
      if (T[i] !== first) continue;
      const score = SCORE_MATCH + B[i] * BONUS_FIRST_CHAR_MULTIPLIER;
      if (score > best) {
        best = score;
        bestPos = i;
      }
    }
    slab.start = bestPos;
    slab.end = bestPos + 1;
    positions?.push(bestPos);
    return best;
  }
  // Phase 2: the score matrix H and the consecutive-run matrix C, one row per pattern
  // character, over the columns f0..lastIdx.
  const width = lastIdx - f0 + 1;
  slab.ensure(width * m, m);
  const H = slab.h;
  const C = slab.c;
  H.fill(0, 0, width * m);
  C.fill(0, 0, width * m);
  {
    let previous = 0;
    let inGap = false;
    const first = P[0];
    for (let col = f0; col <= lastIdx; col++) {
      const cell = col - f0;
      if (T[col] === first) {
        H[cell] = SCORE_MATCH + B[col] * BONUS_FIRST_CHAR_MULTIPLIER;
        C[cell] = 1;
        inGap = false;
      } else {
        H[cell] = Math.max(previous + (inGap ? SCORE_GAP_EXTENSION : SCORE_GAP_START), 0);
        inGap = true;
      }
      previous = H[cell];
    }
  }
  let maxScore = 0;
  let maxPos = 0;
  for (let row = 1; row < m; row++) {
    const char = P[row];
    const base = row * width;
    const up = base - width;
    let inGap = false;
    let left: number = 0;
    for (let col = F[row]; col <= lastIdx; col++) {
      const cell = col - f0;
      const s2: number = left + (inGap ? SCORE_GAP_EXTENSION : SCORE_GAP_START);
      let s1 = 0;
      let consecutive = 0;
      if (T[col] === char) {
        s1 = H[up + cell - 1] + SCORE_MATCH;
        let bonus = B[col];
        consecutive = C[up + cell - 1] + 1;
        if (consecutive > 1) {
          const firstBonus = B[col - consecutive + 1];
          // A word start inside a run is worth more than continuing the run: break it.
          if (bonus >= BONUS_BOUNDARY && bonus > firstBonus) consecutive = 1;
          else bonus = Math.max(bonus, BONUS_CONSECUTIVE, firstBonus);
        }
        if (s1 + bonus < s2) {
          s1 += B[col];
          consecutive = 0;
        } else s1 += bonus;
      }
      C[base + cell] = consecutive;
      inGap = s1 < s2;
      const score = Math.max(s1, s2, 0);
      if (row === m - 1 && score > maxScore) {
        maxScore = score;
        maxPos = col;
      }
      H[base + cell] = score;
      left = score;
    }
  }
  slab.end = maxPos + 1;
  slab.start = f0;
  if (positions === undefined) return maxScore;
  // Phase 3: backtrace from the best cell of the last row to the matched positions.
  const found: number[] = [];
  let i = m - 1;
  let j = maxPos;
  let preferMatch = true;
  const cells = width * m;
  while (j >= f0) {
    const rowBase = i * width;
    const j0 = j - f0;
    const s = H[rowBase + j0];
    const s1 = i > 0 && j >= F[i] ? H[rowBase - width + j0 - 1] : 0;
    const s2 = j > F[i] ? H[rowBase + j0 - 1] : 0;
    if (s > s1 && (s > s2 || (s === s2 && preferMatch))) {
      found.push(j);
      if (i === 0) break;
      i--;
    }
    const below = rowBase + width + j0 + 1;
    preferMatch = C[rowBase + j0] > 1 || (below < cells && C[below] > 0);
    j--;
  }
  slab.start = found[found.length - 1];
  for (let k = found.length - 1; k >= 0; k--) positions.push(found[k]);
  return maxScore;
}

function equalAt(T: Int32Array, at: number, P: Int32Array, m: number): boolean {
  for (let k = 0; k < m; k++) if (T[at + k] !== P[k]) return false;
  return true;
}

function pushRange(positions: number[] | undefined, start: number, end: number): void {
  if (positions) { for (let k = start; k < end; k++) positions.push(k); }
}

/** Records a contiguous match `[start, end)`: the slab's bounds and, when asked, its positions. */
function markRange(slab: Slab, positions: number[] | undefined, start: number, end: number): void {
  slab.start = start;
  slab.end = end;
  pushRange(positions, start, end);
}

/**
 * fzf's exact matcher (`'term`), or with `boundary` its word-boundary variant (`'term'`): the
 * occurrence of `P` in `T[from, length)` whose first character has the highest bonus.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MatchText } from "./text.ts";
 * import { exactMatch, Slab } from "./algo.ts";
 * const text = new MatchText();
 * text.load("src/scorer/core.ts");
 * const core = Int32Array.from("core", (c) => c.charCodeAt(0));
 * const positions: number[] = [];
 * exactMatch(text, text.lower, 0, core, true, new Slab(), positions);
 * assert.deepEqual(positions, [11, 12, 13, 14]); // "score" is not a word match, "/core." is
 * ```
 */
export function exactMatch(
  text: Haystack,
  T: Int32Array,
  from: number,
  P: Int32Array,
  boundary: boolean,
  slab: Slab,
  positions?: number[],
): number {
  const { bonus: B, classes, length } = text;
  const m = P.length;
  if (m === 0) {
    slab.start = slab.end = from;
    return 0;
  }
  let bestPos = -1;
  let bestBonus = -1;
  const first = P[0];
  for (let s = from; s + m <= length; s++) {
    if (T[s] !== first || !equalAt(T, s, P, m)) continue;
    const bonus = B[s];
    if (boundary) {
      const startsWord = bonus >= BONUS_BOUNDARY && (s === 0 || classes[s - 1] <= CLASS_DELIMITER);
      const endsWord = s + m === length || classes[s + m] <= CLASS_DELIMITER;
      if (!startsWord || !endsWord) continue;
    }
    if (bonus > bestBonus) {
      bestBonus = bonus;
      bestPos = s;
    }
  }
  if (bestPos < 0) return -1;
  markRange(slab, positions, bestPos, bestPos + m);
  if (!boundary) return calculateScore(T, B, bestPos, bestPos + m, P);
  // Word boundaries at an underscore rank below other boundaries (fzf's rule).
  let score = bestBonus;
  let deduct = bestBonus - BONUS_BOUNDARY + 1;
  if (bestPos > 0 && T[bestPos - 1] === 95) {
    score -= deduct + 1;
    deduct = 1;
  }
  if (bestPos + m < length && T[bestPos + m] === 95) score -= deduct;
  return score + SCORE_MATCH * m + BONUS_BOUNDARY_WHITE * (m + 1);
}

function leadingWhite(classes: Uint8Array, length: number): number {
  let count = 0;
  while (count < length && classes[count] === CLASS_WHITE) count++;
  return count;
}

function trailingWhite(classes: Uint8Array, length: number): number {
  let count = 0;
  while (count < length && classes[length - 1 - count] === CLASS_WHITE) count++;
  return count;
}

function isWhite(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/**
 * fzf's prefix matcher (`^term`): `P` at the start of the text, after leading white space.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MatchText } from "./text.ts";
 * import { prefixMatch, Slab } from "./algo.ts";
 * const text = new MatchText();
 * text.load("src/main.ts");
 * assert.ok(prefixMatch(text, text.lower, Int32Array.from("src", (c) => c.charCodeAt(0)), new Slab()) > 0);
 * ```
 */
export function prefixMatch(
  text: Haystack,
  T: Int32Array,
  P: Int32Array,
  slab: Slab,
  positions?: number[],
): number {
  const { bonus: B, classes, length } = text;
  const m = P.length;
  const start = m > 0 && isWhite(P[0]) ? 0 : leadingWhite(classes, length);
  if (length - start < m || !equalAt(T, start, P, m)) return -1;
  markRange(slab, positions, start, start + m);
  return calculateScore(T, B, start, start + m, P);
}

/**
 * fzf's suffix matcher (`term$`): `P` at the end of the text, before trailing white space.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MatchText } from "./text.ts";
 * import { Slab, suffixMatch } from "./algo.ts";
 * const text = new MatchText();
 * text.load("src/main.ts");
 * assert.equal(suffixMatch(text, text.lower, Int32Array.from(".js", (c) => c.charCodeAt(0)), new Slab()), -1);
 * ```
 */
export function suffixMatch(
  text: Haystack,
  T: Int32Array,
  P: Int32Array,
  slab: Slab,
  positions?: number[],
): number {
  const { bonus: B, classes, length } = text;
  const m = P.length;
  const end = length - (m > 0 && isWhite(P[m - 1]) ? 0 : trailingWhite(classes, length));
  const start = end - m;
  if (start < 0 || !equalAt(T, start, P, m)) return -1;
  markRange(slab, positions, start, end);
  return calculateScore(T, B, start, end, P);
}

/**
 * fzf's equal matcher (`^term$`): the whole text, white space around it aside, is `P`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MatchText } from "./text.ts";
 * import { equalMatch, Slab } from "./algo.ts";
 * const text = new MatchText();
 * text.load("Makefile");
 * const makefile = Int32Array.from("makefile", (c) => c.charCodeAt(0));
 * assert.equal(equalMatch(text, text.lower, makefile, new Slab()), 200);
 * ```
 */
export function equalMatch(
  text: Haystack,
  T: Int32Array,
  P: Int32Array,
  slab: Slab,
  positions?: number[],
): number {
  const { classes, length } = text;
  const m = P.length;
  if (m === 0) return -1;
  const start = isWhite(P[0]) ? 0 : leadingWhite(classes, length);
  const end = length - (isWhite(P[m - 1]) ? 0 : trailingWhite(classes, length));
  if (end - start !== m || !equalAt(T, start, P, m)) return -1;
  markRange(slab, positions, start, end);
  return (SCORE_MATCH + BONUS_BOUNDARY_WHITE) * m +
    (BONUS_FIRST_CHAR_MULTIPLIER - 1) * BONUS_BOUNDARY_WHITE;
}

/**
 * Whether `T[from, to)` equals `P`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rangeEquals } from "./algo.ts";
 * assert.ok(rangeEquals(Int32Array.from([1, 2, 3]), 1, 3, Int32Array.from([2, 3])));
 * ```
 */
export function rangeEquals(T: Int32Array, from: number, to: number, P: Int32Array): boolean {
  return to - from === P.length && equalAt(T, from, P, P.length);
}

/**
 * Whether `P` is a subsequence of `T[0, length)` (the cheap test of an inverse fuzzy term).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSubsequence } from "./algo.ts";
 * assert.ok(isSubsequence(Int32Array.from([1, 2, 3, 4]), 4, Int32Array.from([1, 4])));
 * ```
 */
export function isSubsequence(T: Int32Array, length: number, P: Int32Array): boolean {
  let k = 0;
  for (let i = 0; i < length && k < P.length; i++) if (T[i] === P[k]) k++;
  return k === P.length;
}
