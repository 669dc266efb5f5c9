/**
 * Function definitions of a C translation unit, read from its top-level tokens the way
 * universal-ctags reads them, with tree-sitter as the lexer and brace matcher.
 *
 * Tree-sitter parses C without its preprocessor, so kernel-style macros mislead it:
 * `static int __init f(void) {…}` becomes a declaration of `__init` and a "function" named
 * `void`; `for_each_cpu(cpu) {…}` inside a body becomes a nested function named `cpu`;
 * `SYSCALL_DEFINE3(read, …) {…}` becomes a call and a block. Its bodies, initialisers and
 * preprocessor branches are right, though, so this module walks the top level only (every
 * `{…}` it meets is skipped whole) and applies the lexical rule ctags applies: a body at file
 * scope preceded by a header that has a parameter list is a function, and its name is the
 * identifier before the first parenthesised group that looks like parameters (no literal in
 * it, which skips `__printf(1, 2)` and `__section(".x")`), looking into declarator groups
 * such as `(*f(void))`. Like ctags, the name of a definition wrapped in a macro is the macro's
 * (`SYSCALL_DEFINE3`), a loop macro in a body is no definition, the first branch of an
 * `#ifdef` that splits a header names it, `#if 0` branches are skipped, and an `extern "C" {`
 * block is file scope. One deliberate difference: a macro invoked on a line of its own without
 * `;` just before a function (`BTF_ID(func, f)`, `NOKPROBE_SYMBOL(f)`) is passed over and the
 * function is named, where ctags names the macro (`bench/ctags_agreement_bench.ts` counts them).
 *
 * @module
 */
import type { Node, TreeCursor } from "web-tree-sitter";

/** A function definition found at file scope, in UTF-16 code-unit indices of the source. */
export interface ScannedFunction {
  /** The function's name (a wrapping macro's name for `SYSCALL_DEFINE3(read, …) {…}`). */
  name: string;
  /** Start of its header (its first token). */
  start: number;
  /** End of its body. */
  end: number;
  /** Range of the name token. */
  nameStart: number;
  /** End of the name token. */
  nameEnd: number;
}

/** What a header token is, as far as the naming rule cares. */
const enum Tok {
  /** An identifier that may name a function. */
  Word,
  /** A keyword, primitive type or attribute introducer: never a name. */
  Keyword,
  Open,
  Close,
  /** `[` and `]`: a literal between them is an array size, not a macro argument. */
  OpenBracket,
  CloseBracket,
  /** A string, character or number literal: its group is not a parameter list. */
  Literal,
  /** `=` at file scope: an initialised variable, never a function. */
  Assign,
  /** The `;` of a K&R parameter declaration. */
  Semicolon,
  Other,
}

interface Token {
  tok: Tok;
  start: number;
  end: number;
}

/** Words that never name a function; the GNU attribute forms are skipped with their group. */
const NOT_NAMES = new Set([
  "auto",
  "bool",
  "char",
  "const",
  "double",
  "enum",
  "extern",
  "float",
  "inline",
  "int",
  "long",
  "register",
  "restrict",
  "return",
  "short",
  "signed",
  "sizeof",
  "static",
  "struct",
  "typedef",
  "typeof",
  "union",
  "unsigned",
  "void",
  "volatile",
  "_Alignas",
  "_Atomic",
  "_Bool",
  "_Noreturn",
  "_Static_assert",
  "__asm",
  "__asm__",
  "__attribute",
  "__attribute__",
  "__declspec",
  "__inline",
  "__inline__",
  "__restrict",
  "__typeof__",
  "asm",
  "if",
  "for",
  "while",
  "switch",
]);

