/**
 * The terms of a task, for `llm-context`: what an issue text (prose, code fences, tracebacks,
 * URLs, error messages) names, each with a kind, a weight and the place it came from, so the
 * ranking can start from them. Pure and deterministic: same text, same terms, in the same order.
 *
 * What it finds:
 *
 * - **code spans**: fenced blocks (with their language tag) and inline backticks; indented
 *   blocks and REPL lines (`>>>`, `In [1]:`) count as code too;
 * - **frames** of tracebacks (Python, IPython, pytest, Node, Java, Rust, Go: `frames.ts`), the
 *   frames closest to the error first;
 * - **paths**, with a line, column or line range when written (`x.py:12:4`, a GitHub blob URL's
 *   `#L10-L20`, "line 743 of x.py");
 * - **messages**: exception lines (`ValueError: …`, `error[E0308]: …`) and quoted strings that read
 *   as sentences, to be searched literally, with the pieces of them that are no values
 *   ({@linkcode messageFragments});
 * - **identifiers**: CamelCase, snake_case, SCREAMING_CASE, dotted (`a.b.c`) and `A::b` names, and
 *   called names (`f()`), whole, and each part of a dotted one; in code, every name that is no
 *   keyword;
 * - **words** for BM25: prose words lower-cased, stop-words out, and the sub-tokens of every
 *   identifier (`parse_args` → `parse`, `args`; `HTTPServerError` → `http`, `server`, `error`).
 *
 * URLs give no terms (a GitHub blob URL gives its file's path), nor do HTML comments, tags and
 * entities, markdown fence lines, or a pasted listing of versions (`numpy: 1.17.3`, …).
 *
 * **Weights** ({@linkcode TERM_WEIGHTS}) order what a task says by how precisely it points at
 * code, and are what the ranking multiplies its matches by. A frame names a file, a line and a
 * function that ran into the error: strongest (10 for the frame closest to the error, 0.5 less
 * for each frame further, down to 6), and the frame's file, as a path, its weight too. A path
 * written in the task names a file (7, 8 with a line or a range).
 * An exception's message is a literal that a `raise` somewhere holds (6); a quoted sentence may be
 * one (4). An identifier in code is a name the code has: 5 for a compound name (it is hardly an
 * English word), 4 for a plain one (2 for one of two characters, often an alias: `np`, `sp`); in
 * prose only compound or called names count, at 3.5 (4.5 in the title, the issue's one-line
 * summary). The qualifying parts of a dotted name (`a` and `b` of `a.b.f`) get 0.6 of it: the last
 * part is the name defined somewhere, the rest are modules and receivers. A frame's function gets
 * its frame's weight less 2. Words get 1 (1.5 in the title), and words of every issue ("error",
 * "expected", "version", …; {@linkcode ISSUE_WORDS}) or of a markdown heading 0.3: "error" does
 * name code, so they are kept, low. Each term keeps its best weight over its occurrences, with
 * that occurrence's offset, and counts them all.
 *
 * **Offsets** are UTF-16 code units of the task text (JavaScript string indices): the text at
 * `offset`, `length` long, is the term (words: lower-cased), or where it came from (a path: the
 * path as written; a frame: its path).
 *
 * **Bounds**: a text longer than `maxChars` (64 Ki code units) is read in two parts, its first
 * three quarters and its last quarter (where a log's error is), cut at line ends, and `truncated`
 * says so; at most `maxTerms` terms (1,000) are listed, the weakest left out and counted in
 * `dropped`; at most 500 frames and 500 code spans.
 *
 * @module
 */
import { findTracebacks, parseExceptionLine, pathSuffix, type Traceback } from "./frames.ts";
import {
  BUILTINS,
  CODE_EXTENSIONS,
  CODE_KEYWORDS,
  DOMAIN_ENDINGS,
  HTML_TAGS,
  ISSUE_WORDS,
  PRODUCT_NAMES,
  STOP_WORDS,
} from "./lexicon.ts";

export type { Frame, Traceback, TracebackLanguage } from "./frames.ts";

/** What a term is. */
export type TermKind = "frame" | "path" | "message" | "identifier" | "word";

/** Where in the task a term's occurrence (the one that gave it its weight) stands. */
export type TermContext = "title" | "prose" | "code" | "traceback" | "url";

/** One term of a task. */
export interface TaskTerm {
  /** What it is. */
  kind: TermKind;
  /**
   * What to search: a frame's `suffix:line`, a path from its likely repository root, a message
   * as written, an identifier as written (case kept), a word lower-cased.
   */
  value: string;
  /** How much a match of it counts ({@linkcode TERM_WEIGHTS}): the best of its occurrences. */
  weight: number;
  /** Code-unit offset in the task text of the occurrence that gave the weight. */
  offset: number;
  /** Its length in code units. */
  length: number;
  /** How many times the task has it. */
  count: number;
  /** Where that occurrence stands. */
  context: TermContext;
  /** Present when one of its occurrences is in the title (the issue's subject). */
  in_title?: true;
  /** Frames and paths: the path as written. */
  path?: string;
  /** Frames and paths: 1-based line, when given. */
  line?: number;
  /** Frames and paths: 1-based column, when given. */
  column?: number;
  /** Paths: last line of a range (`#L10-L20`). */
  end_line?: number;
  /** Frames: the function; paths: a pytest node's test (`x.py::test_f`). */
  function?: string;
  /** Frames: frames between it and the error (0: the innermost), the least over occurrences. */
  distance?: number;
  /** Identifiers: the lower-cased sub-tokens (`parse_args` → `parse`, `args`). */
  parts?: string[];
  /** Messages: the exception's type (`ValueError`), for an exception line. */
  exception?: string;
  /** Messages: the pieces of it that hold no value, each worth a literal search. */
  fragments?: string[];
}

/** A code span of the task: a fenced block or inline code. */
export interface CodeSpan {
  /** A fenced block, or inline backticks (indented blocks and REPL lines are code, no span). */
  kind: "fence" | "inline";
  /** A fence's language tag, lower-cased, when it has one (`python`, `py`, `rust`). */
  lang?: string;
  /** Code-unit offset of the content in the task text. */
  offset: number;
  /** Its length. */
  length: number;
  /** The content (between the fence lines; inside the backticks). */
  text: string;
}

