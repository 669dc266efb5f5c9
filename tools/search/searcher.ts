/**
 * The searcher: runs a compiled matcher over one file's bytes and builds contract matches with
 * byte-exact spans. Plain data in, plain data out, no zod: it runs inside workers.
 *
 * @module
 */
import { sha256 } from "../../schema/checksum.ts";
import { newId } from "../../schema/ids.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan } from "../../schema/span_build.ts";
import type { ContextLine, SpanChecksums } from "../../schema/extensions.ts";
import type { SearchMatch } from "../../schema/search.ts";
import { type DecodedText, decodeText } from "../../core/utf8.ts";
import { decodeForMatching } from "./decode.ts";
import { LiteralPrefilter } from "./prefilter.ts";
import { LinearRegExp, type TextMatcher } from "../../core/linear_regex.ts";
import type { MatcherSpec } from "./matcher.ts";

/** The byte that ends a line. */
const NEWLINE = 0x0a;

/** What to produce for each file. */
export interface SearchFileOptions {
  /** `matches`: full matches; `files`: stop at the first match; `counts`: count only. */
  mode: "matches" | "files" | "counts";
  /** Stop after this many matching lines in a file (ripgrep's `-m`). */
  maxCount?: number;
  /** Context lines before each match. */
  before: number;
  /** Context lines after each match. */
  after: number;
  /** Longest line text, in bytes, before it is cut. */
  maxColumns: number;
  /** Add `checksums` to each match. */
  withChecksums: boolean;
}

/** Result of searching one file. */
export interface FileResult {
  /** Matches found (all of them in modes `counts` and `files`, though not listed there). */
  matchCount: number;
  /** Distinct lines holding a match start. */
  lineCount: number;
  /** Listed matches (mode `matches`). */
  matches: SearchMatch[];
}

/** A matcher compiled for repeated use on many files. */
export interface CompiledMatcher {
  /** The spec it came from. */
  spec: MatcherSpec;
  /** The regular expression, with `g`: V8's, or the linear-time one under a stop check. */
  regex: TextMatcher;
  /** Rules out files without a required literal. */
  prefilter: LiteralPrefilter;
}

/**
 * Compiles a matcher spec once (per worker). With `stop` (a run under a time budget or a
 * cancel), a pattern that may backtrack runs on {@linkcode LinearRegExp}, which calls `stop` as
 * it goes (`stop` ends the match by throwing); plain text, which never backtracks, and any
 * pattern of a run without a bound keep V8's faster engine. A pattern the linear engine cannot
 * run throws `UnsupportedPattern` (the engine refuses it before the walk).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildMatcher } from "./matcher.ts";
 * import { compileMatcher } from "./searcher.ts";
 * assert.ok(compileMatcher(buildMatcher({ patterns: ["todo"] })).regex instanceof RegExp);
 * assert.ok(!(compileMatcher(buildMatcher({ patterns: ["(a+)+$"] }), () => {}).regex instanceof RegExp));
 * ```
 */
export function compileMatcher(spec: MatcherSpec, stop?: () => void): CompiledMatcher {
  const regex = stop === undefined || spec.linear
    ? new RegExp(spec.source, spec.flags)
    : new LinearRegExp(spec.source, spec.flags, stop);
  return {
    spec,
    regex,
    prefilter: new LiteralPrefilter(spec.literals, spec.literalsIgnoreCase),
  };
}

interface UnitMatch {
  start: number;
  end: number;
}

/** Advances past an empty match by one code point (every pattern runs in `v` mode). */
function stepPast(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff ? index + 2 : index + 1;
}

/** Whether a code unit stands for an invalid byte 0x80–0xBF (see `decode.ts`). */
function isEscapedContinuation(code: number): boolean {
  return code >= 0xdc80 && code <= 0xdcbf;
}

/**
 * Leftmost matches of `regex` in `text` from `from`, with ripgrep's rules for empty matches: one
 * right where the previous non-empty match ended is not a match, one at an (escaped) UTF-8
 * continuation byte is not either (upstream ripgrep's rule, so every reported offset is a
 * character boundary), and, for a whole file (`wholeText`), nothing starts after the final line
 * break (that is no line).
 */
function* execAll(
  regex: TextMatcher,
  text: string,
  from: number,
  wholeText: boolean,
): Generator<UnitMatch> {
  regex.lastIndex = from;
  let lastEnd = -1;
  for (let found = regex.exec(text); found !== null; found = regex.exec(text)) {
    const start = found.index;
    const end = start + found[0].length;
    if (start === end) {
      regex.lastIndex = stepPast(text, end);
      if (start === lastEnd || isEscapedContinuation(text.charCodeAt(start))) continue;
      if (
        wholeText && start === text.length && (start === 0 || text.charCodeAt(start - 1) === 10)
      ) {
        return;
      }
    } else lastEnd = end;
    yield { start, end };
  }
}

/**
 * Matches of `regex` in a whole file's text (code-unit offsets). Without multiline no match can
 * cross a line break: the emitted expression matches no `\n` then (ripgrep's rule).
 */
function findMatches(text: string, regex: TextMatcher): Generator<UnitMatch> {
  return execAll(regex, text, 0, true);
}