/** Nodes that are balanced `{…}` blocks: skipped whole; a body when a header precedes it. */
const BODIES = new Set(["compound_statement"]);
/** Balanced blocks that are never bodies (struct members, enumerators, initialisers). */
const OTHER_BLOCKS = new Set(["field_declaration_list", "enumerator_list", "initializer_list"]);
/** Preprocessor lines that end any header before them. */
const DIRECTIVES = new Set([
  "preproc_include",
  "preproc_def",
  "preproc_function_def",
  "preproc_call",
]);
/** The tokens that open or continue a conditional group. */
const CONDITIONAL_TOKENS = new Set([
  "#if",
  "#ifdef",
  "#ifndef",
  "#elif",
  "#elifdef",
  "#else",
  "#endif",
]);
/** File-scope nodes that end with `;` when they parse without error. */
const STATEMENTS = new Set(["declaration", "type_definition", "expression_statement"]);
/** Conditional groups whose branches are read as if the directives were not there. */
const CONDITIONALS = new Set([
  "preproc_if",
  "preproc_ifdef",
  "preproc_elif",
  "preproc_elifdef",
  "preproc_else",
]);
/** Literals: a group holding one at its own level is a macro's arguments. */
const LITERALS = new Set([
  "string_literal",
  "char_literal",
  "number_literal",
  "concatenated_string",
]);
/** Leaves that may name a function (error recovery makes a name any of them). */
const WORDS = new Set(["identifier", "type_identifier", "field_identifier"]);

/**
 * The function definitions at file scope of the C tree `root` (a `translation_unit`), in
 * document order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createParser } from "./loader.ts";
 * import { scanFunctions } from "./c_functions.ts";
 * const parser = await createParser("c");
 * const tree = parser.parse("static int __init setup(void)\n{\n\treturn 0;\n}\n")!;
 * assert.deepEqual(scanFunctions(tree.rootNode).map((f) => f.name), ["setup"]);
 * tree.delete();
 * parser.delete();
 * ```
 */
export function scanFunctions(root: Node): ScannedFunction[] {
  const scanner = new HeaderScanner(root.text, root.startIndex);
  const cursor = root.walk();
  try {
    scanner.children(cursor);
  } finally {
    cursor.delete();
  }
  scanner.endOfInput(root.endIndex);
  return scanner.found;
}

/** Feeds the top-level tokens of a tree to the header rule. */
class HeaderScanner {
  readonly found: ScannedFunction[] = [];
  #source: string;
  /** Index of the source's first character (the root starts at its first token). */
  #base: number;
  #header: Token[] = [];
  /** Depth of loose `{` tokens (error recovery splits some bodies into bare braces). */
  #braces = 0;
  /** The function whose body opened with a loose `{`, until its `}`. */
  #open: ScannedFunction | undefined;
  /** End of the last directive's logical line: tokens before it belong to the directive. */
  #directiveEnd = 0;

  constructor(source: string, base: number) {
    this.#source = source;
    this.#base = base;
  }

