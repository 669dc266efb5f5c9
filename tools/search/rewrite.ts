/**
 * From a ripgrep-style pattern to the JavaScript regular expression a search runs. A pattern
 * is first brought into JavaScript spelling (POSIX classes, leading inline flags, ripgrep's
 * escapes), then parsed by `@eslint-community/regexpp` in `u` mode, and the syntax tree is
 * emitted again as a `v`-mode source with ripgrep's semantics:
 *
 * - only `\n` ends a line: `^`/`$` become lookarounds on `\n` (JavaScript's `m` flag also
 *   stops at `\r`, U+2028 and U+2029), `.` is `[^\n]`;
 * - no character class, `.`, or negated escape matches an invalid UTF-8 byte: the searcher
 *   decodes each such byte to a lone surrogate U+DC80–U+DCFF, and every class here excludes
 *   that range (and excludes `\n` unless matches may span lines, so nothing crosses a line);
 * - `\w`, `\d`, `\s`, `\b`, `\B` are Unicode, as ripgrep's (UTS #18 definitions);
 * - counted repetitions of one character or class are spelled out (`[A-Z]{3}` →
 *   `[A-Z][A-Z][A-Z]`): V8's Boyer-Moore lookahead does not see through a counted repeat.
 *
 * @module
 */
import type { AST } from "@eslint-community/regexpp";
import { ToolError } from "../../schema/diagnostic.ts";

/** A translated pattern and, for each of its UTF-16 units, the index it came from. */
export interface TranslatedPattern {
  /** The pattern in JavaScript spelling. */
  text: string;
  /** `origin[i]`: index in the user's pattern of `text[i]` (one more entry for the end). */
  origin: number[];
}

/** ripgrep's POSIX bracket classes (ASCII, as in Rust's regex) and their JavaScript spelling. */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** Escapes ripgrep accepts that JavaScript's `u` mode refuses, as JavaScript escapes. */
const META_ESCAPES: Readonly<Record<string, string>> = {
  "#": "\\x23",
  "&": "\\x26",
  "~": "\\x7E",
  "-": "\\x2D",
};

function propertyExists(body: string): boolean {
  try {
    new RegExp(`\\p{${body}}`, "u");
    return true;
  } catch {
    return false;
  }
}

/** `\p{Greek}` (ripgrep: a script) is `\p{Script=Greek}` in JavaScript. */
function propertyBody(body: string): string {
  if (body.includes("=") || propertyExists(body)) return body;
  return propertyExists(`Script=${body}`) ? `Script=${body}` : body;
}

/** The JavaScript spelling of the ripgrep escape at `pattern[i]` (a backslash), and its length. */
function translateEscape(pattern: string, i: number, inClass: boolean): [string, number] {
  const rest = pattern.slice(i + 1);
  const braced = /^([pP])\{([^}]*)\}/.exec(rest);
  if (braced) return [`\\${braced[1]}{${propertyBody(braced[2])}}`, 1 + braced[0].length];
  const single = /^([pP])([A-Za-z])/.exec(rest);
  if (single) return [`\\${single[1]}{${single[2]}}`, 3];
  const hex = /^x\{([0-9A-Fa-f]+)\}/.exec(rest);
  if (hex) return [`\\u{${hex[1]}}`, 1 + hex[0].length];
  const named = /^k<[^>]*>/.exec(rest);
  if (named) return [`\\${named[0]}`, 1 + named[0].length];
  const next = pattern[i + 1];
  if (next === undefined) return ["\\", 1];
  if (!(next === "-" && inClass) && META_ESCAPES[next] !== undefined) {
    return [META_ESCAPES[next], 2];
  }
  // A surrogate pair stays whole.
  const width = next.codePointAt(0)! > 0xffff ? 3 : 2;
  return [pattern.slice(i, i + width), width];
}

