/**
 * A regular-expression matcher whose time is linear in the text: a Pike VM (Thompson's
 * construction, every thread advanced in step, threads ordered by priority so the first match
 * found is JavaScript's leftmost-first one). It reads the `v`-mode sources the search emits
 * (`tools/search/rewrite.ts`) and gives the same matches as V8's backtracking engine, which can
 * take time exponential in the length of a line (`(a+)+$` over 40 `a`s and a `!`) and cannot be
 * interrupted on the thread that runs it, nor stopped in a worker (Deno 2.9 ends a terminated
 * worker only when its thread returns to the event loop). A matcher that must keep a time
 * budget or honour a cancel runs here instead, and checks its stop condition as it goes.
 *
 * Supported: characters, classes (any `v`-mode class, `\p{…}`, set operations), `.`,
 * alternation, groups (capturing ones only group), greedy and lazy quantifiers, the `i`
 * modifier of a group, and look-arounds whose body is one character or class (what the search
 * emits for `^`, `$`, `\b`, `\B` and `-w`). Backreferences and other look-arounds need
 * backtracking: {@linkcode compileLinear} refuses them with {@linkcode UnsupportedPattern}.
 *
 * @module
 */
import { type AST, RegExpParser } from "@eslint-community/regexpp";

/** A pattern the linear matcher cannot run (a backreference, a look-around of more than one character, too large). */
export class UnsupportedPattern extends Error {
  /** Always `UnsupportedPattern`. */
  override name = "UnsupportedPattern";
}

/** What a stop check throws to end a match under way (a time budget passed, a call cancelled). */
export class MatchStopped extends Error {
  /** Always `MatchStopped`. */
  override name = "MatchStopped";
}

/** Most instructions a compiled pattern may have (counted repeats are spelled out). */
export const MAX_INSTRUCTIONS = 50_000;

/** Steps (one thread advanced one character) between two calls of the stop check. */
const CHECK_STEPS = 1 << 16;

const OP_SET = 0;
const OP_SPLIT = 1;
const OP_JUMP = 2;
const OP_ASSERT = 3;
const OP_MATCH = 4;
const OP_FAIL = 5;

/** A set of code points, as V8 matches one character against a class or character. */
class CharSet {
  readonly #ascii = new Uint8Array(128);
  readonly #other = new Map<number, boolean>();
  readonly #regex: RegExp;

  constructor(source: string, ignoreCase: boolean) {
    this.#regex = new RegExp(`^(?:${source})$`, ignoreCase ? "vi" : "v");
    for (let code = 0; code < 128; code++) {
      this.#ascii[code] = this.#regex.test(String.fromCharCode(code)) ? 1 : 0;
    }
  }

  has(code: number): boolean {
    if (code < 128) return this.#ascii[code] === 1;
    let known = this.#other.get(code);
    if (known === undefined) {
      known = this.#regex.test(String.fromCodePoint(code));
      this.#other.set(code, known);
    }
    return known;
  }
}

/** A one-character look-around: whether the character before (or after) is in `set`. */
interface Assertion {
  behind: boolean;
  negate: boolean;
  set: number;
}

/** The compiled program: parallel arrays of instructions, the sets and the assertions. */
interface Program {
  op: Int32Array;
  arg1: Int32Array;
  arg2: Int32Array;
  sets: CharSet[];
  assertions: Assertion[];
  /** The sets a match can start with, or `undefined` when one can start without a character. */
  firstSets: number[] | undefined;
}

/** Builds a program from the syntax tree. */
class Compiler {
  readonly op: number[] = [];
  readonly arg1: number[] = [];
  readonly arg2: number[] = [];
  readonly sets: CharSet[] = [];
  readonly assertions: Assertion[] = [];
  readonly #setIndex = new Map<string, number>();

  emit(op: number, arg1 = 0, arg2 = 0): number {
    if (this.op.length >= MAX_INSTRUCTIONS) {
      throw new UnsupportedPattern(`the pattern needs more than ${MAX_INSTRUCTIONS} instructions`);
    }
    this.op.push(op);
    this.arg1.push(arg1);
    this.arg2.push(arg2);
    return this.op.length - 1;
  }

