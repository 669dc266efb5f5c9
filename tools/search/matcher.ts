/**
 * Builds the one JavaScript regular expression a search runs, from the patterns and the
 * ripgrep-style flags, and the literals that prefilter files on raw bytes. Invalid patterns
 * become `LMS-QRY-001` with the column of the fault.
 *
 * @module
 */
import { ToolError } from "../../schema/diagnostic.ts";
import { requiredLiteral } from "./literal.ts";
import { spellOutRepeats, translateRipgrepSyntax } from "./rewrite.ts";

/** How to interpret the patterns. */
export interface MatcherOptions {
  /** The patterns; a match of any of them is a match. */
  patterns: readonly string[];
  /** Treat patterns as literal text (`-F`). */
  fixedStrings?: boolean;
  /** Case-insensitive (`-i`). */
  ignoreCase?: boolean;
  /** Case-insensitive unless a pattern has an upper-case letter (`-S`). */
  smartCase?: boolean;
  /** Only matches surrounded by word boundaries (`-w`). */
  wordRegexp?: boolean;
  /** Let matches span lines (`-U`). */
  multiline?: boolean;
}

/** The compiled form, plain data so it can be sent to workers. */
export interface MatcherSpec {
  /** Regular expression source. */
  source: string;
  /** Flags: always `g` and `m`, plus `u`, `i`, `s` as needed. */
  flags: string;
  /** Matches may span lines. */
  multiline: boolean;
  /**
   * Literals of which at least one must occur in a file for it to match (UTF-8 text), and
   * whether to compare them ignoring ASCII case; empty when no prefilter is possible.
   */
  literals: string[];
  /** Compare literals ignoring ASCII case. */
  literalsIgnoreCase: boolean;
}

const META = /[\\^$.*+?()[\]{}|/]/g;

function escapeRegExp(text: string): string {
  return text.replace(META, "\\$&");
}

/** Upper-case letters outside escape sequences, as ripgrep's smart case looks for them. */
function hasUpperCase(pattern: string): boolean {
  return /\p{Lu}/u.test(pattern.replace(/\\(?:[pP]\{[^}]*\}|.)/gu, ""));
}

function compiles(source: string, flags: string): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Column (0-based, in UTF-16 units of the pattern) where a pattern's fault most likely is. */
export function faultColumn(pattern: string): number {
  const groups: number[] = [];
  let classStart = -1;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === "\\") {
      if (i === pattern.length - 1) return i;
      i++;
      continue;
    }
    if (classStart !== -1) {
      if (char === "]") classStart = -1;
      continue;
    }
    if (char === "[") classStart = i;
    else if (char === "(") groups.push(i);
    else if (char === ")") {
      if (groups.pop() === undefined) return i;
    } else if ("*+?".includes(char)) {
      const previous = pattern[i - 1];
      if (i === 0 || previous === "(" || previous === "|") return i;
    } else if (char === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i))) {
      if (i === 0 || pattern[i - 1] === "(" || pattern[i - 1] === "|") return i;
    }
  }
  if (classStart !== -1) return classStart;
  if (groups.length) return groups[groups.length - 1];
  return compiles(pattern, "") === undefined ? 0 : Math.max(0, pattern.length - 1);
}

function checkPattern(pattern: string, index: number): void {
  const unicode = compiles(pattern, "u");
  const plain = unicode === undefined ? undefined : compiles(pattern, "");
  if (unicode === undefined || plain === undefined) return;
  const column = faultColumn(pattern);
  throw new ToolError(
    "LMS-QRY-001",
    `invalid regular expression: ${plain.replace(/^Invalid regular expression: /, "")}`,
    {
      column,
      note: `pattern ${index + 1}: ${pattern}\n${
        " ".repeat(`pattern ${index + 1}: `.length + column)
      }^`,
    },
  );
}

/**
 * One required literal per pattern, or `undefined` when some pattern has none (then no file
 * can be ruled out). Case-insensitive prefiltering compares ASCII case only, so a non-ASCII
 * literal under `-i` (whose case folding the byte scan cannot follow) disables it too.
 */
function prefilterLiterals(
  options: MatcherOptions,
  sources: string[],
  ignoreCase: boolean,
): string[] | undefined {
  const literals: string[] = [];
  for (const [index, pattern] of options.patterns.entries()) {
    const literal = options.fixedStrings ? pattern : requiredLiteral(sources[index]);
    if (!literal || (ignoreCase && /[\u0080-\uffff]/.test(literal))) return undefined;
    literals.push(literal);
  }
  return literals;
}

/**
 * Compiles the patterns and flags into one {@linkcode MatcherSpec}. Patterns are JavaScript
 * regular expressions, compiled with the `u` flag when they allow it (else without it).
 *
 * @example
 * ```ts
 * import { buildMatcher } from "@llm/search/search";
 * const spec = buildMatcher({ patterns: ["fn\\s+main"], smartCase: true });
 * spec.flags; // "gmiu"
 * spec.literals; // ["fn"]
 * ```
 */
export function buildMatcher(options: MatcherOptions): MatcherSpec {
  if (options.patterns.length === 0) {
    throw new ToolError("LMS-QRY-002", "no search pattern given");
  }
  const sources = options.patterns.map((pattern, index) => {
    if (options.fixedStrings) return escapeRegExp(pattern);
    const translated = translateRipgrepSyntax(pattern);
    checkPattern(translated, index);
    return spellOutRepeats(translated);
  });
  const ignoreCase = options.ignoreCase ||
    (options.smartCase === true && !options.patterns.some(hasUpperCase));
  const joined = sources.length === 1 ? sources[0] : sources.map((s) => `(?:${s})`).join("|");
  const unicode = compiles(joined, "u") === undefined;
  const word = unicode ? "[\\p{L}\\p{N}\\p{M}_]" : "\\w";
  const source = options.wordRegexp ? `(?<!${word})(?:${joined})(?!${word})` : joined;
  const flags = "gm" + (ignoreCase ? "i" : "") + (unicode ? "u" : "");
  const literals = prefilterLiterals(options, sources, ignoreCase);
  return {
    source,
    flags,
    multiline: !!options.multiline,
    literals: literals ?? [],
    literalsIgnoreCase: literals !== undefined && ignoreCase,
  };
}
