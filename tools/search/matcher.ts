/**
 * Builds the one JavaScript regular expression a search runs, from the patterns and the
 * ripgrep-style flags, and the literals that prefilter files on raw bytes. Invalid patterns
 * become `LMS-QRY-001` with the column of the fault.
 *
 * @module
 */
import { type AST, RegExpParser, visitRegExpAST } from "@eslint-community/regexpp";
import { ToolError } from "../../schema/diagnostic.ts";
import { fixedStringLiteral, type LiteralSet, requiredLiterals } from "./literal.ts";
import {
  countGroups,
  emitLiteral,
  emitPattern,
  PatternFault,
  translateWithOrigins,
  WORD_CLASS_BODY,
} from "./rewrite.ts";

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
  /**
   * Rule out files and lines that lack a required literal (default `true`). Off, every file is
   * matched in full: the plain path the prefilter's soundness is tested against.
   */
  prefilter?: boolean;
}

/** The compiled form, plain data so it can be sent to workers. */
export interface MatcherSpec {
  /** Regular expression source. */
  source: string;
  /** Flags: always `g` and `v`, plus `i` to ignore case. */
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
  /**
   * Every pattern is plain text (a fixed string, or a regular expression of characters and
   * alternatives alone), so a match attempt never backtracks: matching takes time linear in
   * the text, and a search may run under a time budget without a thread to terminate.
   */
  linear: boolean;
}

/**
 * Whether smart case (`-S`) ignores case: ripgrep's rule, on the parsed patterns — when some
 * pattern has a literal character (however spelled, in a class too) and none is upper case.
 */
function smartCaseIgnores(options: MatcherOptions, compiled: CompiledPattern[]): boolean {
  const characters: string[] = [];
  for (const [index, pattern] of options.patterns.entries()) {
    const tree = compiled[index].tree;
    if (!tree) characters.push(...pattern);
    else {
      visitRegExpAST(tree, {
        onCharacterEnter: (node) => void characters.push(String.fromCodePoint(node.value)),
      });
    }
  }
  return characters.length > 0 && !characters.some((char) => /\p{Uppercase}/u.test(char));
}

const parser = new RegExpParser({ ecmaVersion: 2025 });

/** A coded refusal of pattern `index` at `column` (0-based, in UTF-16 units of the pattern). */
function patternError(pattern: string, index: number, column: number, message: string): ToolError {
  return new ToolError("LMS-QRY-001", `invalid regular expression: ${message}`, {
    column,
    note: `pattern ${index + 1}: ${pattern}\n${
      " ".repeat(`pattern ${index + 1}: `.length + column)
    }^`,
  });
}

/** The reason of a regexpp error without its restatement of the pattern. */
function reason(error: Error): string {
  return error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
}

/**
 * Where the unclosed group or class that ends `text` opens (ripgrep points there, regexpp at
 * the end of the pattern), or `undefined`.
 */
function unclosedOpener(text: string): number | undefined {
  const groups: number[] = [];
  let classStart = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (classStart !== -1) {
      if (text[i] === "]") classStart = -1;
    } else if (text[i] === "[") classStart = i;
    else if (text[i] === "(") groups.push(i);
    else if (text[i] === ")") groups.pop();
  }
  return classStart !== -1 ? classStart : groups.at(-1);
}

/** A pattern parsed and emitted with ripgrep's semantics, or a coded refusal. */
interface CompiledPattern {
  source: string;
  tree?: AST.Pattern;
}

function compilePattern(
  pattern: string,
  index: number,
  options: MatcherOptions,
  groupOffset: number,
): CompiledPattern {
  const multiline = !!options.multiline;
  if (options.fixedStrings) return { source: emitLiteral(pattern, multiline, index) };
  const translated = translateWithOrigins(pattern);
  const at = (position: number) =>
    translated.origin[Math.min(position, translated.origin.length - 1)] ?? 0;
  try {
    const tree = parser.parsePattern(translated.text, 0, translated.text.length, {
      unicode: true,
    });
    return { tree, source: emitPattern(tree, { multiline, groupOffset }) };
  } catch (error) {
    if (error instanceof PatternFault) {
      throw patternError(pattern, index, at(error.index), error.message);
    }
    if (error instanceof SyntaxError && "index" in error && typeof error.index === "number") {
      const unclosed = /^Unterminated (group|character class)$/.test(reason(error))
        ? unclosedOpener(translated.text)
        : undefined;
      throw patternError(pattern, index, at(unclosed ?? error.index), reason(error));
    }
    throw error;
  }
}