  set(source: string, ignoreCase: boolean): number {
    const key = `${ignoreCase ? "i" : "-"}${source}`;
    let index = this.#setIndex.get(key);
    if (index === undefined) {
      index = this.sets.length;
      this.sets.push(new CharSet(source, ignoreCase));
      this.#setIndex.set(key, index);
    }
    return index;
  }

  alternatives(alternatives: AST.Alternative[], ignoreCase: boolean): void {
    if (alternatives.length === 1) {
      this.elements(alternatives[0].elements, ignoreCase);
      return;
    }
    // split L1, next; L1: a; jump end; next: split L2, next2; … last alternative.
    const jumps: number[] = [];
    for (const [index, alternative] of alternatives.entries()) {
      if (index < alternatives.length - 1) {
        const split = this.emit(OP_SPLIT);
        this.arg1[split] = this.op.length;
        this.elements(alternative.elements, ignoreCase);
        jumps.push(this.emit(OP_JUMP));
        this.arg2[split] = this.op.length;
      } else this.elements(alternative.elements, ignoreCase);
    }
    for (const jump of jumps) this.arg1[jump] = this.op.length;
  }

  elements(elements: AST.Element[], ignoreCase: boolean): void {
    for (const element of elements) this.element(element, ignoreCase);
  }

  element(node: AST.Element, ignoreCase: boolean): void {
    switch (node.type) {
      case "Character":
      case "CharacterSet":
      case "CharacterClass":
      case "ExpressionCharacterClass":
        // A character goes on to the next instruction unless a fresh copy redirects it.
        this.emit(OP_SET, this.characterSet(node, ignoreCase), this.op.length + 1);
        return;
      case "Group": {
        const modifiers = node.modifiers;
        const inner = modifiers?.add.ignoreCase
          ? true
          : modifiers?.remove?.ignoreCase
          ? false
          : ignoreCase;
        if (modifiers && (modifiers.add.dotAll || modifiers.remove?.dotAll)) {
          throw new UnsupportedPattern("an `s` modifier (the search spells `.` out instead)");
        }
        if (modifiers && (modifiers.add.multiline || modifiers.remove?.multiline)) {
          throw new UnsupportedPattern("an `m` modifier (the search spells anchors out instead)");
        }
        this.alternatives(node.alternatives, inner);
        return;
      }
      case "CapturingGroup":
        this.alternatives(node.alternatives, ignoreCase);
        return;
      case "Quantifier":
        this.quantifier(node, ignoreCase);
        return;
      case "Assertion":
        this.assertion(node, ignoreCase);
        return;
      case "Backreference":
        throw new UnsupportedPattern("a backreference needs a backtracking matcher");
    }
    throw new UnsupportedPattern(`unsupported syntax ${(node as AST.Node).raw}`);
  }

  characterSet(node: AST.Node, ignoreCase: boolean): number {
    if (node.type === "CharacterClass" && node.unicodeSets && mayMatchStrings(node)) {
      throw new UnsupportedPattern("a class that matches strings (`\\q{…}`)");
    }
    if (node.type === "ExpressionCharacterClass" && mayMatchStrings(node)) {
      throw new UnsupportedPattern("a class that matches strings (`\\q{…}`)");
    }
    return this.set(node.raw, ignoreCase);
  }

  /**
   * A quantifier: its `min` copies, then its optional iterations, as a loop when `max` is
   * unbounded. JavaScript fails an optional iteration that matches nothing (ES RepeatMatcher's
   * empty check), where a Pike VM would let it end the iteration; so an optional iteration of
   * a body that can match nothing enters a "fresh" copy of the body, whose characters lead into
   * the ordinary copy and whose end without one fails. That also leaves no cycle of steps that
   * read nothing, on which the VM's one-visit-per-position rule would lose the order of threads.
   */
  quantifier(node: AST.Quantifier, ignoreCase: boolean): void {
    const { min, max, greedy } = node;
    for (let i = 0; i < min; i++) this.element(node.element, ignoreCase);
    if (max === min) return;
    const nullable = matchesEmpty(node.element);
    const iteration = () => {
      // split body, end (greedy; the other way round when lazy).
      const split = this.emit(OP_SPLIT);
      const body = this.op.length;
      this.element(node.element, ignoreCase);
      const after = this.emit(OP_JUMP);
      let entry = body;
      if (nullable) {
        entry = this.op.length;
        this.freshCopy(node.element, ignoreCase, body, entry);
      }
      return { split, entry, after };
    };
    if (max === Infinity) {
      const { split, entry, after } = iteration();
      this.arg1[after] = split;
      this.orderSplit(split, entry, this.op.length, greedy);
      return;
    }
    const iterations = Array.from({ length: max - min }, iteration);
    const end = this.op.length;
    for (const [index, { split, entry, after }] of iterations.entries()) {
      this.arg1[after] = iterations[index + 1]?.split ?? end;
      this.orderSplit(split, entry, end, greedy);
    }
  }

