/**
 * Scores paths against a parsed query: fzf's algorithms with its "path" scheme, plus a
 * preference for matches inside the basename and for exact names, and an explanation (reason,
 * matched byte positions) for the paths that make the cut.
 *
 * Why not npm `fzf` (fzf-for-js 0.5.2, in the import map)? It was evaluated first and does
 * not fit: it ports fzf's algorithm from before the path scheme (no extra bonus after `/`, the
 * start of a line not treated as after a separator), has no notion of a basename, splits
 * strings into UTF-16 units (astral characters break and positions are not byte offsets),
 * classifies every non-ASCII character with a fresh regular expression, and ranks by score
 * buckets in input order. This scorer keeps fzf's constants and algorithms (see
 * `./algo.ts`) and adds what a file finder needs.
 *
 * The raw score of a path is the sum, over the query's term sets, of the matching term's
 * score: fzf's score of the term, taken on the whole path or on the basename alone, whichever is
 * higher after adding {@linkcode BASENAME_BONUS} to the basename's; plus
 * {@linkcode EXACT_NAME_BONUS} when the term is the whole basename or the whole path, or
 * {@linkcode EXACT_STEM_BONUS} when it is the basename without its extension (both less one
 * point per directory level below the walked root, up to {@linkcode EXACT_DEPTH_STEPS}, so that
 * the root's `Makefile` comes before `Documentation/Makefile`); for a term matched in the
 * directories, {@linkcode EXACT_DIRECTORY_BONUS} when it equals a directory's name (`sched` in
 * `kernel/sched/core.c`) or {@linkcode STEM_COVER_BONUS} when its match ends by covering the
 * basename's whole stem (`schedcore` on `kernel/sched/core.c`).
 *
 * @module
 */
import {
  equalMatch,
  exactMatch,
  fuzzyMatch,
  isSubsequence,
  prefixMatch,
  rangeEquals,
  Slab,
  suffixMatch,
} from "./algo.ts";
import type { DiscoverReason } from "../../schema/discover.ts";
import type { ParsedQuery, Term } from "./query.ts";
import {
  BONUS_BOUNDARY_DELIMITER,
  BONUS_BOUNDARY_WHITE,
  BONUS_FIRST_CHAR_MULTIPLIER,
  MatchText,
  SCORE_MATCH,
} from "./text.ts";

/** Added to a term matched inside the basename: worth one matched character. */
export const BASENAME_BONUS = SCORE_MATCH;
/** Added to a term equal to the whole basename (or the whole path). */
export const EXACT_NAME_BONUS = SCORE_MATCH;
/** Added to a term equal to the basename without its extension. */
export const EXACT_STEM_BONUS = SCORE_MATCH - 4;
/** Directory levels over which the exact-name bonuses shrink by one point each. */
export const EXACT_DEPTH_STEPS = 4;
/** Added to a term whose match spans directories and ends with the basename's whole stem. */
export const STEM_COVER_BONUS = SCORE_MATCH / 2;
/** Added to a term matched in the directories that equals a whole directory name. */
export const EXACT_DIRECTORY_BONUS = SCORE_MATCH / 2;

/** Why a path matched, strongest first (see {@linkcode DiscoverReason}). */
export type MatchReason = DiscoverReason;

/** A scored path with its explanation. */
export interface PathMatch {
  /** Ranking score: fzf's score plus the basename and exact-name bonuses. */
  rawScore: number;
  /** `rawScore` over the best score the query can reach, in [0, 1]; 0 for a listing. */
  score: number;
  /** Why the path matched. */
  reason: MatchReason;
  /** UTF-8 byte offset, in the path, of the first byte of each matched character, ascending. */
  positions: number[];
}

const REASON_RANK: Record<MatchReason, number> = {
  "exact path": 0,
  "exact basename": 1,
  "basename prefix": 2,
  "filename match": 3,
  "path match": 4,
  "listed": 5,
};

/** The best score a term can reach (a perfect match at a word start after `/`, as a name). */
function idealTermScore(term: Term): number {
  const m = term.codes.length;
  const run = SCORE_MATCH * m + BONUS_BOUNDARY_DELIMITER * (m + BONUS_FIRST_CHAR_MULTIPLIER - 1);
  const boundary = BONUS_BOUNDARY_DELIMITER + (SCORE_MATCH + BONUS_BOUNDARY_WHITE) * m +
    BONUS_BOUNDARY_WHITE;
  return Math.max(run, boundary) + BASENAME_BONUS + EXACT_NAME_BONUS;
}

const NON_ASCII = /[\u0080-\uffff]/;

function hex(code: number): string {
  return "\\x" + code.toString(16).padStart(2, "0");
}

/**
 * A test that an ASCII term's characters occur in order: a regular expression written
 * `a[^b]*b[^c]*c` (it never backtracks, and irregexp runs it natively, faster than a loop), tried
 * once, at the first occurrence of the term's first character. An expression left to find its own
 * start retries from every later occurrence, in vain: when the characters follow the first one
 * in order, they follow it, and when they do not, they follow no later one either. For
 * `schedcore` over Linux 6.1's 78,000 paths, each with several `s`, that took 25–28 ms against
 * 20–21 ms.
 */