  /**
   * Where the logical line that goes on at `index` ends: tree-sitter ends a `#define` at a
   * comment followed by a backslash-newline, the preprocessor does not.
   */
  #logicalLineEnd(index: number): number {
    const source = this.#source;
    let at = index - this.#base;
    if (source[at - 1] === "\n") return index;
    for (;;) {
      const newline = source.indexOf("\n", at);
      if (newline < 0) return source.length + this.#base;
      const line = source.slice(at, newline).trimEnd();
      if (!line.endsWith("\\")) return newline + this.#base;
      at = newline + 1;
    }
  }

  #text(start: number, end: number): string {
    return this.#source.slice(start - this.#base, end - this.#base);
  }

  /**
   * Visits every child of the cursor's node, leaving the cursor where it was; false for a
   * leaf.
   */
  children(cursor: TreeCursor): boolean {
    if (!cursor.gotoFirstChild()) return false;
    do this.#visit(cursor); while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return true;
  }

  /** A body left open at the end of the input ends there. */
  endOfInput(end: number): void {
    if (this.#open) this.#open.end = end;
  }

  #visit(cursor: TreeCursor): void {
    const type = cursor.nodeType;
    // A token error recovery invented (a missing `;`) is not in the source.
    if (type === "comment" || cursor.nodeIsMissing || cursor.endIndex <= this.#directiveEnd) return;
    if (type[0] === "#" && !cursor.nodeIsNamed) return this.#looseDirective(type, cursor.endIndex);
    if (BODIES.has(type) && clean(cursor)) return this.#block(cursor.startIndex, cursor.endIndex);
    if (this.#braces > 0) return this.#insideLooseBody(cursor);
    if (OTHER_BLOCKS.has(type)) return this.#push(Tok.Other, cursor);
    if (LITERALS.has(type)) return this.#push(Tok.Literal, cursor);
    if (DIRECTIVES.has(type)) {
      this.#header = [];
      this.#directiveEnd = this.#logicalLineEnd(cursor.endIndex);
      return;
    }
    if (CONDITIONALS.has(type)) return this.#conditional(cursor);
    if (type === "function_definition" && this.#header.length === 0 && this.#plain(cursor)) return;
    if (STATEMENTS.has(type) && !cursor.currentNode.hasError) {
      // It ends with its own `;`, which ends any header.
      this.#header = [];
      return;
    }
    if (!this.children(cursor)) this.#leaf(cursor, type);
  }

  /**
   * A directive that error recovery left as a bare token (`#define f(a, b...)`, whose GNU
   * variadic parameter tree-sitter does not know): the rest of its logical line is skipped,
   * and a directive other than a conditional ends any header, as a parsed one does.
   */
  #looseDirective(type: string, end: number): void {
    this.#directiveEnd = this.#logicalLineEnd(end);
    if (!CONDITIONAL_TOKENS.has(type)) this.#header = [];
  }

  /**
   * Records the function at the cursor if it parsed without error as `type name(…) {…}`
   * (pointers allowed), and nothing came before it: the tree's name is then the one the
   * token rule would give, at a fraction of the cost.
   */
  #plain(cursor: TreeCursor): boolean {
    const node = cursor.currentNode;
    if (node.hasError) return false;
    let declarator = node.childForFieldName("declarator");
    while (declarator?.type === "pointer_declarator") {
      declarator = declarator.childForFieldName("declarator");
    }
    if (declarator?.type !== "function_declarator") return false;
    const name = declarator.childForFieldName("declarator");
    if (name?.type !== "identifier") return false;
    this.found.push({
      name: this.#text(name.startIndex, name.endIndex),
      start: node.startIndex,
      end: node.endIndex,
      nameStart: name.startIndex,
      nameEnd: name.endIndex,
    });
    return true;
  }

  /** The branches of `#if…`, without the directives and their conditions. */
  #conditional(cursor: TreeCursor): void {
    if (!cursor.gotoFirstChild()) return;
    let skipped = false;
    do {
      const field = cursor.currentFieldName;
      if (field === "condition" || field === "name") {
        // `#if 0` hides its first branch from every compiler, and from ctags.
        skipped = field === "condition" && this.#text(cursor.startIndex, cursor.endIndex) === "0";
        continue;
      }
      if (cursor.nodeType.startsWith("#") || (skipped && field !== "alternative")) continue;
      this.#visit(cursor);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  /** A token at file scope: part of a header, or the `;`, `{` or `}` that ends one. */
  #leaf(cursor: TreeCursor, type: string): void {
    if (WORDS.has(type)) {
      const text = this.#text(cursor.startIndex, cursor.endIndex);
      return this.#push(NOT_NAMES.has(text) ? Tok.Keyword : Tok.Word, cursor);
    }
    switch (type) {
      case "(":
        return this.#push(Tok.Open, cursor);
      case ")":
        return this.#push(Tok.Close, cursor);
      case "[":
        return this.#push(Tok.OpenBracket, cursor);
      case "]":
        return this.#push(Tok.CloseBracket, cursor);
      case "=":
        return this.#push(Tok.Assign, cursor);
      case ";":
        return this.#semicolon(cursor);
      case "{":
        // `extern "C" {` (in a header, for C++ readers) holds file-scope definitions.
        if (isLinkage(this.#header)) this.#header = [];
        else {
          this.#braces = 1;
          this.#open = this.#function(cursor.startIndex, cursor.endIndex);
        }
        return;
      case "}":
        // A stray `}` at file scope closes nothing: it ends any header, like `;`.
        this.#header = [];
        return;
      default:
        // Named leaves here are types (`int`); anonymous words are keywords (`static`).
        this.#push(cursor.nodeIsNamed || /^[A-Za-z_]/.test(type) ? Tok.Keyword : Tok.Other, cursor);
    }
  }

  /** Inside a body opened by a loose `{`: only braces matter, and blocks are skipped. */
  #insideLooseBody(cursor: TreeCursor): void {
    const type = cursor.nodeType;
    if (type === "{" || type === "}") {
      this.#braces += type === "{" ? 1 : -1;
      if (this.#braces === 0 && this.#open) this.#open.end = cursor.endIndex;
      if (this.#braces === 0) this.#open = undefined;
      return;
    }
    // A subtree that parsed without error has matching braces: nothing in it counts.
    if (cursor.currentNode.hasError) this.children(cursor);
  }

  #push(tok: Tok, cursor: TreeCursor): void {
    this.#header.push({ tok, start: cursor.startIndex, end: cursor.endIndex });
  }

  /**
   * `;` ends a header, except the parameter declarations of a K&R definition
   * (`int f(a) int a; {`): a header with a parameter list that is not its last token.
   */
  #semicolon(cursor: TreeCursor): void {
    const header = this.#header;
    const last = header.at(-1);
    const lastGroup = header.findLastIndex((token) => token.tok === Tok.Close);
    const knr = last !== undefined && last.tok !== Tok.Close && lastGroup >= 0 &&
      !header.some((token) => token.tok === Tok.Assign) &&
      header.slice(lastGroup + 1).every((token) => token.tok !== Tok.Open);
    if (knr) this.#push(Tok.Semicolon, cursor);
    else this.#header = [];
  }

  /**
   * The test of {@linkcode nameIn} for `header`: the word starts a line, the group ends it,
   * the header goes on at the start of a later line, and a declarator with a type before it
   * follows (not only an annotation such as `__must_hold(&lock)` after the parameters). Never
   * in a K&R header, whose parameter declarations also start lines.
   */
  #macroLine(header: Token[]): MacroLine {
    const knr = header.some((token) => token.tok === Tok.Semicolon);
    return (word, close) => {
      const next = header[close + 1];
      return !knr && next !== undefined && this.#startsLine(header[word].start) &&
        this.#startsLine(next.start) && !this.#sameLine(header[close].end, next.start) &&
        typedDeclaratorAfter(header, close + 1);
    };
  }

  /** Whether `index` is at the start of a line. */
  #startsLine(index: number): boolean {
    const at = index - this.#base;
    return at === 0 || this.#source[at - 1] === "\n";
  }

  /** Whether no line ends between `from` and `to`. */
  #sameLine(from: number, to: number): boolean {
    return !this.#source.slice(from - this.#base, to - this.#base).includes("\n");
  }

  /** A balanced `{…}` node: the body of the function its header names, if any. */
  #block(start: number, end: number): void {
    if (this.#braces > 0) return;
    this.#function(start, end);
  }

  /** Records the function whose body spans `[bodyStart, end)`, if the header names one. */
  #function(bodyStart: number, end: number): ScannedFunction | undefined {
    const header = this.#header;
    this.#header = [];
    if (header.length === 0 || header.some((token) => token.tok === Tok.Assign)) return;
    // The definition starts after the macro lines passed over, if any.
    let first = 0;
    const macroLine = this.#macroLine(header);
    const name = nameIn(header, 0, header.length, (word, close) => {
      const passed = macroLine(word, close);
      if (passed) first = close + 1;
      return passed;
    });
    if (!name) return;
    const found: ScannedFunction = {
      name: this.#text(name.start, name.end),
      start: header[first].start,
      end: Math.max(end, bodyStart),
      nameStart: name.start,
      nameEnd: name.end,
    };
    this.found.push(found);
    return found;
  }
}

