/**
 * Searching one file: parse it with its language's grammar, run the query (or the
 * definition query) over the tree, and turn what matched into byte-exact results. Used alike
 * by the main thread and by workers; it imports no zod.
 *
 * Each {@linkcode FileSearcher} keeps one parser per language and compiles each query once per
 * language; trees are freed as soon as a file is done.
 *
 * @module
 */
import type { Node, Parser, Query, QueryMatch } from "web-tree-sitter";
import {
  createParser,
  loadLanguage,
  parserHeapBytes,
  runtimeAborted,
  runtimeFailure,
} from "../../grammars/loader.ts";
import { errorNodes } from "../../grammars/syntax_errors.ts";
import { compileQuery, definitionQuery } from "../../grammars/query.ts";
import { isBinary } from "../../core/walk/binary.ts";
import { type DecodedText, decodeText, decodeUtf8 } from "../../core/utf8.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan, type Span } from "../../schema/span_build.ts";
import { sha256 } from "../../schema/checksum.ts";
import type { ContextLine, SpanExtensions } from "../../schema/extensions.ts";
import type { AstCapture, AstMatch } from "../../schema/ast_search.ts";
import {
  collectDefinitions,
  CONTAINER_KINDS,
  type Definition,
  enclosingDefinition,
} from "../../grammars/definitions.ts";

/** What to look for and what to add to each match; plain data, so it can go to a worker. */
export interface SearchSpec {
  /** `query`: run `query`; `kind`: report definitions. */
  mode: "query" | "kind";
  /** The tree-sitter query (mode `query`). */
  query: string;
  /** Kinds to report; empty for every kind. With a query, matches need a `@definition.<kind>`. */
  kinds: string[];
  /** Regular expression (source) the symbol name must match, if any. */
  name?: string;
  /** Add `semantics` (kind or node type, language, enclosing symbol). */
  semantics: boolean;
  /** Lines of context before and after each match (0: none). */
  contextLines: number;
  /** Add `checksums`. */
  checksums: boolean;
  /** Longest text in bytes (0: no limit). */
  maxColumns: number;
}

/**
 * How much work one file may cost, so that no input aborts the parser runtime, takes hours or
 * holds gigabytes: plain data, so it can go to a worker.
 */
export interface ParseLimits {
  /** Files larger than this many bytes are not parsed. */
  maxParseBytes: number;
  /** A parse is stopped once it has grown the parser heap of its thread by this many bytes. */
  maxParseMemory: number;
  /** The parse and the query of one file are stopped after this many milliseconds. */
  fileTimeoutMs: number;
}

/**
 * Defaults of {@linkcode ParseLimits}, found by experiment with web-tree-sitter 0.25.10 (whose
 * heap cannot pass 2 GiB; past it the runtime aborts): 30 MB of minified JavaScript aborts it,
 * 7 MB of `;` fills 2 GB; a 24 MB C header of `#define`s needs 630 MB and 20 s. 16 MiB keeps
 * every file of Linux 6.1 but its generated register headers; 1 GiB of heap growth leaves the runtime
 * room for the query and the next growth step; 60 s per file is far beyond a normal parse (a few
 * MB/s) and stops the quadratic cases (a query over a 100 KB file of unclosed brackets took 60 s).
 */
export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxParseBytes: 16 * 1024 * 1024,
  maxParseMemory: 1024 * 1024 * 1024,
  fileTimeoutMs: 60_000,
};

/** A file to search. */
export interface FileTask {
  /** Absolute path. */
  absPath: string;
  /** Contract path. */
  filePath: string;
  /** Registry language. */
  language: string;
}

/** A syntax error of a parsed file. */
export interface SyntaxErrorInfo {
  /** Where. */
  span: Span;
  /** What: an unexpected region or a missing token. */
  message: string;
}

/** A match before it gets its per-run `match_id`. */
export type FileMatch = Omit<AstMatch, "match_id">;

/** What searching one file gave. */
export interface FileOutcome {
  /** Matches in (byte_start, byte_end, pattern) order. */
  matches: FileMatch[];
  /** The first few syntax errors. */
  syntaxErrors: SyntaxErrorInfo[];
  /** Syntax errors in all (only the first few are listed). */
  syntaxErrorCount: number;
  /** The file looked binary and was not parsed. */
  binary?: true;
  /** The file was not searched, or not to the end, because a limit stopped it. */
  stopped?: LimitStop;
}

