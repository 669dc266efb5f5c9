/**
 * The measures of the localization bench (`localize_bench.ts`), for one system's answer to one
 * instance against its gold (`localize_gold.ts`), and their means over a run:
 *
 * - `file@1`, `file@5`: a gold file is among the first 1 or 5 ranked files (for a patch of
 *   several files, any of them). Left out when the patch changes no original file.
 * - `func@10`: every gold function has at least one of the first ten blocks overlapping its
 *   gold lines (same file, a gold line of that function within the block's lines). Left out
 *   (and counted) when the instance has no gold function.
 * - `lines@2k`, `lines@8k`: every gold line lies within the blocks answered at that budget
 *   (2,000 and 8,000 tokens, a token being `ceil(chars / 4)` of a block's text). Left out when
 *   the instance has no gold line.
 *
 * A block covers the lines from `start_line` to `end_line`, except that a span ending at
 * column 0 of a later line (just past a newline) does not cover that line.
 *
 * Pure: no file system.
 *
 * @module
 */
import type { GoldFunction, GoldLine } from "./localize_gold.ts";

/** The measures, in report order. */
export const MEASURES = ["file@1", "file@5", "func@10", "lines@2k", "lines@8k"] as const;

/** One measure's name. */
export type Measure = typeof MEASURES[number];

/** The budgets of `lines@2k` and `lines@8k`, in tokens. */
export const BUDGETS: Readonly<Record<"lines@2k" | "lines@8k", number>> = {
  "lines@2k": 2000,
  "lines@8k": 8000,
};

/** What a block says of where it is. */
export interface BlockLines {
  /** Root-relative path, `/`-separated. */
  file_path: string;
  /** 1-based first line. */
  start_line: number;
  /** 1-based line of the span's end. */
  end_line: number;
  /** 0-based byte column of the span's end, when known. */
  end_col?: number;
}

/** The outcome of a measure: hit, miss, or not applicable to the instance (`null`). */
export type Outcome = boolean | null;

/**
 * The last line a block covers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lastLine } from "./localize_measures.ts";
 * assert.equal(lastLine({ file_path: "a.py", start_line: 3, end_line: 5 }), 5);
 * assert.equal(lastLine({ file_path: "a.py", start_line: 3, end_line: 5, end_col: 0 }), 4);
 * ```
 */
export function lastLine(block: BlockLines): number {
  return block.end_col === 0 && block.end_line > block.start_line
    ? block.end_line - 1
    : block.end_line;
}

/** Whether `block` covers line `line` of `path`. */
function covers(block: BlockLines, path: string, line: number): boolean {
  return block.file_path === path && block.start_line <= line && line <= lastLine(block);
}

/**
 * `file@k`: whether a gold file is among the first `k` ranked files (`null` without gold
 * files).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileAt } from "./localize_measures.ts";
 * assert.equal(fileAt(["b.py", "a.py"], ["a.py"], 1), false);
 * assert.equal(fileAt(["b.py", "a.py"], ["a.py"], 5), true);
 * assert.equal(fileAt(["b.py"], [], 5), null);
 * ```
 */
export function fileAt(ranked: readonly string[], gold: readonly string[], k: number): Outcome {
  if (gold.length === 0) return null;
  return ranked.slice(0, k).some((path) => gold.includes(path));
}

/**
 * The 1-based rank of the first gold file among the ranked files, or `null` when none is
 * ranked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { goldFileRank } from "./localize_measures.ts";
 * assert.equal(goldFileRank(["b.py", "a.py"], ["a.py"]), 2);
 * assert.equal(goldFileRank(["b.py"], ["a.py"]), null);
 * ```
 */
export function goldFileRank(ranked: readonly string[], gold: readonly string[]): number | null {
  const index = ranked.findIndex((path) => gold.includes(path));
  return index < 0 ? null : index + 1;
}

/**
 * `func@k`: whether every gold function has one of the first `k` blocks overlapping its gold
 * lines (`null` without gold functions).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { funcAt } from "./localize_measures.ts";
 * const f = {
 *   file_path: "a.py", name: "f", qualified_name: "f", kind: "function", start_line: 1,
 *   end_line: 9, lines: [4],
 * };
 * const block = (start_line: number, end_line: number) => ({ file_path: "a.py", start_line, end_line });
 * assert.equal(funcAt([block(1, 3), block(4, 4)], [f], 10), true);
 * assert.equal(funcAt([block(1, 3), block(4, 4)], [f], 1), false);
 * assert.equal(funcAt([block(1, 3)], [], 10), null);
 * ```
 */