/**
 * Whether the block at the cursor parsed without error, so its braces match. Error recovery
 * may leave a block open to the end of the file, or close it at a later function's `}`
 * with its own `}` in an error node inside it: the braces of such a block are counted one by
 * one, as ctags counts them.
 */
function clean(cursor: TreeCursor): boolean {
  return !cursor.currentNode.hasError;
}

/** Whether `word(…)`, its group closing at `close`, is a line of its own in a header. */
type MacroLine = (word: number, close: number) => boolean;

/**
 * The name token of the declarator in `tokens[from, to)`: the word before the first group
 * that looks like parameters, or the name inside a declarator group (`(*f(void))`). A macro
 * invoked on a line of its own, without `;`, before the header (`BTF_ID(func, f)`,
 * `DEFINE_OUTPUT_COPY(a, b)`) is passed over.
 */
function nameIn(
  tokens: Token[],
  from: number,
  to: number,
  macroLine: MacroLine,
): Token | undefined {
  for (let i = from; i < to; i++) {
    if (tokens[i].tok !== Tok.Open) continue;
    const close = matching(tokens, i, to);
    const before = i > from ? tokens[i - 1] : undefined;
    if (before?.tok === Tok.Word) {
      if (looksLikeParameters(tokens, i + 1, close) && !macroLine(i - 1, close)) return before;
    } else if (before?.tok !== Tok.Keyword || !isAttribute(tokens, i)) {
      const inner = nameIn(tokens, i + 1, close, macroLine);
      if (inner) return inner;
    }
    i = close;
  }
  return undefined;
}