/** Which limit stopped a file, and how far it had got. */
export interface LimitStop {
  /** The limit of {@linkcode ParseLimits} that stopped it. */
  limit: keyof ParseLimits;
  /** The limit's value. */
  value: number;
  /** What the file needed: its size, or the heap or time when it was stopped. */
  reached: number;
  /** Where it stopped: `parse` or `query` (a file too large is never read further). */
  stage: "size" | "parse" | "query";
}

/**
 * Says whether the run a file belongs to is being stopped (its signal aborted): checked from the
 * parser's progress callbacks, so that one long parse or query stops within milliseconds rather
 * than at the end of the file. It must be cheap (a call worker's signal reads an atomic flag).
 */
export type StopCheck = () => boolean;

const NEVER_STOP: StopCheck = () => false;

/** Thrown for a file whose parse or query stopped because its run is being stopped. */
export class RunStoppedError extends Error {
  override name = "RunStoppedError";
}

/** The outcome of a file with nothing to report. */
const NOTHING: FileOutcome = { matches: [], syntaxErrors: [], syntaxErrorCount: 0 };

/** At most this many syntax errors are listed per file. */
export const SYNTAX_ERRORS_LISTED = 3;

interface LanguageState {
  parser: Parser;
  query?: Query;
  definitions?: Query;
}

interface FileContext {
  bytes: Uint8Array;
  decoded: DecodedText;
  index: LineIndex;
  task: FileTask;
  fileChecksum?: string;
}

function isContinuation(bytes: Uint8Array, offset: number): boolean {
  return offset < bytes.length && (bytes[offset] & 0xc0) === 0x80;
}

/** Bytes `[start, end)` as text, cut to `max` bytes on a character boundary. */
function cutText(
  bytes: Uint8Array,
  start: number,
  end: number,
  max: number,
): { text: string; truncated: boolean } {
  if (max === 0 || end - start <= max) {
    return { text: decodeText(bytes.subarray(start, end)), truncated: false };
  }
  let to = start + max;
  while (to > start && isContinuation(bytes, to)) to--;
  return { text: decodeText(bytes.subarray(start, to)), truncated: true };
}

function contextLines(file: FileContext, first: number, last: number, max: number): ContextLine[] {
  const { bytes, index } = file;
  const lines: ContextLine[] = [];
  for (let line = Math.max(1, first); line <= Math.min(last, index.lineCount); line++) {
    const [start, end] = index.lineRange(line);
    // The empty "line" after a final newline is not a line of the file.
    if (line === index.lineCount && start === bytes.length) break;
    const cut = cutText(bytes, start, end, max);
    lines.push(
      cut.truncated ? { line, text: cut.text, truncated: true } : { line, text: cut.text },
    );
  }
  return lines;
}

/**
 * A regular expression that matches a file's text whenever `name` can match one of its names,
 * or `undefined` when no such shortcut is safe. A name is a piece of the file's text, so the
 * pattern itself qualifies once a leading `^` and a trailing `$` are dropped (dropping them only
 * widens it); other assertions (`\b`, lookarounds, inner anchors) depend on the surroundings,
 * and rule the shortcut out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namePrefilter } from "./file_search.ts";
 * assert.equal(namePrefilter("^parse_")?.source, "parse_");
 * assert.equal(namePrefilter("(?<=x)y"), undefined);
 * ```
 */