  /** Points `split` at `body` first when greedy, at `end` first when lazy. */
  orderSplit(split: number, body: number, end: number, greedy: boolean): void {
    this.arg1[split] = greedy ? body : end;
    this.arg2[split] = greedy ? end : body;
  }

  /**
   * Emits at `fresh` a copy of `element` (already emitted at `ordinary`, same layout) whose
   * characters continue in the ordinary copy and whose end fails.
   */
  freshCopy(element: AST.Element, ignoreCase: boolean, ordinary: number, fresh: number): void {
    this.element(element, ignoreCase);
    const end = this.emit(OP_FAIL);
    for (let pc = fresh; pc < end; pc++) {
      if (this.op[pc] === OP_SET) this.arg2[pc] = this.arg2[pc] - fresh + ordinary;
    }
  }

  assertion(node: AST.Assertion, ignoreCase: boolean): void {
    if (node.kind !== "lookahead" && node.kind !== "lookbehind") {
      // The search spells these as look-arounds; a bare one would depend on flags (`m`).
      throw new UnsupportedPattern(`the assertion ${node.raw}`);
    }
    const body = node.alternatives;
    const element = body.length === 1 && body[0].elements.length === 1
      ? body[0].elements[0]
      : undefined;
    const single = element && (element.type === "Character" ||
      element.type === "CharacterSet" || element.type === "CharacterClass" ||
      element.type === "ExpressionCharacterClass");
    if (!element || !single) {
      throw new UnsupportedPattern("a look-around of more than one character");
    }
    this.assertions.push({
      behind: node.kind === "lookbehind",
      negate: node.negate,
      set: this.characterSet(element, ignoreCase),
    });
    this.emit(OP_ASSERT, this.assertions.length - 1);
  }
}

/** Whether a `v`-mode class may match a string of more than one character. */
function mayMatchStrings(node: AST.Node): boolean {
  if (node.type === "ClassStringDisjunction") return true;
  if (node.type === "CharacterSet" && node.kind === "property" && node.strings) return true;
  const children: AST.Node[] = node.type === "CharacterClass"
    ? node.elements
    : node.type === "ExpressionCharacterClass"
    ? [node.expression]
    : node.type === "ClassIntersection" || node.type === "ClassSubtraction"
    ? [node.left, node.right]
    : [];
  return children.some(mayMatchStrings);
}

/** Whether `node` can match without reading a character. */
function matchesEmpty(node: AST.Node): boolean {
  switch (node.type) {
    case "Character":
    case "CharacterSet":
    case "CharacterClass":
    case "ExpressionCharacterClass":
      return false;
    case "Assertion":
      return true;
    case "Quantifier":
      return node.min === 0 || matchesEmpty(node.element);
    case "Group":
    case "CapturingGroup":
      return node.alternatives.some((alternative) => alternative.elements.every(matchesEmpty));
    default:
      return false;
  }
}

/** The sets a match can start with, or `undefined` when an empty match is possible at start. */
function firstSets(program: Omit<Program, "firstSets">): number[] | undefined {
  const seen = new Set<number>();
  const sets = new Set<number>();
  const stack = [0];
  while (stack.length) {
    const pc = stack.pop()!;
    if (seen.has(pc)) continue;
    seen.add(pc);
    switch (program.op[pc]) {
      case OP_SET:
        sets.add(program.arg1[pc]);
        break;
      case OP_SPLIT:
        stack.push(program.arg1[pc], program.arg2[pc]);
        break;
      case OP_JUMP:
        stack.push(program.arg1[pc]);
        break;
      case OP_FAIL:
        break;
      default:
        // An assertion or a match at the start: the skip would need the context of each place.
        return undefined;
    }
  }
  return [...sets];
}