function subsequenceTest(term: Term): (path: string) => boolean {
  if (term.codes.length === 0) return () => true;
  const parts = Array.from(
    term.codes,
    (code, index) => index === 0 ? hex(code) : `[^${hex(code)}]*${hex(code)}`,
  );
  const pattern = new RegExp(parts.join(""), term.caseSensitive ? "y" : "iy");
  const first = String.fromCharCode(term.codes[0]);
  const lower = term.caseSensitive ? first : first.toLowerCase();
  const upper = term.caseSensitive ? first : first.toUpperCase();
  return (path) => {
    let start = path.indexOf(lower);
    if (upper !== lower) {
      const other = path.indexOf(upper);
      if (other !== -1 && (start === -1 || other < start)) start = other;
    }
    if (start === -1) return false;
    pattern.lastIndex = start;
    return pattern.test(path);
  };
}

interface TermOutcome {
  score: number;
  reason: MatchReason;
}

/**
 * Scores paths against one query. `score` is the hot path (no allocation for a path that does
 * not match); `explain` recomputes one path with positions and reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQuery } from "./query.ts";
 * import { PathScorer } from "./scorer.ts";
 * const scorer = new PathScorer(parseQuery("walker"));
 * assert.ok(scorer.score("core/walk/walker.ts") > scorer.score("core/walk/other_walker.ts"));
 * assert.equal(scorer.explain("core/walk/walker.ts")?.reason, "exact basename");
 * ```
 */
export class PathScorer {
  /** The parsed query. */
  readonly query: ParsedQuery;
  /** The best raw score this query can give (the denominator of `score`). */
  readonly idealScore: number;
  readonly #text = new MatchText();
  readonly #slab = new Slab();
  /** What the exact-name bonuses lose for the current path's depth. */
  #depthPenalty = 0;
  /** One test per required term: its characters in order (a cheap prefilter). */
  readonly #required: ((path: string) => boolean)[];
  /** A required term has non-ASCII characters: ASCII paths cannot match it. */
  readonly #requiresNonAscii: boolean;

  /** Prepares a scorer for `query`. */
  constructor(query: ParsedQuery) {
    this.query = query;
    this.idealScore = query.sets.reduce((sum, set) => {
      const positive = set.filter((term) => !term.inverse).map(idealTermScore);
      return sum + (positive.length ? Math.max(...positive) : 0);
    }, 0);
    const required = query.sets.filter((set) => set.length === 1 && !set[0].inverse)
      .map((set) => set[0]);
    this.#requiresNonAscii = required.some((term) => term.codes.some((code) => code >= 128));
    this.#required = this.#requiresNonAscii ? [] : required.map(subsequenceTest);
  }

  /**
   * A cheap necessary condition checked on the string itself: every required term's characters
   * appear in order. `undefined` when the path has non-ASCII characters, which folding or
   * normalisation may turn into the term's characters (decided by the full evaluation).
   */
  #prefilter(path: string): boolean | undefined {
    if (this.#requiresNonAscii) return NON_ASCII.test(path) ? undefined : false;
    for (const holds of this.#required) {
      if (!holds(path)) return NON_ASCII.test(path) ? undefined : false;
    }
    return true;
  }

  /**
   * Raw score of `path`, or -1 when it does not match. `depth` is the walker's: 1 for an entry
   * directly in the walked root (default: one more than the path's slashes).
   */
  score(path: string, depth?: number): number {
    if (this.query.sets.length === 0) return 0;
    if (this.#prefilter(path) === false) return -1;
    this.#load(path, depth);
    return this.#evaluate(undefined);
  }

  /** Score, reason and positions of `path`, or `undefined` when it does not match. */
  explain(path: string, depth?: number): PathMatch | undefined {
    this.#load(path, depth);
    const positions: number[] = [];
    const reasons: MatchReason[] = [];
    const rawScore = this.#evaluate({ positions, reasons });
    if (rawScore < 0) return undefined;
    const text = this.#text;
    const unique = [...new Set(positions)].sort((a, b) => a - b);
    let reason: MatchReason = "listed";
    for (const candidate of reasons) {
      if (REASON_RANK[candidate] < REASON_RANK[reason]) reason = candidate;
    }
    if (reason !== "exact path" && reason !== "exact basename" && reasons.length > 0) {
      const start = text.basenameStart;
      const inBasename = unique.every((index) => index >= start);
      const prefix = unique.every((index, k) => index === start + k);
      reason = !inBasename ? "path match" : prefix ? "basename prefix" : "filename match";
    }
    const score = this.idealScore > 0
      ? Math.round(Math.min(1, rawScore / this.idealScore) * 10000) / 10000
      : 0;
    return { rawScore, score, reason, positions: text.byteOffsets(unique) };
  }

  #load(path: string, depth: number | undefined): void {
    this.#text.load(path);
    const levels = depth ?? this.#text.slashes + 1;
    this.#depthPenalty = Math.min(Math.max(levels - 1, 0), EXACT_DEPTH_STEPS);
  }