/** The terms of a task text. */
export interface TaskTerms {
  /** The terms, deduplicated: by weight, then by offset, kind and value. */
  terms: TaskTerm[];
  /** The tracebacks, frames in the order written (not deduplicated). */
  tracebacks: Traceback[];
  /** The code spans, in the order of the text. */
  spans: CodeSpan[];
  /** Length of the task text in code units. */
  length: number;
  /** How many of them were read. */
  scanned: number;
  /** True when part of the text, or of what it holds, was left out (see the bounds). */
  truncated: boolean;
  /** Terms found but left out by `maxTerms`. */
  dropped: number;
}

/** Options of {@linkcode extractTerms}. */
export interface TermOptions {
  /** Most code units read (first three quarters, last quarter). Default 65,536, least 1,024. */
  maxChars?: number;
  /** Most terms listed. Default 1,000. */
  maxTerms?: number;
}

/** The weights of {@linkcode TaskTerm}s (see the module doc for why). */
export const TERM_WEIGHTS = {
  /** The frame closest to the error. */
  frameInnermost: 10,
  /** Taken off for each frame further from the error. */
  frameStep: 0.5,
  /** The least a frame weighs. */
  frameFloor: 6,
  /** A frame's function: its frame's weight less this. */
  frameFunctionLess: 2,
  /** A path with a line or a range. */
  pathWithLine: 8,
  /** A path. */
  path: 7,
  /** An exception line's message. */
  exceptionMessage: 6,
  /** A quoted string that reads as a sentence. */
  quotedMessage: 4,
  /** A compound identifier (or a dotted, called or attribute name) in code. */
  codeCompound: 5,
  /** A plain name in code. */
  codePlain: 4,
  /** A plain name of two characters in code. */
  codeShort: 2,
  /** A compound or called identifier in the title. */
  titleCompound: 4.5,
  /** A compound or called identifier in prose. */
  proseCompound: 3.5,
  /** Factor of the qualifying parts of a dotted name. */
  qualifierFactor: 0.6,
  /** A word in the title. */
  titleWord: 1.5,
  /** A word. */
  word: 1,
  /** A word common to issues, or in a markdown heading. */
  weakWord: 0.3,
} as const;

// Per-character classes of the text, in one Uint8Array: 0 (what it starts as) is prose.
const CODE = 1;
const SKIP = 2;
const HEADING = 3;
const TITLE = 4;

const DEFAULT_MAX_CHARS = 65_536;
const DEFAULT_MAX_TERMS = 1_000;
const MAX_SPANS = 500;
const MAX_FRAMES = 500;
/** Longest identifier, word or path chunk considered. */
const MAX_TOKEN = 300;

/**
 * The terms of a task text: frames, paths, messages, identifiers and words, each with its kind,
 * weight and offset, deduplicated and in a stable order; the tracebacks and code spans too.
 *
 * @example A title, a code fence and a traceback
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractTerms } from "./terms.ts";
 * const fence = "`".repeat(3);
 * const task = [
 *   "parse_args() fails on empty input",
 *   fence + "python",
 *   "cli.parse_args([])",
 *   fence,
 *   "Traceback (most recent call last):",
 *   '  File "/venv/lib/python3.11/site-packages/cli/main.py", line 12, in parse_args',
 *   "IndexError: list index out of range",
 * ].join("\n");
 * const { terms, tracebacks, spans } = extractTerms(task);
 * assert.deepEqual(terms.slice(0, 3).map((t) => [t.kind, t.value, t.weight]), [
 *   ["frame", "cli/main.py:12", 10],
 *   ["path", "cli/main.py", 10],
 *   ["identifier", "parse_args", 8],
 * ]);
 * assert.equal(terms.find((t) => t.kind === "message")?.value, "list index out of range");
 * assert.deepEqual(tracebacks[0].frames.map((f) => f.function), ["parse_args"]);
 * assert.deepEqual(spans.map((s) => [s.kind, s.lang, s.text]), [
 *   ["fence", "python", "cli.parse_args([])"],
 * ]);
 * ```
 */
export function extractTerms(text: string, options: TermOptions = {}): TaskTerms {
  const maxChars = Math.max(1_024, options.maxChars ?? DEFAULT_MAX_CHARS);
  const maxTerms = Math.max(0, options.maxTerms ?? DEFAULT_MAX_TERMS);
  const state: ScanState = {
    terms: new Map(),
    tracebacks: [],
    spans: [],
    frames: 0,
    cut: false,
  };
  let scanned = text.length;
  if (text.length <= maxChars) scanPart(state, text, 0, true);
  else {
    const head = cutAtLineEnd(text, Math.floor(maxChars * 3 / 4));
    const tail = cutAfterLineEnd(text, text.length - (maxChars - head));
    scanPart(state, text.slice(0, head), 0, true);
    scanPart(state, text.slice(tail), tail, false);
    scanned = head + text.length - tail;
    state.cut = true;
  }
  const all = [...state.terms.values()].sort(byWeight);
  const terms = all.slice(0, maxTerms);
  return {
    terms,
    tracebacks: state.tracebacks,
    spans: state.spans,
    length: text.length,
    scanned,
    truncated: state.cut || all.length > terms.length,
    dropped: all.length - terms.length,
  };
}

/** The end of the head part: after the last `\n` of its last KiB, else `limit`. */
function cutAtLineEnd(text: string, limit: number): number {
  const newline = text.lastIndexOf("\n", limit - 1);
  return newline >= limit - 1_024 ? newline + 1 : limit;
}

/** The start of the tail part: after the first `\n` of its first KiB, else `from`. */
function cutAfterLineEnd(text: string, from: number): number {
  const newline = text.indexOf("\n", from);
  return newline >= 0 && newline < from + 1_024 ? newline + 1 : from;
}

