/**
 * Searches that take seconds and cannot be made fast by a quicker machine's load alone: the
 * bounded-work tests need a call still running when they cancel it or when its budget passes.
 * Patterns run in time linear in the text under a budget (`core/linear_regex.ts`), so the work
 * comes from the text's size and the pattern's cost a character: `[a-z]{1,60}(?=b)` keeps up to
 * sixty threads of the Pike VM alive on every line of `a`s (the lazy DFA, which takes the
 * look-ahead as holding, lets every such line through), about 1 MB/s here.
 *
 * @module
 */

/** A pattern that matches nothing in {@linkcode slowText} and costs about a microsecond a byte. */
export const SLOW_PATTERN = "[a-z]{1,60}(?=b)";

/** `megabytes` MB of lines of 79 `a`s: no match of {@linkcode SLOW_PATTERN}. */
export function slowText(megabytes: number): string {
  return ("a".repeat(79) + "\n").repeat(megabytes * 12_500);
}

/** A catastrophic pattern for V8's backtracking engine, and a line it explodes on. */
export const CATASTROPHIC = { pattern: "(a+)+$", line: "a".repeat(40) + "!\n" };