export function funcAt(
  blocks: readonly BlockLines[],
  gold: readonly GoldFunction[],
  k: number,
): Outcome {
  if (gold.length === 0) return null;
  const first = blocks.slice(0, k);
  return gold.every((fn) =>
    first.some((block) => fn.lines.some((line) => covers(block, fn.file_path, line)))
  );
}

/**
 * For each gold function, the 1-based rank of the first block overlapping its gold lines, or
 * `null` when no block does (`func@k` holds when every rank is at most `k`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { funcRanks } from "./localize_measures.ts";
 * const f = {
 *   file_path: "a.py", name: "f", qualified_name: "f", kind: "function", start_line: 1,
 *   end_line: 9, lines: [4],
 * };
 * const g = { ...f, name: "g", qualified_name: "g", lines: [20] };
 * const blocks = [{ file_path: "a.py", start_line: 1, end_line: 2 }, { file_path: "a.py", start_line: 3, end_line: 5 }];
 * assert.deepEqual(funcRanks(blocks, [f, g]), [2, null]);
 * ```
 */
export function funcRanks(
  blocks: readonly BlockLines[],
  gold: readonly GoldFunction[],
): (number | null)[] {
  return gold.map((fn) => {
    const index = blocks.findIndex((block) =>
      fn.lines.some((line) => covers(block, fn.file_path, line))
    );
    return index < 0 ? null : index + 1;
  });
}

/**
 * The share of the gold lines that the blocks cover (`null` without gold lines).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linesCovered } from "./localize_measures.ts";
 * const lines = [3, 8].map((line) => ({ file_path: "a.py", line, kind: "removed" as const }));
 * assert.equal(linesCovered([{ file_path: "a.py", start_line: 1, end_line: 5 }], lines), 0.5);
 * ```
 */
export function linesCovered(
  blocks: readonly BlockLines[],
  gold: readonly GoldLine[],
): number | null {
  if (gold.length === 0) return null;
  const hit = gold.filter((g) => blocks.some((block) => covers(block, g.file_path, g.line)));
  return hit.length / gold.length;
}

/**
 * `lines@budget`: whether the blocks answered within the budget cover every gold line
 * (`null` without gold lines).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linesWithin } from "./localize_measures.ts";
 * const lines = [{ file_path: "a.py", line: 3, kind: "removed" as const }];
 * assert.equal(linesWithin([{ file_path: "a.py", start_line: 1, end_line: 5 }], lines), true);
 * assert.equal(linesWithin([], lines), false);
 * ```
 */
export function linesWithin(blocks: readonly BlockLines[], gold: readonly GoldLine[]): Outcome {
  const share = linesCovered(blocks, gold);
  return share === null ? null : share === 1;
}

/** One measure over a run: how many instances it hit, of how many it applied to. */
export interface Tally {
  /** Instances where it held. */
  hits: number;
  /** Instances it applied to. */
  n: number;
  /** Instances left out (not applicable). */
  left_out: number;
}

/**
 * Tallies one system's outcomes over a run, per measure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tally } from "./localize_measures.ts";
 * const t = tally([{ "func@10": true }, { "func@10": null }, { "func@10": false }]);
 * assert.deepEqual(t["func@10"], { hits: 1, n: 2, left_out: 1 });
 * ```
 */
export function tally(
  outcomes: readonly Partial<Record<Measure, Outcome>>[],
): Record<Measure, Tally> {
  const result = {} as Record<Measure, Tally>;
  for (const measure of MEASURES) {
    const tallied: Tally = { hits: 0, n: 0, left_out: 0 };
    for (const outcome of outcomes) {
      const value = outcome[measure];
      if (value === undefined || value === null) tallied.left_out++;
      else {
        tallied.n++;
        if (value) tallied.hits++;
      }
    }
    result[measure] = tallied;
  }
  return result;
}

/**
 * A tally's mean (`null` when it applied to no instance).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mean } from "./localize_measures.ts";
 * assert.equal(mean({ hits: 1, n: 4, left_out: 0 }), 0.25);
 * assert.equal(mean({ hits: 0, n: 0, left_out: 3 }), null);
 * ```
 */
export function mean(t: Tally): number | null {
  return t.n === 0 ? null : t.hits / t.n;
}