/** Highest weight first, then earliest, then kind and value: a total order. */
function byWeight(a: TaskTerm, b: TaskTerm): number {
  return b.weight - a.weight || a.offset - b.offset ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

const KIND_ORDER: Record<TermKind, number> = {
  frame: 0,
  path: 1,
  message: 2,
  identifier: 3,
  word: 4,
};

/** What the scans of the parts of a text share. */
interface ScanState {
  terms: Map<string, TaskTerm>;
  tracebacks: Traceback[];
  spans: CodeSpan[];
  frames: number;
  cut: boolean;
}

/** Adds an occurrence: a new term, or a count (and maybe a better weight) for a known one. */
function addTerm(state: ScanState, term: Omit<TaskTerm, "count">): void {
  if (!(term.weight > 0) || term.value === "") return;
  const key = `${term.kind}\u0000${term.value}`;
  const known = state.terms.get(key);
  const titled = term.context === "title" ? { in_title: true as const } : {};
  if (known === undefined) {
    state.terms.set(key, { ...term, count: 1, ...titled });
    return;
  }
  const inTitle = known.in_title || term.context === "title";
  const count = known.count + 1;
  const distance = known.distance === undefined || term.distance === undefined
    ? known.distance ?? term.distance
    : Math.min(known.distance, term.distance);
  if (term.weight > known.weight) {
    state.terms.set(key, {
      ...term,
      count,
      ...(distance === undefined ? {} : { distance }),
      ...(inTitle ? { in_title: true as const } : {}),
    });
  } else {
    known.count = count;
    if (distance !== undefined) known.distance = distance;
    if (inTitle) known.in_title = true;
  }
}

/** One part of the text (all of it, or the head or the tail), at `base` in the whole. */
function scanPart(state: ScanState, text: string, base: number, withTitle: boolean): void {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const mask = new Uint8Array(text.length);
  markRegions(state, text, base, lineStarts, mask, withTitle);
  const tracebacks = markFrames(state, text, base, lineStarts, mask);
  markUrls(state, text, base, mask);
  findMessages(state, text, base, lineStarts, mask);
  markPaths(state, text, base, mask);
  scanTokens(state, text, base, mask, 0, text.length);
  for (const traceback of tracebacks) {
    for (const frame of traceback.frames) {
      if (frame.function === undefined || frame.function_offset === undefined) continue;
      const local = frame.function_offset - base;
      const weight = frameWeight(frame.distance) - TERM_WEIGHTS.frameFunctionLess;
      scanTokens(state, text, base, mask, local, local + frame.function.length, weight);
    }
  }
}

/** A line of a part: `[start, end)` without its `\n` and a `\r` before it. */
function lineBounds(text: string, lineStarts: readonly number[], index: number): [number, number] {
  const start = lineStarts[index];
  let end = index + 1 < lineStarts.length ? lineStarts[index + 1] - 1 : text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return [start, end];
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)/;
const HEADING_LINE = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const PROMPT =
  /^[ \t]*(?:>>>|\.\.\.)(?= |$)|^[ \t]*(?:In|Out) ?\[\d*\]: ?|^[ \t]*(?:[\w.-]{1,40}@[\w.-]{1,80}:[^\s#$]{0,200}[#$]|\$) (?=\S)/;
const INDENTED = /^(?: {4}|\t)/;
const ENV_LINE = /^[ \t]*\w[\w.() -]{0,39}:(?:[ \t].{0,100})?$/;
const HTML_TAG = /<\/?([A-Za-z][A-Za-z0-9]*)\b[^<>\n]{0,300}>/g;
const ENTITY = /&(?:[A-Za-z]{2,8}|#\d{1,7}|#[xX][0-9A-Fa-f]{1,6});/g;

/**
 * Marks each character prose, code, heading, title or skipped: fences (their marker lines
 * skipped), inline code (its backticks skipped), indented code, REPL lines, HTML comments, tags
 * and entities, version listings. Records the code spans.
 */
function markRegions(
  state: ScanState,
  text: string,
  base: number,
  lineStarts: readonly number[],
  mask: Uint8Array,
  withTitle: boolean,
): void {
  let fence: { char: string; size: number; lang: string; content: number } | undefined;
  let inComment = false;
  let previous: "blank" | "code" | "prose" = "blank";
  const closeFence = (end: number) => {
    if (fence === undefined) return;
    const content = Math.min(fence.content, end);
    addSpan(state, {
      kind: "fence",
      ...(fence.lang === "" ? {} : { lang: fence.lang }),
      offset: base + content,
      length: end - content,
      text: text.slice(content, end),
    });
    fence = undefined;
  };
  const proseLines: number[] = [];
  for (let index = 0; index < lineStarts.length; index++) {
    const [start, end] = lineBounds(text, lineStarts, index);
    const body = text.slice(start, Math.min(end, start + 1_000));
    if (fence !== undefined) {
      const close = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(body);
      if (close !== null && close[1][0] === fence.char && close[1].length >= fence.size) {
        closeFence(
          Math.max(fence.content, start - 1 - (text.charCodeAt(start - 2) === 13 ? 1 : 0)),
        );
        mask.fill(SKIP, start, end);
      } else if (BANNER.test(body)) mask.fill(SKIP, start, end);
      else {
        const prompt = PROMPT.exec(body);
        const from = start + (prompt === null ? 0 : prompt[0].length);
        mask.fill(SKIP, start, from);
        markCode(text, mask, from, end);
      }
      continue;
    }
    if (inComment) {
      const close = text.indexOf("-->", start);
      if (close < 0 || close >= end) {
        mask.fill(SKIP, start, end);
        continue;
      }
      mask.fill(SKIP, start, close + 3);
      inComment = false;
    }
    const open = FENCE_OPEN.exec(body);
    if (open !== null) {
      mask.fill(SKIP, start, end);
      fence = {
        char: open[1][0],
        size: open[1].length,
        lang: open[2].toLowerCase().slice(0, 40),
        content: index + 1 < lineStarts.length ? lineStarts[index + 1] : text.length,
      };
      previous = "blank";
      continue;
    }
    const blank = body.trim() === "";
    if (blank) {
      previous = "blank";
      continue;
    }
    if (withTitle && index === 0) {
      mask.fill(TITLE, start, end);
      markInline(state, text, base, mask, start, end);
      previous = "prose";
      continue;
    }
    const prompt = PROMPT.exec(body);
    if (prompt !== null) {
      mask.fill(SKIP, start, start + prompt[0].length);
      markCode(text, mask, start + prompt[0].length, end);
      previous = "code";
      continue;
    }
    if (INDENTED.test(body) && previous !== "prose") {
      markCode(text, mask, start, end);
      previous = "code";
      continue;
    }
    previous = "prose";
    if (HEADING_LINE.test(body)) mask.fill(HEADING, start, end);
    else proseLines.push(index);
    markInline(state, text, base, mask, start, end);
    inComment = markComments(text, mask, start, end);
  }
  if (fence !== undefined) closeFence(text.length);
  markListings(text, lineStarts, mask, proseLines);
  for (const m of text.matchAll(BOILERPLATE)) mask.fill(SKIP, m.index, m.index + m[0].length);
}

/** Python's and IPython's words between the parts of a traceback, and its pseudo-names. */
const BOILERPLATE =
  /<ipython-input-[\w-]{0,80}>|<(?:module|listcomp|genexpr|lambda|dictcomp|setcomp|stdin|string|cell line: \d+)>|Traceback \(most recent call last\):?|During handling of the above exception, another exception occurred:?|The above exception was the direct cause of the following exception:?/g;
/** The start-up lines of a Python or IPython session pasted in a fence: no terms. */
const BANNER =
  /^(?:Python \d+\.\d+\.\d+\b.*|\[(?:GCC|Clang|MSC) .*\] on \w+|Type "(?:help|copyright)".*|IPython \d+\.\d+.*|(?:\?|%quickref|help|object\?) +-> .*)$/;
/** Where a code line's comment starts: `# ` or `//` after a space or at the start. */
const COMMENT = /(?:^|[ \t])(?:#(?=[ \t#]|$)|\/\/)/;

/** A code line: code up to its comment, prose after it. */
function markCode(text: string, mask: Uint8Array, start: number, end: number): void {
  const comment = COMMENT.exec(text.slice(start, Math.min(end, start + 1_000)));
  const split = comment === null ? end : start + comment.index + comment[0].length;
  mask.fill(CODE, start, split);
}

/** Inline code, HTML tags and entities of a prose line. */
function markInline(
  state: ScanState,
  text: string,
  base: number,
  mask: Uint8Array,
  start: number,
  end: number,
): void {
  // Backtick runs of the line; each opens code closed by the next run of its size (CommonMark).
  const runs: [number, number][] = [];
  for (let i = text.indexOf("`", start); i >= 0 && i < end; i = text.indexOf("`", i)) {
    let run = i;
    while (run < end && text.charCodeAt(run) === 96) run++;
    runs.push([i, run - i]);
    i = run;
  }
  const nextOfSize = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    nextOfSize[r] = seen.get(runs[r][1]) ?? -1;
    seen.set(runs[r][1], r);
  }
  for (let r = 0; r < runs.length;) {
    const close = nextOfSize[r];
    if (close < 0) {
      r++;
      continue;
    }
    const [open, size] = runs[r];
    const from = open + size;
    const to = runs[close][0];
    mask.fill(SKIP, open, from);
    mask.fill(CODE, from, to);
    mask.fill(SKIP, to, to + size);
    addSpan(state, {
      kind: "inline",
      offset: base + from,
      length: to - from,
      text: text.slice(from, to),
    });
    r = close + 1;
  }
  const line = text.slice(start, end);
  for (const m of line.matchAll(HTML_TAG)) {
    if (HTML_TAGS.has(m[1].toLowerCase()) && mask[start + m.index] !== CODE) {
      mask.fill(SKIP, start + m.index, start + m.index + m[0].length);
    }
  }
  for (const m of line.matchAll(ENTITY)) {
    mask.fill(SKIP, start + m.index, start + m.index + m[0].length);
  }
}

/** Skips the HTML comments of a prose line; true when one stays open after it. */
function markComments(text: string, mask: Uint8Array, start: number, end: number): boolean {
  for (let open = text.indexOf("<!--", start); open >= 0 && open < end;) {
    if (mask[open] === CODE) {
      open = text.indexOf("<!--", open + 4);
      continue;
    }
    const close = text.indexOf("-->", open + 4);
    if (close < 0 || close >= end) {
      mask.fill(SKIP, open, end);
      return true;
    }
    mask.fill(SKIP, open, close + 3);
    open = text.indexOf("<!--", close + 3);
  }
  return false;
}

/**
 * Skips listings of versions and settings (`numpy: 1.17.3`, `OS: Linux`, …): five or more prose
 * lines of `key: value`, one other line between two of them allowed.
 */
function markListings(
  text: string,
  lineStarts: readonly number[],
  mask: Uint8Array,
  proseLines: readonly number[],
): void {
  let run: number[] = [];
  let matched = 0;
  let misses = 0;
  const flush = () => {
    if (matched >= 5) {
      for (const index of run) {
        const [start, end] = lineBounds(text, lineStarts, index);
        mask.fill(SKIP, start, end);
      }
    }
    run = [];
    matched = 0;
    misses = 0;
  };
  let last = -2;
  for (const index of proseLines) {
    if (index !== last + 1) flush();
    last = index;
    const [start, end] = lineBounds(text, lineStarts, index);
    if (ENV_LINE.test(text.slice(start, Math.min(end, start + 200)))) {
      run.push(index);
      matched++;
      misses = 0;
    } else if (matched > 0 && misses === 0) {
      run.push(index);
      misses++;
    } else {
      flush();
    }
  }
  flush();
}

function addSpan(state: ScanState, span: CodeSpan): void {
  if (state.spans.length >= MAX_SPANS) state.cut = true;
  else state.spans.push(span);
}

/** The weight of a frame `distance` frames from the error. */
function frameWeight(distance: number): number {
  return Math.max(
    TERM_WEIGHTS.frameFloor,
    TERM_WEIGHTS.frameInnermost - TERM_WEIGHTS.frameStep * distance,
  );
}

/** Frames: their terms, and their header lines skipped. */
function markFrames(
  state: ScanState,
  text: string,
  base: number,
  lineStarts: readonly number[],
  mask: Uint8Array,
): Traceback[] {
  const found = findTracebacks(text, lineStarts, MAX_FRAMES - state.frames);
  if (found.cut) state.cut = true;
  for (const [start, end] of found.consumed) mask.fill(SKIP, start, end);
  const tracebacks = found.tracebacks.map((traceback) => ({
    language: traceback.language,
    frames: traceback.frames.map((frame) => ({
      ...frame,
      offset: frame.offset + base,
      ...(frame.function_offset === undefined
        ? {}
        : { function_offset: frame.function_offset + base }),
    })),
  }));
  for (const traceback of tracebacks) {
    state.tracebacks.push(traceback);
    for (const frame of traceback.frames) {
      state.frames++;
      const weight = frameWeight(frame.distance);
      const where = {
        weight,
        offset: frame.offset,
        length: frame.path.length,
        context: "traceback" as const,
        path: frame.path,
        ...(frame.line === undefined ? {} : { line: frame.line }),
        ...(frame.column === undefined ? {} : { column: frame.column }),
      };
      addTerm(state, {
        kind: "frame",
        value: frame.line === undefined ? frame.suffix : `${frame.suffix}:${frame.line}`,
        ...where,
        ...(frame.function === undefined ? {} : { function: frame.function }),
        distance: frame.distance,
      });
      addTerm(state, { kind: "path", value: frame.suffix, ...where });
    }
  }
  return tracebacks;
}

const URL =
  /\b(?:https?|ftp):\/\/[^\s<>"'`()[\]{}|\\^]+|\bwww\.[A-Za-z0-9-]+\.[^\s<>"'`()[\]{}|\\^]+/g;
const BLOB =
  /^https?:\/\/(?:www\.)?(?:github\.com\/[^/]+\/[^/]+\/(?:blob|raw)|gitlab\.com\/[^/]+\/[^/]+\/-\/blob|raw\.githubusercontent\.com\/[^/]+\/[^/]+)\/[^/]+\/([^?#]+)(?:\?[^#]*)?(?:#L(\d+)(?:C\d+)?(?:-L?(\d+))?)?/d;

/** URLs: skipped; a blob URL of GitHub or GitLab gives its path and lines. */
function markUrls(state: ScanState, text: string, base: number, mask: Uint8Array): void {
  for (const m of text.matchAll(URL)) {
    let url = m[0];
    while (/[.,;:!?*_~'"]$/.test(url)) url = url.slice(0, -1);
    const at = m.index;
    if (mask[at] === SKIP) continue;
    mask.fill(SKIP, at, at + url.length);
    const blob = BLOB.exec(url);
    if (blob === null) continue;
    const path = blob[1].replace(/\/+$/, "");
    const ext = extensionOf(path);
    if (ext === undefined || !CODE_EXTENSIONS.has(ext)) continue;
    const line = blob[2] === undefined ? undefined : Number(blob[2]);
    const endLine = blob[3] === undefined ? undefined : Number(blob[3]);
    addTerm(state, {
      kind: "path",
      value: path,
      weight: line === undefined ? TERM_WEIGHTS.path : TERM_WEIGHTS.pathWithLine,
      offset: base + at + (blob.indices?.[1]?.[0] ?? 0),
      length: path.length,
      context: "url",
      path,
      ...(line === undefined ? {} : { line }),
      ...(endLine === undefined || line === undefined || endLine < line
        ? {}
        : { end_line: endLine }),
    });
  }
}

/** The lower-cased extension of a path's file name, if it has one. */
function extensionOf(path: string): string | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : undefined;
}

const QUOTED_CODE = /(["'])((?:\\.|(?!\1)[^\\\n]){8,300})\1/g;
const QUOTED_PROSE = /"([^"\n]{8,300})"|\u201c([^\u201d\n]{8,300})\u201d/g;

/** Exception lines, and quoted strings (in code, in prose, inline code) that read as sentences. */
function findMessages(
  state: ScanState,
  text: string,
  base: number,
  lineStarts: readonly number[],
  mask: Uint8Array,
): void {
  for (let index = 0; index < lineStarts.length; index++) {
    const [start, end] = lineBounds(text, lineStarts, index);
    if (start === end || mask[start] === SKIP && mask[end - 1] === SKIP) continue;
    const body = text.slice(start, Math.min(end, start + 1_000));
    const exception = parseExceptionLine(body);
    if (exception !== undefined && exception.message.length <= MAX_TOKEN) {
      const at = start + exception.offset;
      addMessage(state, exception.message, base + at, "exception", {
        context: contextOf(mask[at]),
        exception: exception.type,
      });
      // A message is prose, even in a fence: its names count as prose's do.
      for (let k = at; k < at + exception.message.length; k++) if (mask[k] === CODE) mask[k] = 0;
    }
    for (const m of body.matchAll(QUOTED_CODE)) {
      const at = start + m.index + 1;
      if (mask[at] !== CODE) continue;
      if (addMessage(state, m[2], base + at, "quoted", { context: "code" })) {
        for (let k = at; k < at + m[2].length; k++) if (mask[k] === CODE) mask[k] = 0;
      }
    }
    for (const m of body.matchAll(QUOTED_PROSE)) {
      const at = start + m.index + 1;
      if (mask[at] === CODE || mask[at] === SKIP || m[0].includes("`")) continue;
      addMessage(state, m[1] ?? m[2], base + at, "quoted", { context: contextOf(mask[at]) });
    }
  }
  for (const span of state.spans) {
    if (span.kind !== "inline" || span.offset < base || span.offset >= base + text.length) continue;
    const exception = parseExceptionLine(span.text);
    if (exception !== undefined && !span.text.includes("\n")) {
      addMessage(state, exception.message, span.offset + exception.offset, "exception", {
        context: "code",
        exception: exception.type,
      });
    } else addMessage(state, span.text, span.offset, "quoted", { context: "prose" });
  }
}

/**
 * Whether a string reads as a sentence: three words or more, mostly letters, no code syntax (a
 * call `f(`, an attribute `a.b`, a snake_case name, `=`, `;`, braces, arrows).
 */
function readsAsSentence(message: string): boolean {
  const words = message.match(/\p{L}{2,}/gu) ?? [];
  if (words.length < 3 || message.length > MAX_TOKEN) return false;
  const letters = (message.match(/[\p{L} ]/gu) ?? []).length;
  return letters >= message.length * 0.75 && !/[=;{}]|=>|->|::|\w\(|\w\.\w|\w_\w/.test(message) &&
    / /.test(message.trim());
}

/** Adds a message with a fragment; true when added. */
function addMessage(
  state: ScanState,
  raw: string,
  offset: number,
  how: "exception" | "quoted",
  extra: { context: TermContext; exception?: string },
): boolean {
  const lead = raw.length - raw.trimStart().length;
  const value = raw.trim();
  if (value === "" || how === "quoted" && !readsAsSentence(value)) return false;
  const fragments = messageFragments(value);
  // `KeyError: 'setosa'`: a value only, nothing to find literally.
  if (fragments.length === 0) return false;
  addTerm(state, {
    kind: "message",
    value,
    weight: how === "exception" ? TERM_WEIGHTS.exceptionMessage : TERM_WEIGHTS.quotedMessage,
    offset: offset + lead,
    length: value.length,
    ...extra,
    fragments,
  });
  return true;
}

/**
 * The pieces of an error message that a `raise` or `panic!` holds literally: the message cut at
 * what looks like a value put into it (a quoted string, a token with a digit or a bracket), and a
 * last `: value` left out; pieces of two words and eight characters or more, trimmed of
 * punctuation. A message with no value is its own one piece.
 *
 * @example Values left out
 * ```ts
 * import assert from "node:assert/strict";
 * import { messageFragments } from "./terms.ts";
 * assert.deepEqual(messageFragments("Index out of range: a[2]"), ["Index out of range"]);
 * assert.deepEqual(
 *   messageFragments("conflicting values for variable 'y' on objects to be combined."),
 *   ["conflicting values for variable", "on objects to be combined"],
 * );
 * assert.deepEqual(messageFragments("'NoneType' object is not callable"), [
 *   "object is not callable",
 * ]);
 * ```
 */
export function messageFragments(message: string): string[] {
  const fragments: string[] = [];
  let words: string[] = [];
  const flush = () => {
    const piece = words.join(" ").replace(/^[\s.,;:!?-]+|[\s.,;:!?-]+$/g, "");
    if (piece.includes(" ") && piece.length >= 8 && !fragments.includes(piece)) {
      fragments.push(piece);
    }
    words = [];
  };
  const tokens = message.slice(0, MAX_TOKEN).split(/\s+/).filter((t) => t !== "");
  let last = tokens.length;
  if (last >= 2 && /:$/.test(tokens[last - 2])) last--;
  for (let i = 0; i < last; i++) {
    const token = i === last - 1 && last < tokens.length ? tokens[i].slice(0, -1) : tokens[i];
    if (/[\d'"`([{<>\]})\\]|\/\//.test(token)) flush();
    else words.push(token);
  }
  flush();
  return fragments;
}

/** What a character's class says of a term's context. */
function contextOf(cls: number): TermContext {
  return cls === CODE ? "code" : cls === TITLE ? "title" : "prose";
}

/** Characters that end a path chunk: white space and ``"'`<>()[]{},;|*=&``. */
const CHUNK_END = /[\s"'`<>()[\]{},;|*=&]/;
const CHUNK_END_ASCII = new Uint8Array(128).map((_, c) =>
  CHUNK_END.test(String.fromCharCode(c)) ? 1 : 0
);

function endsChunk(text: string, k: number): boolean {
  const c = text.charCodeAt(k);
  return c < 128 ? CHUNK_END_ASCII[c] === 1 : CHUNK_END.test(text[k]);
}
const PATH_CHUNK =
  /^((?:[A-Za-z]:[\\/]|~[\\/]|\.{1,2}[\\/]|[\\/])?(?:[\w.@+~-]+[\\/])*[\w@+~-][\w.@+~-]*\.([A-Za-z][A-Za-z0-9]{0,9}))(?::(\d{1,7})(?::(\d{1,5}))?|#L(\d{1,7})(?:-L?(\d{1,7}))?|::([\w.[\]-]{1,200}))?[.,:;!?]*$/;
const LINE_BEFORE = /\bline (\d{1,7})(?: of|,? in)\s+$/i;

/** Paths outside URLs and frames: their terms, and their text skipped. */
function markPaths(state: ScanState, text: string, base: number, mask: Uint8Array): void {
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && (mask[i] === SKIP || endsChunk(text, i))) i++;
    let j = i;
    while (j < n && mask[j] !== SKIP && !endsChunk(text, j)) j++;
    if (j > i && j - i <= MAX_TOKEN) notePath(state, text, base, mask, i, j);
    i = j;
  }
}

function notePath(
  state: ScanState,
  text: string,
  base: number,
  mask: Uint8Array,
  start: number,
  end: number,
): void {
  const chunk = text.slice(start, end);
  if (!chunk.includes(".") || chunk.includes("://") || chunk.includes("@")) return;
  const m = PATH_CHUNK.exec(chunk);
  if (m === null) return;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  // A diff's header names `a/x.py` and `b/x.py` for `x.py`.
  const diff = /^[ab]\/./.test(m[1]) &&
    /^(?:---|\+\+\+|diff --git) /.test(text.slice(lineStart, start));
  const path = diff ? m[1].slice(2) : m[1];
  const ext = m[2].toLowerCase();
  if (!CODE_EXTENSIONS.has(ext)) return;
  const folders = /[\\/]/.test(path);
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const stem = name.slice(0, name.length - ext.length - 1);
  if (!folders) {
    if (stem.length < 2 || text[end] === "(" || /^\d/.test(stem)) return;
    if (ext.length === 1 && !/^[ch]$/.test(m[2])) return;
    if (ext === "js" && PRODUCT_NAMES.has(stem.toLowerCase())) return;
  }
  let line: string | undefined = m[3] ?? m[5];
  const column = m[4];
  const endLine = m[6];
  if (line === undefined) {
    line = LINE_BEFORE.exec(text.slice(Math.max(lineStart, start - 60), start))?.[1];
  }
  const cls = mask[start];
  mask.fill(SKIP, start, start + m[0].length);
  addTerm(state, {
    kind: "path",
    value: pathSuffix(path),
    weight: line === undefined ? TERM_WEIGHTS.path : TERM_WEIGHTS.pathWithLine,
    offset: base + start + (diff ? 2 : 0),
    length: path.length,
    context: contextOf(cls),
    path,
    ...(line === undefined ? {} : { line: Number(line) }),
    ...(column === undefined ? {} : { column: Number(column) }),
    ...(endLine === undefined || Number(endLine) < Number(line)
      ? {}
      : { end_line: Number(endLine) }),
    ...(m[7] === undefined ? {} : { function: m[7] }),
  });
  if (m[7] !== undefined) {
    const test = start + m[0].indexOf("::") + 2;
    scanTokens(state, text, base, mask, test, test + m[7].length, TERM_WEIGHTS.path - 2);
  }
}

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;

function isStart(code: number, char: string): boolean {
  if (code < 128) {
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
  }
  return IDENT_START.test(char);
}

function isPart(code: number, char: string): boolean {
  if (code < 128) return isStart(code, char) || (code >= 48 && code <= 57);
  return IDENT_PART.test(char);
}

/** A name of a dotted or `::` chain: its text and where it starts. */
interface Piece {
  name: string;
  at: number;
}

/**
 * Identifiers and words of `[from, to)`. With `weight`, the range is a frame's function: every
 * name in it counts as code at that weight, whatever its class. Otherwise skipped characters are
 * left out and each name's class gives its context.
 */
function scanTokens(
  state: ScanState,
  text: string,
  base: number,
  mask: Uint8Array,
  from: number,
  to: number,
  weight?: number,
): void {
  const skipped = (k: number) => weight === undefined && mask[k] === SKIP;
  const codeAt = (k: number) => text.charCodeAt(k);
  let i = from;
  while (i < to) {
    if (skipped(i) || !isStart(codeAt(i), text[i])) {
      i++;
      continue;
    }
    if (
      i > from && text[i - 1] === "\\" && /[ntr]/.test(text[i]) && text[i - 2] !== "\\" &&
      i + 1 < to && isStart(codeAt(i + 1), text[i + 1])
    ) {
      // An escape in a string (`\nsinc(x)`): the name starts after it.
      i++;
    } else if (
      i > from && text[i - 1] === "%" && /[sdrfixXegco]/.test(text[i]) &&
      !/[A-Za-z0-9]/.test(text[i + 1] ?? "")
    ) {
      i++; // `%s_%d`: a format's conversion is no name.
    } else if (i > from && !skipped(i - 1) && isPart(codeAt(i - 1), text[i - 1])) {
      // Inside a run that starts with a digit (`3rd`, `0x1f`): skip the run.
      while (i < to && !skipped(i) && isPart(codeAt(i), text[i])) i++;
      continue;
    }
    const pieces: Piece[] = [];
    let separator = ".";
    let j = i;
    for (;;) {
      const at = j;
      while (j < to && !skipped(j) && isPart(codeAt(j), text[j])) j++;
      pieces.push({ name: text.slice(at, j), at });
      const dot = text[j] === "." && (separator === "." || pieces.length === 1);
      const colons = text.startsWith("::", j) && (separator === "::" || pieces.length === 1);
      const next = j + (dot ? 1 : colons ? 2 : 0);
      if (
        (dot || colons) && next < to && !skipped(next) && !skipped(j) &&
        isStart(codeAt(next), text[next])
      ) {
        separator = dot ? "." : "::";
        j = next;
        continue;
      }
      break;
    }
    const cls = weight === undefined ? mask[i] : CODE;
    const afterDot = i > from && text[i - 1] === "." && !skipped(i - 1);
    let contraction = 0;
    if (cls !== CODE && pieces.length === 1) {
      const apostrophe = /^['\u2019](?:[a-z]{1,2})(?![\p{L}\p{N}_])/u.exec(text.slice(j, j + 4));
      if (apostrophe !== null) contraction = apostrophe[0].length;
    }
    const called = text[j] === "(";
    emitChain(state, text, base, pieces, separator, {
      cls,
      called,
      afterDot,
      contraction,
      weight,
    });
    i = j + contraction;
  }
}

interface ChainFacts {
  /** Class of the chain's first character. */
  cls: number;
  /** Followed by `(`. */
  called: boolean;
  /** Preceded by `.`: an attribute (`f(x).apart`). */
  afterDot: boolean;
  /** Length of a contraction after a prose word (`'s`, `'t`). */
  contraction: number;
  /** A frame's function weight, when the chain is one. */
  weight?: number;
}

/** The terms of one name or chain of names. */
function emitChain(
  state: ScanState,
  text: string,
  base: number,
  chain: Piece[],
  separator: string,
  facts: ChainFacts,
): void {
  let pieces = chain.filter((piece) => piece.name.length <= MAX_TOKEN);
  if (pieces.length !== chain.length) return;
  const prose = facts.cls !== CODE;
  const context: TermContext = facts.weight !== undefined ? "traceback" : contextOf(facts.cls);
  const wordWeight = facts.cls === TITLE
    ? TERM_WEIGHTS.titleWord
    : facts.cls === HEADING
    ? TERM_WEIGHTS.weakWord
    : TERM_WEIGHTS.word;
  if (pieces.length > 1 && /^(?:self|this|cls)$/.test(pieces[0].name)) pieces = pieces.slice(1);
  if (pieces.length > 1 && pieces.every((p) => p.name.length === 1)) return; // "e.g", "i.e"
  if (prose && pieces.length > 1) {
    const last = pieces[pieces.length - 1].name;
    if (DOMAIN_ENDINGS.has(last.toLowerCase()) && separator === ".") return;
  }
  if (facts.contraction > 0) {
    const word = text.slice(pieces[0].at, pieces[0].at + pieces[0].name.length + facts.contraction);
    if (STOP_WORDS.has(word.toLowerCase().replace("\u2019", "'"))) return;
  }
  if (pieces.length === 1 && !prose && facts.weight === undefined && !facts.afterDot) {
    const name = pieces[0].name;
    if (CODE_KEYWORDS.has(name) || STOP_WORDS.has(name)) return;
  }
  if (pieces.some((p) => isJunk(p.name))) {
    pieces = pieces.filter((p) => !isJunk(p.name));
    if (pieces.length === 0) return;
    for (const piece of pieces) emitWords(state, base, piece, wordWeight, context);
    return;
  }
  for (const piece of pieces) emitWords(state, base, piece, wordWeight, context);
  if (pieces.length === 1) {
    const { name, at } = pieces[0];
    const attribute = facts.afterDot || facts.called;
    if (facts.weight === undefined && !facts.afterDot) {
      if (CODE_KEYWORDS.has(name) || BUILTINS.has(name)) return;
    }
    if (name.length < 2) return;
    if (prose && PRODUCT_NAMES.has(name.toLowerCase())) return;
    const compound = attribute || isCompound(name);
    let weight: number;
    if (facts.weight !== undefined) weight = facts.weight;
    else if (!prose) {
      weight = compound
        ? TERM_WEIGHTS.codeCompound
        : name.length <= 2
        ? TERM_WEIGHTS.codeShort
        : TERM_WEIGHTS.codePlain;
    } else if (!compound || facts.contraction > 0) return;
    else weight = facts.cls === TITLE ? TERM_WEIGHTS.titleCompound : TERM_WEIGHTS.proseCompound;
    addIdentifier(state, base, name, at, weight, context);
    return;
  }
  const weight = facts.weight ??
    (!prose
      ? TERM_WEIGHTS.codeCompound
      : facts.cls === TITLE
      ? TERM_WEIGHTS.titleCompound
      : TERM_WEIGHTS.proseCompound);
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  const whole = text.slice(first.at, last.at + last.name.length);
  addIdentifier(state, base, whole, first.at, weight, context);
  for (const piece of pieces) {
    const own = piece === last ? weight : weight * TERM_WEIGHTS.qualifierFactor;
    if (piece.name.length < 2 || piece !== last && BUILTINS.has(piece.name)) continue;
    if (CODE_KEYWORDS.has(piece.name) && piece === first) continue;
    addIdentifier(state, base, piece.name, piece.at, own, context);
  }
}

function addIdentifier(
  state: ScanState,
  base: number,
  name: string,
  at: number,
  weight: number,
  context: TermContext,
): void {
  const parts = subTokens(name).map((t) => t.text.toLowerCase());
  addTerm(state, {
    kind: "identifier",
    value: name,
    weight,
    offset: base + at,
    length: name.length,
    context,
    ...(parts.length > 1 ? { parts } : {}),
  });
}

/**
 * The words of a name: its sub-tokens, lower-cased, stop-words and one-letter ones left out (a
 * product's name is one word: `LaTeX`, `SymPy`).
 */
function emitWords(
  state: ScanState,
  base: number,
  piece: Piece,
  weight: number,
  context: TermContext,
): void {
  const product = PRODUCT_NAMES.has(piece.name.toLowerCase());
  for (const token of product ? [{ text: piece.name, at: 0 }] : subTokens(piece.name)) {
    const value = token.text.toLowerCase();
    if (value.length < 2 || value.length > 40 || STOP_WORDS.has(value) || isJunk(value)) continue;
    addTerm(state, {
      kind: "word",
      value,
      weight: ISSUE_WORDS.has(value) ? Math.min(weight, TERM_WEIGHTS.weakWord) : weight,
      offset: base + piece.at + token.at,
      length: token.text.length,
      context,
    });
  }
}

/**
 * Whether a name with digits is no term: a hash, one letter with digits (`x0`, `v1`), or more
 * digits than letters.
 */
function isJunk(name: string): boolean {
  let digits = 0;
  for (let k = 0; k < name.length; k++) {
    const code = name.charCodeAt(k);
    if (code >= 48 && code <= 57) digits++;
  }
  if (digits === 0) return false;
  if (digits * 2 > name.length || name.length - digits < 2) return true;
  return name.length >= 7 && /^[0-9a-f]+$/.test(name);
}

/** Whether a name reads as code: `snake_case`, `camelCase`, `CamelCase`, `SCREAMING_CASE`. */
function isCompound(name: string): boolean {
  const core = name.replace(/^_+|_+$/g, "");
  if (core !== name && core !== "") return true; // _private, __dunder__
  if (core.includes("_")) return true;
  return /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{Ll}\p{N}+\p{Lu}/u.test(core);
}

const SUBTOKEN = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+|\p{L}+/gu;

/** A sub-token of a name and its offset in the name. */
interface SubToken {
  text: string;
  at: number;
}

function subTokens(name: string): SubToken[] {
  const tokens: SubToken[] = [];
  if (!/^[\x20-\x7e]*$/.test(name)) {
    for (const m of name.matchAll(SUBTOKEN)) {
      if (!/^\p{N}+$/u.test(m[0])) tokens.push({ text: m[0], at: m.index });
    }
    return tokens;
  }
  // ASCII: the same split as SUBTOKEN, by hand (the hot path).
  const upper = (k: number) => {
    const c = name.charCodeAt(k);
    return c >= 65 && c <= 90;
  };
  const lower = (k: number) => {
    const c = name.charCodeAt(k);
    return c >= 97 && c <= 122;
  };
  const push = (from: number, to: number) => tokens.push({ text: name.slice(from, to), at: from });
  for (let i = 0; i < name.length;) {
    if (upper(i)) {
      let j = i;
      while (j < name.length && upper(j)) j++;
      if (j < name.length && lower(j)) {
        if (j - 1 > i) push(i, j - 1);
        let k = j;
        while (k < name.length && lower(k)) k++;
        push(j - 1, k);
        i = k;
      } else {
        push(i, j);
        i = j;
      }
    } else if (lower(i)) {
      let j = i;
      while (j < name.length && lower(j)) j++;
      push(i, j);
      i = j;
    } else i++;
  }
  return tokens;
}

/**
 * The sub-tokens of an identifier, lower-cased, for BM25: split at `_`, `.`, `::`, digits and
 * case changes (an upper-case run before a capitalised word stays one: `HTTPServer` → `http`,
 * `server`); numbers left out.
 *
 * @example snake_case, CamelCase with an acronym, a dotted name
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitIdentifier } from "./terms.ts";
 * assert.deepEqual(splitIdentifier("parse_args"), ["parse", "args"]);
 * assert.deepEqual(splitIdentifier("HTTPServerError"), ["http", "server", "error"]);
 * assert.deepEqual(splitIdentifier("sympy.Point2D"), ["sympy", "point", "d"]);
 * ```
 */
export function splitIdentifier(name: string): string[] {
  return subTokens(name).map((t) => t.text.toLowerCase());
}