/** Whether the byte at `offset` continues a UTF-8 character. */
function isContinuation(bytes: Uint8Array, offset: number): boolean {
  return offset < bytes.length && (bytes[offset] & 0xc0) === 0x80;
}

interface LineText {
  text: string;
  truncated: boolean;
  startCol: number;
}

/** A line's text, or a `maxColumns`-byte window of it around `focus`, cut on character boundaries. */
function lineText(
  bytes: Uint8Array,
  index: LineIndex,
  line: number,
  focus: number,
  maxColumns: number,
): LineText {
  const [start, end] = index.lineRange(line);
  if (end - start <= maxColumns) {
    return { text: decodeText(bytes.subarray(start, end)), truncated: false, startCol: 0 };
  }
  let from = focus - start < maxColumns ? start : Math.max(start, focus - (maxColumns >> 1));
  from = Math.min(from, end - maxColumns);
  while (from > start && isContinuation(bytes, from)) from--;
  let to = Math.min(end, from + maxColumns);
  while (to > from && isContinuation(bytes, to)) to--;
  return {
    text: decodeText(bytes.subarray(from, to)),
    truncated: true,
    startCol: from - start,
  };
}

function contextLines(
  bytes: Uint8Array,
  index: LineIndex,
  first: number,
  last: number,
  maxColumns: number,
): ContextLine[] {
  const lines: ContextLine[] = [];
  for (let line = Math.max(1, first); line <= Math.min(last, index.lineCount); line++) {
    const [start] = index.lineRange(line);
    // The empty "line" after a final newline is not a line of the file.
    if (line === index.lineCount && start === bytes.length) break;
    const cut = lineText(bytes, index, line, start, maxColumns);
    lines.push(
      cut.truncated ? { line, text: cut.text, truncated: true } : { line, text: cut.text },
    );
  }
  return lines;
}

/**
 * What the match generators yield between pieces of a file (see {@linkcode pieceBytes}), so that
 * a search on a host's only thread can let the event loop run inside a large file.
 */
export const PAUSE: unique symbol = Symbol("pause");

/** A step of a file's search: a pause, or (inside) a match. */
type Step = typeof PAUSE;

/** A match in byte offsets with its text. */
interface ByteMatch {
  start: number;
  end: number;
  text: string;
}

/**
 * Bytes decoded at once when no literal narrows the search. A string over V8's regular object
 * size (128 KiB) lives in the large-object space, which only a full collection frees; decoding a
 * large file in line-aligned pieces keeps the garbage young and the peak memory low.
 */
const PIECE_BYTES = 64 * 1024;

/**
 * Bytes a piece of a file matched by the linear engine holds: its Pike VM may take a
 * microsecond a byte (a class repeated sixty times on lines it cannot rule out), so a piece
 * stays near 10 ms of work for a host that lets its event loop run between pieces.
 */
const LINEAR_PIECE_BYTES = 8 * 1024;

/** The bytes of text matched between two pauses. */
function pieceBytes(regex: TextMatcher): number {
  return regex instanceof LinearRegExp ? LINEAR_PIECE_BYTES : PIECE_BYTES;
}

/** Runs the regular expression over the decoded text of `bytes[from, to)`. */
function* textMatches(
  bytes: Uint8Array,
  from: number,
  to: number,
  regex: TextMatcher,
): Generator<ByteMatch> {
  const decoded: DecodedText = decodeForMatching(bytes.subarray(from, to));
  for (const found of findMatches(decoded.text, regex)) {
    yield {
      start: from + decoded.byteOffset(found.start),
      end: from + decoded.byteOffset(found.end),
      text: decoded.text.slice(found.start, found.end),
    };
  }
}

/**
 * Runs the regular expression over the whole file (multiline, or no literal known). Without
 * multiline no match crosses a line, so a large file is searched in pieces that end at line
 * breaks, with the same result.
 */
function* wholeTextMatches(
  bytes: Uint8Array,
  regex: TextMatcher,
  multiline: boolean,
): Generator<ByteMatch | Step> {
  const piece = pieceBytes(regex);
  if (multiline || bytes.length <= piece) {
    yield* textMatches(bytes, 0, bytes.length, regex);
    return;
  }
  for (let from = 0; from < bytes.length;) {
    let to = bytes.length;
    if (from + piece < bytes.length) {
      const cut = bytes.lastIndexOf(0x0a, from + piece - 1);
      const next = cut >= from ? cut : bytes.indexOf(0x0a, from + piece);
      if (next !== -1) to = next + 1;
    }
    yield* textMatches(bytes, from, to, regex);
    yield PAUSE;
    from = to;
  }
}

/**
 * Runs the regular expression only over the lines that hold a required literal: without
 * multiline matching, no match can lie elsewhere (ripgrep's candidate-line search). Only those
 * lines are decoded.
 */