export function namePrefilter(name: string): RegExp | undefined {
  let body = name.startsWith("^") ? name.slice(1) : name;
  const trailingBackslashes = /\\*$/.exec(body.slice(0, -1))?.[0].length ?? 0;
  if (body.endsWith("$") && trailingBackslashes % 2 === 0) body = body.slice(0, -1);
  if (/[\^$]|\\[bB]|\(\?<?[=!]/.test(body) || body === "") return undefined;
  return new RegExp(body, "u");
}

/**
 * A parse stops, whatever `maxParseMemory` says, once the heap passes this: the runtime aborts
 * at 2 GiB, and the heap grows by up to 20 % (or 96 MiB) at a time.
 */
const HEAP_GUARD = 2048 * 1024 * 1024 - 320 * 1024 * 1024;

/**
 * Matches built between two reads of the run's stop flag: a large file's matches take hundreds
 * of milliseconds to build (80,000 C functions: 600 ms), which a cancelled call must not spend.
 */
const STOP_CHECK_EVERY = 1024;

/** How long a parse on a host's only thread runs before it lets the event loop run (ms). */
const PARSE_SLICE_MS = 20;

/**
 * Checks the limits of one file from web-tree-sitter's progress callbacks (called every few
 * hundred steps of a parse or a query; returning `true` stops it), and remembers which stopped it.
 * The checks (the run's stop flag, the heap, the clock) run on every 16th call: on each call they
 * cost a search of the kernel's functions about 7 % of its time, and a few thousand steps are
 * still well under a millisecond.
 */
class LimitWatch {
  readonly #limits: ParseLimits;
  readonly #shouldStop: StopCheck;
  readonly #started = performance.now();
  /** The heap never shrinks: what a parse needs is what it adds to the heap it found. */
  readonly #heapAtStart = parserHeapBytes();
  /** The limit that stopped the file, once one has. */
  stopped: LimitStop | undefined;
  /** Set once `shouldStop` said the run is being stopped. */
  runStopped = false;
  /** Progress callbacks so far: the limits are checked on every 16th. */
  #calls = 0;
  /** When the current slice of a parse that yields between slices ends (see `sliced`). */
  #sliceEnd: number | undefined;
  /** Set when the parse was halted because its slice ended: it resumes after a pause. */
  sliced = false;
  /** Time spent in pauses between slices: not the file's own (`fileTimeoutMs`). */
  #pausedMs = 0;

  /** Watches one file; with `sliceMs`, a parse also halts each time that much time has passed. */
  constructor(limits: ParseLimits, shouldStop: StopCheck, sliceMs?: number) {
    this.#limits = limits;
    this.#shouldStop = shouldStop;
    if (sliceMs !== undefined) this.#sliceEnd = performance.now() + sliceMs;
  }

  /** Starts the next slice of `sliceMs`, after a pause of `pausedMs`. */
  nextSlice(sliceMs: number, pausedMs: number): void {
    this.sliced = false;
    this.#pausedMs += pausedMs;
    this.#sliceEnd = performance.now() + sliceMs;
  }

  parseExceeded(): boolean {
    if ((++this.#calls & 15) !== 0) return false;
    if (this.runEnds()) return true;
    const heap = parserHeapBytes();
    const grown = heap - this.#heapAtStart;
    if (grown > this.#limits.maxParseMemory || heap > HEAP_GUARD) {
      this.stopped = {
        limit: "maxParseMemory",
        value: this.#limits.maxParseMemory,
        reached: grown,
        stage: "parse",
      };
      return true;
    }
    if (this.#late("parse")) return true;
    if (this.#sliceEnd !== undefined && performance.now() >= this.#sliceEnd) this.sliced = true;
    return this.sliced;
  }

  queryExceeded(): boolean {
    if ((++this.#calls & 15) !== 0) return false;
    return this.runEnds() || this.#late("query");
  }

  /**
   * Whether the run is being stopped: then the file's work is of no use. Also asked while the
   * matches of a large file are built (a call worker's signal is a shared flag, read at once).
   */
  runEnds(): boolean {
    this.runStopped ||= this.#shouldStop();
    return this.runStopped;
  }

  #late(stage: "parse" | "query"): boolean {
    if (this.stopped) return true;
    const elapsed = performance.now() - this.#started - this.#pausedMs;
    if (elapsed <= this.#limits.fileTimeoutMs) return false;
    this.stopped = {
      limit: "fileTimeoutMs",
      value: this.#limits.fileTimeoutMs,
      reached: Math.round(elapsed),
      stage,
    };
    return true;
  }
}

function stoppedIn(file: FileContext): RunStoppedError {
  return new RunStoppedError(`the run was stopped while searching ${file.task.filePath}`);
}

/**
 * Searches files of any language, loading each grammar and compiling each query once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FileSearcher } from "./file_search.ts";
 * const searcher = new FileSearcher({
 *   mode: "kind", query: "", kinds: ["function"], semantics: false, contextLines: 0,
 *   checksums: false, maxColumns: 500,
 * });
 * const task = { absPath: "/tmp/a.py", filePath: "a.py", language: "python" };
 * const outcome = await searcher.searchBytes(task, new TextEncoder().encode("def f():\n  pass\n"));
 * assert.equal(outcome.matches[0].name, "f");
 * ```
 */
export class FileSearcher {
  readonly #spec: SearchSpec;
  readonly #name: RegExp | undefined;
  readonly #namePrefilter: RegExp | undefined;
  readonly #states = new Map<string, LanguageState>();
  readonly #preparing = new Map<string, Promise<LanguageState>>();

  readonly #limits: ParseLimits;

  /** A searcher for `spec`, within `limits`. */
  constructor(spec: SearchSpec, limits: ParseLimits = DEFAULT_PARSE_LIMITS) {
    this.#spec = spec;
    this.#limits = limits;
    this.#name = spec.name === undefined ? undefined : new RegExp(spec.name, "u");
    this.#namePrefilter = spec.name === undefined ? undefined : namePrefilter(spec.name);
  }

  /** The spec this searcher runs. */
  get spec(): SearchSpec {
    return this.#spec;
  }

  /** The limits it keeps to. */
  get limits(): ParseLimits {
    return this.#limits;
  }

  /** Whether {@linkcode FileSearcher.outcomeWithoutParse} can rule files out by their text. */
  get rulesOutByText(): boolean {
    return this.#namePrefilter !== undefined;
  }

  /**
   * Loads the grammar of `language` and compiles the queries this spec needs for it (once;
   * {@linkcode FileSearcher.searchBytes} does it on first need). Throws a `QueryCompileError`
   * when the query does not compile, a `GrammarLoadError` when the grammar cannot load.
   */
  async prepare(language: string): Promise<void> {
    await this.#state(language);
  }

  /**
   * Starts loading the grammars and queries of `languages` at once, so their compilation
   * (which runs on background threads) overlaps; failures surface when a file needs them.
   */
  preload(languages: Iterable<string>): void {
    for (const language of languages) {
      // The rejection is not lost: the next #state call for the language loads it again
      // and its caller receives the error.
      this.#state(language).catch(() => {});
    }
  }

  #state(language: string): Promise<LanguageState> {
    let state = this.#preparing.get(language);
    if (!state) {
      state = this.#load(language);
      this.#preparing.set(language, state);
      // A failed preparation is not kept: the error reaches every caller waiting for it.
      state.catch(() => this.#preparing.delete(language));
    }
    return state;
  }

  /**
   * The definition kinds a run needs: the kinds it reports and the containers that give them
   * their parents (a query's semantics need the containers only); `undefined` for every kind.
   */
  #definitionKinds(): ReadonlySet<string> | undefined {
    const { mode, kinds } = this.#spec;
    if (mode === "kind" && kinds.length === 0) return undefined;
    return new Set([...(mode === "kind" ? kinds : []), ...CONTAINER_KINDS]);
  }

  async #load(language: string): Promise<LanguageState> {
    const grammar = await loadLanguage(language);
    const parser = await createParser(language);
    const state: LanguageState = { parser };
    try {
      if (this.#spec.mode === "query") {
        state.query = compileQuery(language, grammar, this.#spec.query);
      }
      if (this.#spec.mode === "kind" || this.#spec.semantics) {
        state.definitions = definitionQuery(language, grammar, this.#definitionKinds());
      }
    } catch (error) {
      state.query?.delete();
      parser.delete();
      throw error;
    }
    this.#states.set(language, state);
    return state;
  }

  /**
   * Reads and searches one file. Throws {@linkcode RunStoppedError} when `shouldStop` stopped
   * its parse or query.
   */
  searchFile(
    task: FileTask,
    shouldStop: StopCheck = NEVER_STOP,
    pause?: () => Promise<void>,
  ): Promise<FileOutcome> {
    return this.searchBytes(task, Deno.readFileSync(task.absPath), shouldStop, pause);
  }

  /**
   * Searches the bytes of one file. A file that cannot match (binary, or without any text the
   * `--name` pattern needs) is not parsed, and its language not even loaded. With `pause` (a
   * parse on a host's only thread), the parse halts every PARSE_SLICE_MS, awaits `pause` (which
   * lets the event loop run, and throws when the run is cancelled) and resumes where it halted.
   */
  async searchBytes(
    task: FileTask,
    bytes: Uint8Array,
    shouldStop: StopCheck = NEVER_STOP,
    pause?: () => Promise<void>,
  ): Promise<FileOutcome> {
    if (isBinary(bytes)) return { ...NOTHING, binary: true };
    const { maxParseBytes } = this.#limits;
    if (bytes.length > maxParseBytes) {
      const stopped: LimitStop = {
        limit: "maxParseBytes",
        value: maxParseBytes,
        reached: bytes.length,
        stage: "size",
      };
      return { ...NOTHING, stopped };
    }
    const decoded = decodeUtf8(bytes);
    if (this.#nameRulesOut(decoded.text)) return { ...NOTHING };
    const state = this.#states.get(task.language) ?? await this.#state(task.language);
    try {
      const file = { bytes, decoded, index: new LineIndex(bytes), task };
      const sliceMs = pause ? PARSE_SLICE_MS : undefined;
      const watch = new LimitWatch(this.#limits, shouldStop, sliceMs);
      return await this.#search(state, file, watch, pause);
    } catch (error) {
      if (error instanceof RunStoppedError) throw error;
      throw runtimeFailure(error);
    }
  }

  /** Parses and queries one file, stopping at the first limit it reaches. */
  async #search(
    state: LanguageState,
    file: FileContext,
    watch: LimitWatch,
    pause: (() => Promise<void>) | undefined,
  ): Promise<FileOutcome> {
    const parse = () =>
      state.parser.parse(file.decoded.text, null, {
        progressCallback: () => watch.parseExceeded(),
      });
    let tree = parse();
    while (!tree && watch.sliced && pause) {
      // tree-sitter resumes a halted parse on the next call with the same text.
      const paused = performance.now();
      try {
        await pause();
      } catch (error) {
        state.parser.reset();
        throw error;
      }
      watch.nextSlice(PARSE_SLICE_MS, performance.now() - paused);
      tree = parse();
    }
    if (!tree) {
      // A stopped parse is kept for resumption: the next file would continue it otherwise.
      state.parser.reset();
      if (watch.runStopped) throw stoppedIn(file);
      if (watch.stopped) return { ...NOTHING, stopped: watch.stopped };
      throw new Error(`tree-sitter returned no tree for ${file.task.filePath}`);
    }
    try {
      const root = tree.rootNode;
      const options = { progressCallback: () => watch.queryExceeded() };
      const definitions = state.definitions
        ? collectDefinitions(state.definitions, root, options)
        : [];
      const found = this.#spec.mode === "query" && state.query
        ? state.query.matches(root, options)
        : undefined;
      if (watch.runStopped) throw stoppedIn(file);
      // A query stopped midway found only some matches: the file counts as not searched.
      if (watch.stopped) return { ...NOTHING, stopped: watch.stopped };
      const matches = found
        ? this.#queryMatches(file, found, definitions, watch)
        : this.#definitionMatches(file, definitions, watch);
      const errors = errorNodes(root);
      return {
        matches,
        syntaxErrors: errors.slice(0, SYNTAX_ERRORS_LISTED).map((node) =>
          this.#syntaxError(file, node)
        ),
        syntaxErrorCount: errors.length,
      };
    } finally {
      tree.delete();
    }
  }

  /**
   * The outcome of a file that needs no parse (a binary file, or one without any text the
   * `--name` pattern needs), or `undefined` when the file must be parsed.
   */
  outcomeWithoutParse(bytes: Uint8Array): FileOutcome | undefined {
    if (isBinary(bytes)) return { ...NOTHING, binary: true };
    return this.#nameRulesOut(decodeUtf8(bytes).text) ? { ...NOTHING } : undefined;
  }

  /** No name can match in a file whose text does not: such a file needs no parse. */
  #nameRulesOut(text: string): boolean {
    return this.#namePrefilter !== undefined && !this.#namePrefilter.test(text);
  }

  /** Frees every parser and query (an aborted runtime cannot free anything: they are dropped). */
  dispose(): void {
    if (runtimeAborted()) this.#states.clear();
    for (const state of this.#states.values()) {
      state.query?.delete();
      state.parser.delete();
    }
    this.#states.clear();
    this.#preparing.clear();
  }

  #span(file: FileContext, start: number, end: number): Span {
    const { decoded } = file;
    return makeSpan(
      file.task.filePath,
      file.index,
      decoded.byteOffset(start),
      decoded.byteOffset(end),
    );
  }

  #syntaxError(file: FileContext, node: Node): SyntaxErrorInfo {
    const span = this.#span(file, node.startIndex, node.endIndex);
    if (node.isMissing) return { span, message: `missing ${node.type}` };
    const cut = cutText(file.bytes, span.byte_start, span.byte_end, 60);
    return { span, message: `unexpected ${JSON.stringify(cut.text + (cut.truncated ? "…" : ""))}` };
  }

  /** The match fields every mode shares: span, text and the requested extensions. */
  #result(
    file: FileContext,
    span: Span,
    patternIndex: number,
    symbol: { name?: string; kind?: string },
    semantics: { kind: string; parent?: string },
  ): FileMatch {
    const spec = this.#spec;
    const cut = cutText(file.bytes, span.byte_start, span.byte_end, spec.maxColumns);
    // The fields in the order the JSON reads best: where, what, then details.
    const match: FileMatch = {
      span,
      ...(symbol.name !== undefined ? { name: symbol.name } : {}),
      ...(symbol.kind !== undefined ? { kind: symbol.kind } : {}),
      pattern_index: patternIndex,
      text: cut.text,
      ...(cut.truncated ? { text_truncated: true as const } : {}),
      captures: [],
    };
    const extensions: SpanExtensions = match;
    if (spec.contextLines > 0) {
      extensions.context_before = contextLines(
        file,
        span.start_line - spec.contextLines,
        span.start_line - 1,
        spec.maxColumns,
      );
      extensions.context_after = contextLines(
        file,
        span.end_line + 1,
        span.end_line + spec.contextLines,
        spec.maxColumns,
      );
    }
    if (spec.semantics) {
      extensions.semantics = { semantic_kind: semantics.kind, language: file.task.language };
      if (semantics.parent !== undefined) extensions.semantics.parent = semantics.parent;
    }
    if (spec.checksums) {
      file.fileChecksum ??= sha256(file.bytes);
      extensions.checksums = {
        checksum_before: sha256(file.bytes.subarray(span.byte_start, span.byte_end)),
        file_checksum_before: file.fileChecksum,
      };
    }
    return match;
  }

  #capture(file: FileContext, name: string, start: number, end: number): AstCapture {
    const span = this.#span(file, start, end);
    const cut = cutText(file.bytes, span.byte_start, span.byte_end, this.#spec.maxColumns);
    const capture: AstCapture = { name, span, text: cut.text };
    if (cut.truncated) capture.text_truncated = true;
    return capture;
  }

  #definitionMatches(
    file: FileContext,
    definitions: Definition[],
    watch: LimitWatch,
  ): FileMatch[] {
    const { kinds } = this.#spec;
    const matches: FileMatch[] = [];
    for (const [index, definition] of definitions.entries()) {
      if (index % STOP_CHECK_EVERY === STOP_CHECK_EVERY - 1 && watch.runEnds()) {
        throw stoppedIn(file);
      }
      if (kinds.length && !kinds.includes(definition.kind)) continue;
      if (this.#name && !this.#name.test(definition.name)) continue;
      const span = this.#span(file, definition.start, definition.end);
      const match = this.#result(file, span, definition.patternIndex, definition, definition);
      match.captures.push(this.#capture(file, "name", definition.nameStart, definition.nameEnd));
      matches.push(match);
    }
    return matches;
  }

  #queryMatches(
    file: FileContext,
    found: QueryMatch[],
    definitions: Definition[],
    watch: LimitWatch,
  ): FileMatch[] {
    const matches: FileMatch[] = [];
    for (const [index, match] of found.entries()) {
      if (index % STOP_CHECK_EVERY === STOP_CHECK_EVERY - 1 && watch.runEnds()) {
        throw stoppedIn(file);
      }
      if (match.captures.length === 0) continue;
      let start = Infinity;
      let end = -Infinity;
      let outer: Node | undefined;
      let kind: string | undefined;
      let nameNode: Node | undefined;
      for (const capture of match.captures) {
        const node = capture.node;
        if (node.startIndex < start || (node.startIndex === start && node.endIndex > end)) {
          outer = node;
        }
        start = Math.min(start, node.startIndex);
        end = Math.max(end, node.endIndex);
        if (capture.name.startsWith("definition.")) kind = capture.name.slice("definition.".length);
        else if (capture.name === "name") nameNode ??= node;
      }
      if (this.#name && (!nameNode || !this.#name.test(nameNode.text))) continue;
      if (this.#spec.kinds.length && (!kind || !this.#spec.kinds.includes(kind))) continue;
      const enclosing = this.#spec.semantics
        ? enclosingDefinition(definitions, start, end)
        : undefined;
      const semanticKind = kind ?? outer?.type ?? "node";
      const result = this.#result(
        file,
        this.#span(file, start, end),
        match.patternIndex,
        { name: nameNode?.text, kind },
        { kind: semanticKind, parent: enclosing?.name },
      );
      for (const capture of match.captures) {
        result.captures.push(
          this.#capture(file, capture.name, capture.node.startIndex, capture.node.endIndex),
        );
      }
      matches.push(result);
    }
    matches.sort((a, b) =>
      a.span.byte_start - b.span.byte_start || a.span.byte_end - b.span.byte_end ||
      a.pattern_index - b.pattern_index
    );
    return matches;
  }
}