/**
 * Brings a ripgrep pattern into JavaScript spelling, keeping where each unit came from (so a
 * syntax error points into the user's pattern): POSIX bracket classes (`[[:alpha:]_]` →
 * `[A-Za-z_]`), a leading inline flag group (`(?i)abc` → `(?i:abc)`), `\x{41}` → `\u{41}`,
 * `\pL` → `\p{L}`, `\p{Greek}` → `\p{Script=Greek}`, and the meta escapes `\#`, `\&`, `\~`,
 * `\-`.
 */
export function translateWithOrigins(pattern: string): TranslatedPattern {
  let text = "";
  const origin: number[] = [];
  const put = (piece: string, from: number) => {
    text += piece;
    for (let k = 0; k < piece.length; k++) origin.push(from);
  };
  let classStart = -1;
  for (let i = 0; i < pattern.length;) {
    const char = pattern[i];
    if (char === "\\") {
      const [piece, length] = translateEscape(pattern, i, classStart !== -1);
      put(piece, i);
      i += length;
      continue;
    }
    const posix = classStart !== -1 ? /^\[:([a-z]+):\]/.exec(pattern.slice(i)) : null;
    if (posix && POSIX_CLASSES[posix[1]] !== undefined) {
      put(POSIX_CLASSES[posix[1]], i);
      i += posix[0].length;
      continue;
    }
    if (classStart === -1 && char === "[") {
      classStart = i;
      put(char, i);
      i++;
      // A `]` right after `[` or `[^` is a literal in ripgrep.
      if (pattern[i] === "^") put(pattern[i++], i - 1);
      if (pattern[i] === "]") {
        put("\\]", i);
        i++;
      }
      continue;
    }
    if (classStart !== -1 && char === "]") classStart = -1;
    put(char, i);
    i++;
  }
  origin.push(pattern.length);
  // `(?i)` and `(?i:` have the same length: only the closing `)` is new.
  const flags = /^\(\?([ims]+)\)/.exec(text);
  if (!flags) return { text, origin };
  return {
    text: `(?${flags[1]}:${text.slice(flags[0].length)})`,
    origin: [...origin, pattern.length],
  };
}

/**
 * Translates the ripgrep spellings JavaScript reads differently or refuses (see
 * {@linkcode translateWithOrigins}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { translateRipgrepSyntax } from "./rewrite.ts";
 * assert.equal(translateRipgrepSyntax("[[:digit:]]+"), "[0-9]+");
 * assert.equal(translateRipgrepSyntax("(?i)todo"), "(?i:todo)");
 * ```
 */
export function translateRipgrepSyntax(pattern: string): string {
  return translateWithOrigins(pattern).text;
}

/** The lone surrogates that stand for invalid UTF-8 bytes in decoded text (surrogateescape). */
export const ESCAPED_BYTES = "\\u{DC80}-\\u{DCFF}";

/** Unicode's `\w` (UTS #18, ripgrep's definition), as the body of a `v`-mode class. */
export const WORD_CLASS_BODY = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";

/** The longest repetition count spelled out. */
const MAX_SPELLED = 16;

/** Settings that change how a node is emitted. */
interface EmitContext {
  /** Matches may span lines (`-U`). */
  multiline: boolean;
  /** `.` matches `\n` (an `s` modifier is on). */
  dotAll: boolean;
  /** Added to every numbered backreference (patterns joined before this one). */
  groupOffset: number;
}

/** Characters no class may match here: escaped bytes, and `\n` unless matches span lines. */
function excluded(context: EmitContext): string {
  return context.multiline ? ESCAPED_BYTES : `\\n${ESCAPED_BYTES}`;
}

/** A single character, spelled so it means itself anywhere in a `v`-mode pattern. */
export function emitCharacter(value: number): string {
  if (/[0-9A-Za-z_]/.test(String.fromCharCode(value)) && value < 0x80) {
    return String.fromCharCode(value);
  }
  return `\\u{${value.toString(16).toUpperCase()}}`;
}