function* candidateLineMatches(
  bytes: Uint8Array,
  lines: [number, number][],
  regex: TextMatcher,
): Generator<ByteMatch | Step> {
  const piece = pieceBytes(regex);
  let sincePause = 0;
  for (const [lineStart, lineEnd] of lines) {
    sincePause += lineEnd - lineStart;
    if (sincePause >= piece) {
      yield PAUSE;
      sincePause = 0;
    }
    const decoded = decodeForMatching(bytes.subarray(lineStart, lineEnd));
    for (const found of execAll(regex, decoded.text, 0, false)) {
      yield {
        start: lineStart + decoded.byteOffset(found.start),
        end: lineStart + decoded.byteOffset(found.end),
        text: decoded.text.slice(found.start, found.end),
      };
    }
  }
}

/**
 * Counts the matches and the lines they start on (as far as `maxCount` lines; one match in
 * `files` mode), with no line index: a match starts a new line when it starts past the newline
 * that ends the line of the previous one (a newline byte belongs to the line it ends). That
 * newline is looked for once per line, so a long line of many matches is read once.
 */
function* countLines(
  bytes: Uint8Array,
  matches: Generator<ByteMatch | Step>,
  options: SearchFileOptions,
  result: FileResult,
): Generator<Step, FileResult> {
  /** Where the current line ends: its newline, the end of the text, or -1 before any match. */
  let lineEnd = -1;
  for (const found of matches) {
    if (found === PAUSE) {
      yield PAUSE;
      continue;
    }
    const start = found.start;
    if (lineEnd < 0 || start > lineEnd) {
      if (options.maxCount !== undefined && result.lineCount >= options.maxCount) break;
      result.lineCount++;
      const newline = bytes.indexOf(NEWLINE, start);
      lineEnd = newline === -1 ? bytes.length : newline;
    }
    result.matchCount++;
    if (options.mode === "files") break;
  }
  return result;
}

/**
 * Searches one file's bytes. Returns `undefined` when the prefilter rules the file out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildMatcher } from "./matcher.ts";
 * import { compileMatcher, searchBytes } from "./searcher.ts";
 * const matcher = compileMatcher(buildMatcher({ patterns: ["b+"] }));
 * const result = searchBytes(new TextEncoder().encode("abbc\n"), "f.txt", matcher, {
 *   mode: "matches", before: 0, after: 0, maxColumns: 500, withChecksums: false,
 * });
 * assert.equal(result?.matches[0].span.byte_start, 1);
 * assert.equal(result?.matches[0].matched_text, "bb");
 * ```
 */
export function searchBytes(
  bytes: Uint8Array,
  filePath: string,
  matcher: CompiledMatcher,
  options: SearchFileOptions,
): FileResult | undefined {
  const steps = searchSteps(bytes, filePath, matcher, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@linkcode searchBytes} in steps: it yields {@linkcode PAUSE} between pieces of the file, where
 * a caller on a host's only thread may let the event loop run, and returns the result.
 */
export function* searchSteps(
  bytes: Uint8Array,
  filePath: string,
  matcher: CompiledMatcher,
  options: SearchFileOptions,
): Generator<Step, FileResult | undefined> {
  const { prefilter, regex, spec } = matcher;
  let matches: Generator<ByteMatch | Step>;
  if (prefilter.active && !spec.multiline) {
    const lines = prefilter.candidateLines(bytes);
    if (lines.length === 0) return undefined;
    matches = candidateLineMatches(bytes, lines, regex);
  } else {
    if (!prefilter.contains(bytes)) return undefined;
    matches = wholeTextMatches(bytes, regex, spec.multiline);
  }
  const result: FileResult = { matchCount: 0, lineCount: 0, matches: [] };
  if (options.mode !== "matches") return yield* countLines(bytes, matches, options, result);
  let index: LineIndex | undefined;
  let fileChecksum: string | undefined;
  let lastLine = 0;
  for (const found of matches) {
    if (found === PAUSE) {
      yield PAUSE;
      continue;
    }
    const byteStart = found.start;
    const byteEnd = found.end;
    index ??= new LineIndex(bytes);
    const line = index.lineOf(byteStart);
    if (line !== lastLine) {
      if (options.maxCount !== undefined && result.lineCount >= options.maxCount) break;
      result.lineCount++;
      lastLine = line;
    }
    result.matchCount++;
    const span = makeSpan(filePath, index, byteStart, byteEnd);
    const shown = lineText(bytes, index, line, byteStart, options.maxColumns);
    const match: SearchMatch = {
      match_id: newId(),
      span,
      matched_text: found.text,
      line_text: shown.text,
    };
    if (shown.truncated) {
      match.line_truncated = true;
      match.line_text_start_col = shown.startCol;
    }
    if (options.before > 0) {
      match.context_before = contextLines(
        bytes,
        index,
        line - options.before,
        line - 1,
        options.maxColumns,
      );
    }
    if (options.after > 0) {
      match.context_after = contextLines(
        bytes,
        index,
        span.end_line + 1,
        span.end_line + options.after,
        options.maxColumns,
      );
    }
    if (options.withChecksums) {
      fileChecksum ??= sha256(bytes);
      const checksums: SpanChecksums = {
        checksum_before: sha256(bytes.subarray(byteStart, byteEnd)),
        file_checksum_before: fileChecksum,
      };
      match.checksums = checksums;
    }
    result.matches.push(match);
  }
  return result;
}