const parser = new RegExpParser({ ecmaVersion: 2025 });

/**
 * Compiles a `v`-mode regular expression source (flags `i` or none) for
 * {@linkcode LinearRegExp}, or throws {@linkcode UnsupportedPattern}. A source V8 refuses is
 * refused the same way here (a `SyntaxError`).
 */
function compileLinear(source: string, ignoreCase: boolean): Program {
  const tree = parser.parsePattern(source, 0, source.length, { unicodeSets: true });
  const compiler = new Compiler();
  compiler.alternatives(tree.alternatives, ignoreCase);
  compiler.emit(OP_MATCH);
  const program = {
    op: Int32Array.from(compiler.op),
    arg1: Int32Array.from(compiler.arg1),
    arg2: Int32Array.from(compiler.arg2),
    sets: compiler.sets,
    assertions: compiler.assertions,
  };
  return { ...program, firstSets: firstSets(program) };
}

/**
 * What the program reaches from an instruction without reading a character: its characters and
 * matches (the "leaves"), in priority order, each at most once per position. Shared by the Pike
 * VM (which tests look-arounds) and the lazy DFA (which takes them as holding).
 */
class Closure {
  /** The leaves of the last {@linkcode Closure.reach}. */
  readonly leaves: Int32Array;
  readonly #program: Program;
  readonly #holds: ((assertion: number, text: string, index: number) => boolean) | undefined;
  readonly #visited: Int32Array;
  readonly #stack: Int32Array;
  #generation = 0;

  /** A closure of `program`; `holds` tests a look-around (absent: every one holds). */
  constructor(
    program: Program,
    holds?: (assertion: number, text: string, index: number) => boolean,
  ) {
    const size = program.op.length;
    this.#program = program;
    this.#holds = holds;
    this.leaves = new Int32Array(size);
    this.#visited = new Int32Array(size).fill(-1);
    this.#stack = new Int32Array(size * 2 + 2);
  }

  /** A new position: what was reached at the last one may be reached again. */
  nextPosition(): void {
    this.#generation++;
  }

