/**
 * "Did you mean": the names closest to a mistyped one, by edit distance. Apart from `query.ts`
 * (which loads the parser) so that a command that only suggests names loads nothing else.
 *
 * @module
 */

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/**
 * The names of `candidates` closest to `word` (by edit distance, then containment), at most
 * `count` of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closestNames } from "./closest_names.ts";
 * assert.deepEqual(
 *   closestNames("function_defintion", ["function_definition", "struct_specifier"]),
 *   ["function_definition"],
 * );
 * ```
 */
export function closestNames(word: string, candidates: readonly string[], count = 5): string[] {
  const scored = [...new Set(candidates)]
    .map((name) => ({
      name,
      score: distance(word, name) - (name.includes(word) || word.includes(name) ? 3 : 0),
    }))
    .filter((entry) => entry.score <= Math.max(3, word.length / 2))
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1));
  return scored.slice(0, count).map((entry) => entry.name);
}