function refuse(message: string, node: AST.Node): never {
  throw new PatternFault(message, node.start);
}

/** A pattern ripgrep would refuse although JavaScript parses it; `index` is in the parsed text. */
export class PatternFault extends Error {
  /** Index in the parsed (translated) pattern. */
  readonly index: number;
  /** A fault `message` at `index`. */
  constructor(message: string, index: number) {
    super(message);
    this.index = index;
  }
}

function characterOperand(node: AST.Character, context: EmitContext): string {
  if (node.value >= 0xd800 && node.value <= 0xdfff) {
    refuse("a surrogate code point is not a character", node);
  }
  if (
    node.value === 0x0a && !context.multiline && node.parent.type !== "CharacterClass" &&
    node.parent.type !== "CharacterClassRange"
  ) {
    refuse("the literal \\n is not allowed without -U (multiline)", node);
  }
  return emitCharacter(node.value);
}

/** A `\d`, `\w`, `\s`, `\p{…}` or `.` as an operand of a `v`-mode class. */
function setOperand(node: AST.CharacterSet, context: EmitContext): string {
  switch (node.kind) {
    case "any":
      return context.dotAll ? "[^]" : "[^\\n]";
    case "digit":
      return node.negate ? "\\P{Nd}" : "\\p{Nd}";
    case "space":
      return node.negate ? "\\P{White_Space}" : "\\p{White_Space}";
    case "word":
      return node.negate ? `[^${WORD_CLASS_BODY}]` : `[${WORD_CLASS_BODY}]`;
    default: {
      const body = node.value === null ? node.key : `${node.key}=${node.value}`;
      return node.negate ? `\\P{${body}}` : `\\p{${body}}`;
    }
  }
}

function classOperand(node: AST.CharacterClass, context: EmitContext): string {
  const parts = node.elements.map((element) => {
    switch (element.type) {
      case "Character":
        return characterOperand(element, context);
      case "CharacterClassRange":
        return `${characterOperand(element.min, context)}-${
          characterOperand(element.max, context)
        }`;
      case "CharacterSet":
        return setOperand(element as AST.CharacterSet, context);
    }
    return refuse(`unsupported class element ${element.raw}`, element);
  });
  return `[${node.negate ? "^" : ""}${parts.join("")}]`;
}

/** A class-like atom: its operand less the characters no class may match. */
function classAtom(operand: string, context: EmitContext): string {
  return `[${operand}--[${excluded(context)}]]`;
}

function emitAlternatives(alternatives: AST.Alternative[], context: EmitContext): string {
  return alternatives.map((alternative) => emitElements(alternative.elements, context)).join(
    "|",
  );
}

function emitElements(elements: AST.Element[], context: EmitContext): string {
  return elements.map((element) => emitElement(element, context)).join("");
}

function quantifierSuffix(min: number, max: number, greedy: boolean): string {
  const lazy = greedy ? "" : "?";
  if (max === Infinity) {
    if (min === 0) return `*${lazy}`;
    if (min === 1) return `+${lazy}`;
    return `{${min},}${lazy}`;
  }
  if (min === 0 && max === 1) return `?${lazy}`;
  return min === max ? `{${min}}${lazy}` : `{${min},${max}}${lazy}`;
}

function emitQuantifier(node: AST.Quantifier, context: EmitContext): string {
  const atom = emitElement(node.element, context);
  const single = node.element.type === "Character" || node.element.type === "CharacterSet" ||
    node.element.type === "CharacterClass";
  if (!single || node.min > MAX_SPELLED || node.min === 0) {
    return atom + quantifierSuffix(node.min, node.max, node.greedy);
  }
  const rest = node.max - node.min;
  return atom.repeat(node.min) +
    (rest === 0 ? "" : atom + quantifierSuffix(0, rest, node.greedy));
}