/** Whether `header` is `extern "C"`: a keyword and a string. */
function isLinkage(header: Token[]): boolean {
  return header.length === 2 && header[0].tok === Tok.Keyword && header[1].tok === Tok.Literal;
}

/** Whether a word and a group follow `from`, with a type or `*` (not a `)`) before the word. */
function typedDeclaratorAfter(tokens: Token[], from: number): boolean {
  for (let i = from + 1; i + 1 < tokens.length; i++) {
    if (tokens[i].tok !== Tok.Word || tokens[i + 1].tok !== Tok.Open) continue;
    const before = tokens[i - 1].tok;
    if (before === Tok.Word || before === Tok.Keyword || before === Tok.Other) return true;
  }
  return false;
}

/** Whether the group at `open` follows `__attribute__` or the like (never searched). */
function isAttribute(tokens: Token[], open: number): boolean {
  return tokens[open + 1]?.tok === Tok.Open;
}

/** Index of the `)` matching the `(` at `open`, or `to` when it is not closed. */
function matching(tokens: Token[], open: number, to: number): number {
  let depth = 0;
  for (let i = open; i < to; i++) {
    if (tokens[i].tok === Tok.Open) depth++;
    else if (tokens[i].tok === Tok.Close && --depth === 0) return i;
  }
  return to;
}

/** A parameter list names types and parameters; a literal means a macro's arguments. */
function looksLikeParameters(tokens: Token[], from: number, to: number): boolean {
  let brackets = 0;
  for (let i = from; i < to; i++) {
    const tok = tokens[i].tok;
    if (tok === Tok.OpenBracket) brackets++;
    else if (tok === Tok.CloseBracket) brackets--;
    else if (tok === Tok.Literal && brackets <= 0) return false;
  }
  return true;
}