  /**
   * Writes the leaves reached from `pc` at `index` of `text`, not reached before at this
   * position, to `leaves`, and returns how many.
   */
  reach(pc: number, text: string, index: number): number {
    const { op, arg1, arg2 } = this.#program;
    const visited = this.#visited;
    const generation = this.#generation;
    const stack = this.#stack;
    let top = 0;
    let count = 0;
    stack[top++] = pc;
    while (top > 0) {
      const at = stack[--top];
      if (visited[at] === generation) continue;
      visited[at] = generation;
      switch (op[at]) {
        case OP_JUMP:
          stack[top++] = arg1[at];
          break;
        case OP_SPLIT:
          stack[top++] = arg2[at];
          stack[top++] = arg1[at];
          break;
        case OP_ASSERT:
          if (!this.#holds || this.#holds(arg1[at], text, index)) stack[top++] = at + 1;
          break;
        case OP_FAIL:
          break;
        default:
          this.leaves[count++] = at;
      }
    }
    return count;
  }

  /** Whether `pc` was reached at this position (marking it so). */
  claim(pc: number): boolean {
    if (this.#visited[pc] === this.#generation) return false;
    this.#visited[pc] = this.#generation;
    return true;
  }
}

/** Most states the lazy DFA keeps; past it the cache starts afresh (RE2's rule). */
const MAX_DFA_STATES = 2_000;

/**
 * A lazy DFA over the program that says whether a stretch of text may hold a match: each state
 * is the set of characters and matches the NFA can be at after the text read so far, with a new
 * start at every position, built on first need. Look-arounds are taken as holding (the answer
 * may be a false yes, never a false no), so only the Pike VM decides what matches; where it says
 * no, a stretch costs a table lookup a character.
 */
class LazyDfa {
  /** Whether some character class holds `\n`: a match may then cross lines. */
  readonly crossesLines: boolean;
  readonly #program: Program;
  readonly #stop: (() => void) | undefined;
  /** Characters read since the stop check was last called. */
  #read = 0;
  /** Bumped when the cache starts afresh: state numbers of an older epoch mean nothing. */
  #epoch = 0;
  /** The start state in the current epoch, or -1. */
  #startState = -1;
  /** Each state's NFA instructions (characters and matches), sorted. */
  #states: Int32Array[] = [];
  #accepting: boolean[] = [];
  /** ASCII transitions: 128 entries a state, -1 until computed. */
  #ascii: Int32Array[] = [];
  /** Other transitions, by code point. */
  #other: Map<number, number>[] = [];
  readonly #index = new Map<string, number>();
  readonly #closure: Closure;
  /** The start's closure (added at every position: the search is unanchored). */
  readonly #start: number[];

  constructor(program: Program, stop: (() => void) | undefined) {
    this.#program = program;
    this.#stop = stop;
    this.crossesLines = program.sets.some((set) => set.has(0x0a));
    this.#closure = new Closure(program);
    this.#closure.nextPosition();
    this.#start = [];
    this.#close(0, this.#start);
  }

  /** Adds the characters and matches reachable from `pc` without reading to `into`. */
  #close(pc: number, into: number[]): void {
    const count = this.#closure.reach(pc, "", 0);
    for (let i = 0; i < count; i++) into.push(this.#closure.leaves[i]);
  }

  /** The state of the sorted instruction set `pcs`, added when new. */
  #state(pcs: number[]): number {
    pcs.sort((a, b) => a - b);
    const key = pcs.join(",");
    let state = this.#index.get(key);
    if (state !== undefined) return state;
    if (this.#states.length >= MAX_DFA_STATES) this.#reset();
    state = this.#states.length;
    this.#states.push(Int32Array.from(pcs));
    this.#accepting.push(pcs.some((pc) => this.#program.op[pc] === OP_MATCH));
    this.#ascii.push(new Int32Array(128).fill(-1));
    this.#other.push(new Map());
    this.#index.set(key, state);
    return state;
  }

  #reset(): void {
    this.#states = [];
    this.#accepting = [];
    this.#ascii = [];
    this.#other = [];
    this.#index.clear();
    this.#epoch++;
    this.#startState = -1;
  }

  /** The state after reading `code` in `state` (computed at the cost of one Pike VM step). */
  #next(state: number, code: number): number {
    const { op, arg1, arg2, sets } = this.#program;
    this.#closure.nextPosition();
    const pcs: number[] = [];
    for (const pc of this.#states[state]) {
      if (op[pc] === OP_SET && sets[arg1[pc]].has(code)) this.#close(arg2[pc], pcs);
    }
    for (const pc of this.#start) if (this.#closure.claim(pc)) pcs.push(pc);
    const epoch = this.#epoch;
    const next = this.#state(pcs);
    // A reset inside #state dropped `state`: the transition is not kept then.
    if (epoch === this.#epoch) {
      if (code < 128) this.#ascii[state][code] = next;
      else this.#other[state].set(code, next);
    }
    return next;
  }

  /** Whether a match may lie in `text[from, end)` (starting and ending inside it). */
  mayMatch(text: string, from: number, end: number): boolean {
    if (this.#startState < 0) this.#startState = this.#state([...this.#start]);
    let state = this.#startState;
    if (this.#accepting[state]) return true;
    for (let index = from; index < end;) {
      let code = text.charCodeAt(index);
      let width = 1;
      if (code >= 0xd800 && code <= 0xdbff) {
        code = codePointAt(text, index);
        width = code > 0xffff ? 2 : 1;
      }
      let next = code < 128 ? this.#ascii[state][code] : this.#other[state].get(code) ?? -1;
      if (next < 0) next = this.#next(state, code);
      state = next;
      if (this.#accepting[state]) return true;
      index += width;
      if (++this.#read >= CHECK_STEPS) {
        this.#read = 0;
        this.#stop?.();
      }
    }
    return false;
  }
}

/** A list of threads (instruction and match start) with constant-time membership by instruction. */
class ThreadList {
  readonly pcs: Int32Array;
  readonly starts: Int32Array;
  size = 0;

  constructor(length: number) {
    this.pcs = new Int32Array(length);
    this.starts = new Int32Array(length);
  }
}

/** Code point at `index` of `text` (a lone surrogate is its own code point). */
function codePointAt(text: string, index: number): number {
  const unit = text.charCodeAt(index);
  if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return ((unit - 0xd800) << 10) + next - 0xdc00 + 0x10000;
  }
  return unit;
}

/** The code point that ends just before `index`, or -1 at the start. */
function codePointBefore(text: string, index: number): number {
  if (index === 0) return -1;
  const unit = text.charCodeAt(index - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && index >= 2) {
    const lead = text.charCodeAt(index - 2);
    if (lead >= 0xd800 && lead <= 0xdbff) return ((lead - 0xd800) << 10) + unit - 0xdc00 + 0x10000;
  }
  return unit;
}

/** A match as `exec` gives it: where it starts and its text. */
export interface LinearMatch {
  /** Code-unit index of the match. */
  index: number;
  /** The matched text. */
  0: string;
}

/**
 * What the search needs of a global regular expression (`exec` from `lastIndex`): a V8
 * `RegExp` or a {@linkcode LinearRegExp}.
 */
export interface TextMatcher {
  /** Where the next `exec` starts; set past each match, 0 after a failure. */
  lastIndex: number;
  /** The leftmost-first match at or after `lastIndex`, or `null`. */
  exec(text: string): LinearMatch | null;
}

/**
 * A global regular expression (a `v`-mode source, flags `gv` or `gvi`) matched in linear time.
 * `exec` advances `lastIndex` as `RegExp.prototype.exec` does with the `g` flag; `stop` is
 * called every 65,536 steps and ends the match by throwing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LinearRegExp } from "./linear_regex.ts";
 * const regex = new LinearRegExp("(a+)+(?![^\\n])", "gv"); // the search's spelling of `(a+)+$`
 * assert.equal(regex.exec("a".repeat(40) + "!"), null); // at once
 * assert.equal(regex.exec("xaa")?.index, 1);
 * ```
 */
export class LinearRegExp implements TextMatcher {
  /** Where the next `exec` starts. */
  lastIndex = 0;
  readonly #program: Program;
  readonly #stop: (() => void) | undefined;
  readonly #closure: Closure;
  #clist: ThreadList;
  #nlist: ThreadList;
  #steps = 0;
  readonly #firstAscii: Uint8Array | undefined;
  readonly #dfa: LazyDfa;

  /**
   * Compiles `source` (throws {@linkcode UnsupportedPattern} for what needs backtracking, a
   * `SyntaxError` for what V8 refuses); `flags` must hold `g` and `v` and may hold `i`.
   */
  constructor(source: string, flags: string, stop?: () => void) {
    if (!flags.includes("g") || !flags.includes("v") || /[^giv]/.test(flags)) {
      throw new UnsupportedPattern(`flags ${flags} (only g, v and i are supported)`);
    }
    new RegExp(source, flags);
    this.#program = compileLinear(source, flags.includes("i"));
    this.#stop = stop;
    const size = this.#program.op.length;
    this.#closure = new Closure(
      this.#program,
      (assertion, text, index) => this.#holds(this.#program.assertions[assertion], text, index),
    );
    this.#clist = new ThreadList(size);
    this.#nlist = new ThreadList(size);
    this.#dfa = new LazyDfa(this.#program, stop);
    const first = this.#program.firstSets;
    if (first) {
      this.#firstAscii = new Uint8Array(128);
      for (let code = 0; code < 128; code++) {
        this.#firstAscii[code] = first.some((set) => this.#program.sets[set].has(code)) ? 1 : 0;
      }
    }
  }

  /** Whether the one-character look-around `assertion` holds at `index`. */
  #holds(assertion: Assertion, text: string, index: number): boolean {
    const code = assertion.behind
      ? codePointBefore(text, index)
      : index < text.length
      ? codePointAt(text, index)
      : -1;
    const inSet = code >= 0 && this.#program.sets[assertion.set].has(code);
    return assertion.negate ? !inSet : inSet;
  }

  /**
   * Adds the threads reached from `pc` at `index` without reading a character to `list`, in
   * priority order (the order a backtracking matcher would try them).
   */
  #follow(list: ThreadList, pc: number, start: number, text: string, index: number): void {
    const count = this.#closure.reach(pc, text, index);
    const leaves = this.#closure.leaves;
    for (let i = 0; i < count; i++) {
      list.pcs[list.size] = leaves[i];
      list.starts[list.size] = start;
      list.size++;
    }
  }