/** `\b` (or `\B` when `negate`) with Unicode's word characters. */
function wordBoundary(negate: boolean): string {
  const word = `[${WORD_CLASS_BODY}]`;
  return negate
    ? `(?:(?<=${word})(?=${word})|(?<!${word})(?!${word}))`
    : `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`;
}

function emitAssertion(node: AST.Assertion, context: EmitContext): string {
  switch (node.kind) {
    case "start":
      return "(?<![^\\n])";
    case "end":
      return "(?![^\\n])";
    case "word":
      return wordBoundary(node.negate);
    case "lookahead":
      return `(?${node.negate ? "!" : "="}${emitAlternatives(node.alternatives, context)})`;
    case "lookbehind":
      return `(?<${node.negate ? "!" : "="}${emitAlternatives(node.alternatives, context)})`;
  }
}

function emitGroup(node: AST.Group, context: EmitContext): string {
  if (!node.modifiers) return `(?:${emitAlternatives(node.alternatives, context)})`;
  const { add, remove } = node.modifiers;
  const dotAll = add.dotAll ? true : remove?.dotAll ? false : context.dotAll;
  const inner = emitAlternatives(node.alternatives, { ...context, dotAll });
  // Only `i` is passed on: `s` is applied above, `m` is moot (anchors are lookarounds).
  const on = add.ignoreCase ? "i" : "";
  const off = remove?.ignoreCase ? "-i" : "";
  return on || off ? `(?${on}${off}:${inner})` : `(?:${inner})`;
}

function emitElement(node: AST.Element, context: EmitContext): string {
  switch (node.type) {
    case "Character":
      return characterOperand(node, context);
    case "CharacterSet":
      return classAtom(setOperand(node as AST.CharacterSet, context), context);
    case "CharacterClass":
      return classAtom(classOperand(node as AST.CharacterClass, context), context);
    case "Assertion":
      return emitAssertion(node, context);
    case "Quantifier":
      return emitQuantifier(node, context);
    case "Group":
      return emitGroup(node, context);
    case "CapturingGroup":
      return `(${node.name === null ? "" : `?<${node.name}>`}${
        emitAlternatives(node.alternatives, context)
      })`;
    case "Backreference":
      return typeof node.ref === "number"
        ? `\\${node.ref + context.groupOffset}`
        : `\\k<${node.ref}>`;
  }
  return refuse(`unsupported syntax ${node.raw}`, node);
}

/**
 * Emits a parsed pattern as a `v`-mode source with ripgrep's line and byte semantics (see the
 * module comment). Throws a {@linkcode PatternFault} for what ripgrep refuses.
 */
export function emitPattern(
  pattern: AST.Pattern,
  options: { multiline: boolean; groupOffset: number },
): string {
  return emitAlternatives(pattern.alternatives, { ...options, dotAll: false });
}

/** Emits literal text (`-F`) as a `v`-mode source. */
export function emitLiteral(text: string, multiline: boolean, index: number): string {
  let out = "";
  for (const char of text) {
    const value = char.codePointAt(0)!;
    if (value >= 0xd800 && value <= 0xdfff) {
      throw new ToolError("LMS-QRY-001", "a surrogate code point is not a character", {
        note: `pattern ${index + 1}`,
      });
    }
    if (value === 0x0a && !multiline) {
      throw new ToolError("LMS-QRY-001", "the literal \\n is not allowed without -U (multiline)", {
        note: `pattern ${index + 1}`,
      });
    }
    out += emitCharacter(value);
  }
  return out;
}

/** Counts the capturing groups of a parsed pattern (to offset later patterns' backreferences). */
export function countGroups(node: AST.Node): number {
  let count = node.type === "CapturingGroup" ? 1 : 0;
  const children: AST.Node[] = "alternatives" in node
    ? node.alternatives
    : "elements" in node
    ? (node.elements as AST.Node[])
    : node.type === "Quantifier"
    ? [node.element]
    : [];
  for (const child of children) count += countGroups(child);
  return count;
}