/**
 * Literals at least one of which every match of any pattern holds, or `undefined` when some
 * pattern has none (then no file can be ruled out).
 */
function prefilterLiterals(
  options: MatcherOptions,
  compiled: CompiledPattern[],
  ignoreCase: boolean,
): LiteralSet {
  const literals = new Set<string>();
  for (const [index, pattern] of options.patterns.entries()) {
    const tree = compiled[index].tree;
    const fixed = options.fixedStrings ? fixedStringLiteral(pattern, ignoreCase) : undefined;
    const set = tree ? requiredLiterals(tree, ignoreCase) : fixed ? [fixed] : undefined;
    if (!set) return undefined;
    for (const literal of set) literals.add(literal);
  }
  return [...literals];
}

/**
 * Compiles the patterns and flags into one {@linkcode MatcherSpec}. Patterns are read as
 * JavaScript regular expressions with the `u` flag, in ripgrep's spelling where the two differ,
 * and run with ripgrep's semantics (see `rewrite.ts`). A pattern either compiles exactly or is
 * refused with `LMS-QRY-001` and the column of the fault: never a silent fallback.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildMatcher } from "./matcher.ts";
 * const spec = buildMatcher({ patterns: ["fn\\s+main"], smartCase: true });
 * assert.equal(spec.flags, "gvi");
 * assert.deepEqual(spec.literals, ["main"]); // the longer of the two required literals
 * assert.equal(spec.linear, false); // a quantifier
 * assert.equal(buildMatcher({ patterns: ["PM_RESUME|PM_SUSPEND"] }).linear, true);
 * ```
 */
export function buildMatcher(options: MatcherOptions): MatcherSpec {
  if (options.patterns.length === 0) {
    throw new ToolError("LMS-QRY-002", "no search pattern given");
  }
  let groups = 0;
  const compiled = options.patterns.map((pattern, index) => {
    const result = compilePattern(pattern, index, options, groups);
    if (result.tree) groups += countGroups(result.tree);
    return result;
  });
  const sources = compiled.map((pattern) => pattern.source);
  const ignoreCase = options.ignoreCase ||
    (options.smartCase === true && smartCaseIgnores(options, compiled));
  const joined = sources.length === 1 ? sources[0] : sources.map((s) => `(?:${s})`).join("|");
  const word = `[${WORD_CLASS_BODY}]`;
  const source = options.wordRegexp ? `(?<!${word})(?:${joined})(?!${word})` : joined;
  const flags = "gv" + (ignoreCase ? "i" : "");
  compileOrRefuse(source, flags, options.patterns);
  const literals = options.prefilter === false
    ? undefined
    : prefilterLiterals(options, compiled, ignoreCase);
  return {
    source,
    flags,
    multiline: !!options.multiline,
    literals: literals ?? [],
    literalsIgnoreCase: literals !== undefined && ignoreCase,
    linear: !!options.fixedStrings || compiled.every(({ tree }) => tree && plainText(tree)),
  };
}

/** Whether a parsed pattern is characters and top-level alternatives only. */
function plainText(tree: AST.Pattern): boolean {
  return tree.alternatives.every((alternative) =>
    alternative.elements.every((element) => element.type === "Character")
  );
}

/** V8 may still refuse what regexpp parsed (e.g. a name used by two patterns' groups). */
function compileOrRefuse(source: string, flags: string, patterns: readonly string[]): void {
  try {
    new RegExp(source, flags);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError("LMS-QRY-001", `invalid regular expression: ${message}`, {
      note: `patterns: ${patterns.join(" | ")}`,
    });
  }
}