  /** Whether a match can start with the character at `index` (when the first sets are known). */
  #mayStart(text: string, index: number): boolean {
    const code = codePointAt(text, index);
    if (code < 128) return this.#firstAscii![code] === 1;
    const { sets, firstSets } = this.#program;
    return firstSets!.some((set) => sets[set].has(code));
  }

  /** The leftmost-first match at or after `lastIndex`, advancing it as `RegExp` does. */
  exec(text: string): LinearMatch | null {
    const from = this.lastIndex;
    if (from > text.length) {
      this.lastIndex = 0;
      return null;
    }
    const found = this.#find(text, from);
    if (!found) {
      this.lastIndex = 0;
      return null;
    }
    this.lastIndex = found[1];
    return { index: found[0], 0: text.slice(found[0], found[1]) };
  }

  /**
   * The first match from `from`. The lazy DFA rules out, at a few steps a character, stretches
   * with no match (each line, when no match can cross one); the Pike VM finds the exact match
   * only where the DFA says there may be one.
   */
  #find(text: string, from: number): [number, number] | undefined {
    if (this.#dfa.crossesLines) {
      return this.#dfa.mayMatch(text, from, text.length)
        ? this.#search(text, from, text.length)
        : undefined;
    }
    for (let start = from; start <= text.length;) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      if (this.#dfa.mayMatch(text, start, end)) {
        const found = this.#search(text, start, end);
        if (found) return found;
      }
      start = end + 1;
    }
    return undefined;
  }

  /**
   * The Pike VM from `from`: the leftmost-first match that starts before `limit` and reads no
   * character at or past it (look-arounds still see the whole text).
   */
  #search(text: string, from: number, limit: number): [number, number] | undefined {
    const { op, arg1, arg2, sets } = this.#program;
    const canSkip = this.#firstAscii !== undefined;
    let clist = this.#clist;
    let nlist = this.#nlist;
    clist.size = 0;
    let matchStart = -1;
    let matchEnd = -1;
    let index = from;
    for (;;) {
      if (matchStart < 0) {
        if (clist.size === 0) {
          // No thread left: a new start is the only one at this position.
          if (canSkip) {
            while (index < limit && !this.#mayStart(text, index)) {
              index += codePointAt(text, index) > 0xffff ? 2 : 1;
              this.#step();
            }
            if (index >= limit) break;
          }
          this.#closure.nextPosition();
        }
        // The start has the lowest priority: it joins the threads the step before reached here.
        this.#follow(clist, 0, index, text, index);
      }
      const code = index < limit ? codePointAt(text, index) : -1;
      const width = code > 0xffff ? 2 : 1;
      if (clist.size === 0) {
        // Nothing alive: done once a match is found or the text ends, else try the next start.
        if (matchStart >= 0 || code < 0) break;
        index += width;
        continue;
      }
      nlist.size = 0;
      this.#closure.nextPosition();
      for (let i = 0; i < clist.size; i++) {
        const pc = clist.pcs[i];
        if (op[pc] === OP_MATCH) {
          matchStart = clist.starts[i];
          matchEnd = index;
          break; // Lower-priority threads cannot give the leftmost-first match.
        }
        if (code >= 0 && sets[arg1[pc]].has(code)) {
          this.#follow(nlist, arg2[pc], clist.starts[i], text, index + width);
        }
        this.#step();
      }
      if (code < 0) break;
      [clist, nlist] = [nlist, clist];
      index += width;
    }
    this.#clist = clist;
    this.#nlist = nlist;
    return matchStart < 0 ? undefined : [matchStart, matchEnd];
  }

  /** Counts a step, and calls the stop check every CHECK_STEPS of them. */
  #step(): void {
    if (++this.#steps >= CHECK_STEPS) {
      this.#steps = 0;
      this.#stop?.();
    }
  }
}