  #evaluate(explanation: { positions: number[]; reasons: MatchReason[] } | undefined): number {
    let total = 0;
    for (const set of this.query.sets) {
      let matched = false;
      let setScore = 0;
      for (const term of set) {
        if (term.inverse) {
          if (this.#matches(term)) continue;
          matched = true;
          setScore = 0;
          continue;
        }
        const outcome = this.#termScore(term, explanation?.positions);
        if (outcome === undefined) continue;
        matched = true;
        setScore = outcome.score;
        explanation?.reasons.push(outcome.reason);
        break;
      }
      if (!matched) return -1;
      total += setScore;
    }
    return total;
  }

  /** Whether a (negated) term occurs in the path at all. */
  #matches(term: Term): boolean {
    const text = this.#text;
    const T = text.variant(term.caseSensitive, term.normalize);
    const P = term.codes;
    if (term.kind === "fuzzy") return isSubsequence(T, text.length, P);
    return this.#run(term, T, 0, undefined) >= 0;
  }

  #run(term: Term, T: Int32Array, from: number, positions: number[] | undefined): number {
    const text = this.#text;
    const P = term.codes;
    const slab = this.#slab;
    switch (term.kind) {
      case "fuzzy":
        return fuzzyMatch(text, T, from, P, slab, positions);
      case "exact":
        return exactMatch(text, T, from, P, false, slab, positions);
      case "exact-boundary":
        return exactMatch(text, T, from, P, true, slab, positions);
      case "prefix":
        return prefixMatch(text, T, P, slab, positions);
      case "suffix":
        return suffixMatch(text, T, P, slab, positions);
      case "equal":
        return equalMatch(text, T, P, slab, positions);
    }
  }

  /** A positive term's score with the basename and exact-name bonuses, or `undefined`. */
  #termScore(term: Term, positions: number[] | undefined): TermOutcome | undefined {
    const text = this.#text;
    const T = text.variant(term.caseSensitive, term.normalize);
    const { basenameStart, length, stemEnd } = text;
    const fullPositions = positions ? [] as number[] : undefined;
    let score = this.#run(term, T, 0, fullPositions);
    if (score < 0) return undefined;
    let chosen = fullPositions;
    let spansDirectories = true;
    if (this.#slab.start >= basenameStart) {
      score += BASENAME_BONUS;
      spansDirectories = false;
    } else if (term.kind === "fuzzy" || term.kind === "exact" || term.kind === "exact-boundary") {
      const basePositions = positions ? [] as number[] : undefined;
      const inBasename = this.#run(term, T, basenameStart, basePositions);
      if (inBasename >= 0 && inBasename + BASENAME_BONUS > score) {
        score = inBasename + BASENAME_BONUS;
        chosen = basePositions;
        spansDirectories = false;
      }
    }
    const P = term.codes;
    let reason: MatchReason = "path match";
    if (rangeEquals(T, basenameStart, length, P)) {
      score += EXACT_NAME_BONUS - this.#depthPenalty;
      reason = "exact basename";
    } else if (basenameStart > 0 && rangeEquals(T, 0, length, P)) {
      score += EXACT_NAME_BONUS;
      reason = "exact path";
    } else if (stemEnd < length && rangeEquals(T, basenameStart, stemEnd, P)) {
      score += EXACT_STEM_BONUS - this.#depthPenalty;
      reason = "exact basename";
    } else if (spansDirectories && this.#namesDirectory(T, P)) {
      score += EXACT_DIRECTORY_BONUS;
    } else if (spansDirectories && this.#coversStem(term, T, fullPositions)) {
      score += STEM_COVER_BONUS;
    }
    if (positions && chosen) positions.push(...chosen);
    return { score, reason };
  }

  /** Whether `P` equals the name of one of the path's directories. */
  #namesDirectory(T: Int32Array, P: Int32Array): boolean {
    const { codes, basenameStart } = this.#text;
    let start = 0;
    for (let i = 0; i < basenameStart; i++) {
      if (codes[i] !== 47) continue;
      if (rangeEquals(T, start, i, P)) return true;
      start = i + 1;
    }
    return false;
  }

  /**
   * Whether the whole-path alignment of `term` ends by matching the basename's entire stem, as
   * `schedcore` does with `kernel/sched/core.c`. Cheap unless the term ends with the stem's text.
   */
  #coversStem(term: Term, T: Int32Array, known: number[] | undefined): boolean {
    const { basenameStart, stemEnd } = this.#text;
    const P = term.codes;
    const stemLength = stemEnd - basenameStart;
    if (stemLength === 0 || stemLength >= P.length) return false;
    if (!rangeEquals(T, basenameStart, stemEnd, P.subarray(P.length - stemLength))) {
      return false;
    }
    let positions = known;
    if (positions === undefined) {
      positions = [];
      this.#run(term, T, 0, positions);
    }
    const tail = positions.length - stemLength;
    for (let k = 0; k < stemLength; k++) {
      if (positions[tail + k] !== basenameStart + k) return false;
    }
    return true;
  }
}
