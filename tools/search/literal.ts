/**
 * Required literals: strings of which every match of a pattern must contain at least one, so
 * files (and, without `-U`, lines) lacking all of them are skipped on their raw bytes without
 * being decoded (ripgrep's prefilter idea). They are derived from the syntax tree that
 * `@eslint-community/regexpp` parses, conservatively: when unsure, no literal, which only
 * costs speed.
 *
 * - a run is a sequence of characters every match holds one after the other; anything else
 *   (a class, an assertion, a backreference, a quantified atom) ends it;
 * - an atom quantified with a minimum of 0 is not required; one with a minimum of 1 or more
 *   contributes what it requires on its own;
 * - an alternation requires one literal of each branch (all branches must have one);
 * - case: the byte scan folds ASCII letters only, so under case-insensitive matching a
 *   character whose case folding reaches beyond ASCII (every non-ASCII letter, and `k`/`s`,
 *   which fold with U+212A KELVIN SIGN and U+017F LATIN SMALL LETTER LONG S) ends a run; a
 *   character under a local `(?i:…)` ends it too unless the whole search ignores case.
 *
 * @module
 */
import { type AST, RegExpParser } from "@eslint-community/regexpp";

/** ASCII letters whose simple case folding includes a non-ASCII character. */
const FOLDS_BEYOND_ASCII = new Set(["k", "K", "s", "S"]);

/** Literals of which at least one occurs in every match; `undefined`: no such set known. */
export type LiteralSet = string[] | undefined;

interface LiteralContext {
  /** The whole search ignores case (the scan then folds ASCII case). */
  searchIgnoresCase: boolean;
  /** Case is ignored here (globally or by a modifier group). */
  ignoreCase: boolean;
}

/** Whether the byte scan can look for `value` literally under `context`. */
function scannable(value: number, context: LiteralContext): boolean {
  if (value >= 0xd800 && value <= 0xdfff) return false;
  if (!context.ignoreCase) return true;
  if (!context.searchIgnoresCase) return false;
  if (value >= 0x80) return false;
  return !FOLDS_BEYOND_ASCII.has(String.fromCharCode(value));
}

/** The better of two sets: the one whose shortest literal is longer (fewer literals on a tie). */
function better(a: LiteralSet, b: LiteralSet): LiteralSet {
  if (!a) return b;
  if (!b) return a;
  const shortest = (set: string[]) => Math.min(...set.map((literal) => literal.length));
  const [la, lb] = [shortest(a), shortest(b)];
  if (la !== lb) return la > lb ? a : b;
  return a.length <= b.length ? a : b;
}

/** One literal from each alternative, or `undefined` when one alternative has none. */
function alternativesSet(alternatives: AST.Alternative[], context: LiteralContext): LiteralSet {
  const union: string[] = [];
  for (const alternative of alternatives) {
    const set = sequenceSet(alternative.elements, context);
    if (!set) return undefined;
    union.push(...set);
  }
  return [...new Set(union)];
}

function groupContext(node: AST.Group, context: LiteralContext): LiteralContext {
  const modifiers = node.modifiers;
  if (!modifiers) return context;
  const ignoreCase = modifiers.add.ignoreCase
    ? true
    : modifiers.remove?.ignoreCase
    ? false
    : context.ignoreCase;
  return { ...context, ignoreCase };
}

/** The best required set of a sequence of elements. */
function sequenceSet(elements: AST.Element[], context: LiteralContext): LiteralSet {
  let best: LiteralSet;
  let run = "";
  const cut = () => {
    if (run) best = better(best, [run]);
    run = "";
  };
  const visit = (items: AST.Element[], here: LiteralContext) => {
    for (const element of items) {
      if (element.type === "Character" && scannable(element.value, here)) {
        run += String.fromCodePoint(element.value);
        continue;
      }
      const inner = element.type === "Group" ? groupContext(element, here) : here;
      const single = (element.type === "Group" || element.type === "CapturingGroup") &&
        element.alternatives.length === 1;
      if (single) {
        // A group of one alternative continues the run through its elements.
        visit(element.alternatives[0].elements, inner);
        continue;
      }
      cut();
      best = better(best, elementSet(element, inner));
    }
  };
  visit(elements, context);
  cut();
  return best;
}

/** What one element requires on its own (a run never continues through it). */
function elementSet(element: AST.Element, context: LiteralContext): LiteralSet {
  switch (element.type) {
    case "Group":
    case "CapturingGroup":
      return alternativesSet(element.alternatives, context);
    case "Quantifier":
      return element.min === 0 ? undefined : sequenceSet([element.element], context);
    default:
      // Characters the scan cannot look for, classes, assertions, backreferences.
      return undefined;
  }
}

/**
 * Literals at least one of which every match of the parsed `pattern` contains, or `undefined`.
 * `ignoreCase`: the search ignores case, so the byte scan will fold ASCII case.
 */
export function requiredLiterals(pattern: AST.Pattern, ignoreCase: boolean): LiteralSet {
  const context = { searchIgnoresCase: ignoreCase, ignoreCase };
  const set = pattern.alternatives.length === 1
    ? sequenceSet(pattern.alternatives[0].elements, context)
    : alternativesSet(pattern.alternatives, context);
  return set && set.every((literal) => literal.length > 0) ? set : undefined;
}

/** The longest scannable run of literal text (`-F`), or `undefined`. */
export function fixedStringLiteral(text: string, ignoreCase: boolean): string | undefined {
  const context = { searchIgnoresCase: ignoreCase, ignoreCase };
  let best = "";
  let run = "";
  for (const char of text) {
    if (scannable(char.codePointAt(0)!, context)) run += char;
    else run = "";
    if (run.length > best.length) best = run;
  }
  return best || undefined;
}

/**
 * The longest literal that every match of the JavaScript regular expression `pattern` (read
 * with the `u` flag) must contain, or `undefined` when none is certain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requiredLiteral } from "./literal.ts";
 * assert.equal(requiredLiteral("[A-Z]+_SUSPEND"), "_SUSPEND");
 * assert.equal(requiredLiteral("foo|bar"), undefined);
 * ```
 */
export function requiredLiteral(pattern: string): string | undefined {
  const parsed = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(
    pattern,
    0,
    pattern.length,
    { unicode: true },
  );
  const set = requiredLiterals(parsed, false);
  return set?.length === 1 ? set[0] : undefined;
}
