/**
 * The `llm-context` engine as a library function: a task text in, the code it needs out, ranked
 * and fitted to a token budget, with no model. The terms of the task (`terms.ts`) are ranked
 * against the symbol index (`rank.ts`); the best definitions become whole blocks (a large class
 * its header and its members' signatures), packed in rank order while they fit.
 *
 * @module
 */
import { join, resolve } from "../../core/path_syntax.ts";
import type { RunCache } from "../../core/cache.ts";
import { displayPath, isInside } from "../../core/paths.ts";
import { extractFacts } from "../../core/symbol_index/extract.ts";
import {
  indexPathOf,
  IndexRefusal,
  openIndex as openTrigramIndex,
  type TrigramIndex,
} from "../../core/trigram/reader.ts";
import { decodeFile } from "../../core/utf8.ts";
import { decodeText } from "../../core/utf8.ts";
import {
  type FileRow,
  IndexStore,
  locateDb,
  type SymbolRow,
} from "../../core/symbol_index/store.ts";
// Static: a run scoped to the project (`--allow-read=<root>`) loads at run time no module of the
// package that its start did not (a literal dynamic import here was refused so).
import { indexInMemory, indexRoot } from "../../core/symbol_index/indexer.ts";
import { sha256 } from "../../schema/checksum.ts";
import { type Diagnostic, makeDiagnostic, ToolError } from "../../schema/diagnostic.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan } from "../../schema/span_build.ts";
import { LLM_CONTEXT } from "../../schema/tool_names.ts";
import { extractTerms } from "./terms.ts";
import { type Evidence, type RankedBlock, type Ranking, rankSymbol, rankTask } from "./rank.ts";
import { CONTEXT_DEFAULTS } from "./defaults.ts";
import type { ContextBlock, ContextData, ContextOmitted } from "../../schema/context.ts";

/** Options of {@linkcode context}. */
export interface ContextOptions {
  /** The root: the repository. */
  cwd: string;
  /** The task text (an issue, a request, a traceback); may be empty with `symbol`. */
  task: string;
  /**
   * One symbol's context in place of a task's: its definitions (signature and body), then its
   * callers, then its callees (`name`, `Class.method` or `pkg.mod.name`).
   */
  symbol?: string;
  /** Tokens the blocks' texts may take (a token is ceil(chars / 4)). */
  budget?: number;
  /** Only files under these root-relative paths. */
  paths?: readonly string[];
  /** Only files of this language. */
  language?: string;
  /** Span ids or files the agent already holds: not listed again. */
  exclude?: readonly string[];
  /**
   * Files (root-relative) or definitions (names) the agent holds: not listed again, and the
   * code next to them (their callers and callees) counts more.
   */
  focus?: readonly string[];
  /** A long-lived host's cache: the index stays open there and is kept fresh. */
  cache?: RunCache;
  /** Stops the refresh of a live index between files. */
  signal?: AbortSignal;
  /**
   * When the host needs the answer by (epoch ms): a wait for the index's first build under way
   * elsewhere ends by then.
   */
  deadline?: number;
  /**
   * Told of each piece of evidence the task's ranking counts (a bench's view of what each signal
   * adds); not with `symbol`, and it changes no answer.
   */
  onEvidence?: (evidence: Evidence) => void;
}

export type { ContextBlock, ContextData, ContextOmitted } from "../../schema/context.ts";

/** What {@linkcode context} answers. */
export interface ContextResult {
  /** The envelope's data. */
  data: ContextData;
  /** Notes. */
  diagnostics: Diagnostic[];
  /** Whether blocks were left out for want of room. */
  partial: boolean;
}

/** Tokens of a text: ceil(characters / 4). */
export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A class longer than this many lines is shown as its header and its members' signatures. */
const CLASS_WHOLE_LINES = 80;

/** Files listed at most. */
const FILES_LISTED = 10;

/** Omitted blocks named at most. */
const OMITTED_LISTED = 10;

/** Blocks the packer looks at, at most: past them the ranking's tail counts for little. */
const BLOCKS_CONSIDERED = 200;

/** One file's bytes read for this call, with its decoding and line index. */
interface FileBytes {
  bytes: Uint8Array;
  index: LineIndex;
  checksum: string;
}

/** The files read for a call, once each. */
class FileCache {
  readonly #root: string;
  readonly #files = new Map<string, FileBytes | undefined>();

  constructor(root: string) {
    this.#root = root;
  }

  read(path: string): FileBytes | undefined {
    if (this.#files.has(path)) return this.#files.get(path);
    let file: FileBytes | undefined;
    try {
      const bytes = Deno.readFileSync(join(this.#root, path));
      file = { bytes, index: new LineIndex(bytes), checksum: sha256(bytes) };
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    this.#files.set(path, file);
    return file;
  }
}

/** The text of bytes `[start, end)` of a file. */
function slice(file: FileBytes, start: number, end: number): string {
  return decodeText(file.bytes.subarray(start, end));
}

/** A candidate block made concrete: its span, text and tokens. */
function blockOf(
  ranked: RankedBlock,
  file: FileBytes,
  membersOf: (symbol: SymbolRow) => SymbolRow[],
): ContextBlock | undefined {
  const base = { score: round(ranked.score), reasons: ranked.reasons, checksum: file.checksum };
  const symbol = ranked.symbol;
  if (!symbol) {
    const [first, last] = ranked.lines!;
    const lines = file.index.lineCount;
    const from = file.index.lineRange(Math.min(Math.max(1, first), lines))[0];
    const to = file.index.lineRange(Math.min(Math.max(1, last), lines))[1];
    const text = slice(file, from, to);
    return {
      span: makeSpan(ranked.file_path, file.index, from, to),
      kind: "lines",
      ...base,
      tokens: tokensOf(text),
      text,
    };
  }
  if (symbol.byte_end > file.bytes.length) return undefined;
  const whole = {
    span: makeSpan(symbol.path, file.index, symbol.byte_start, symbol.byte_end),
    symbol_id: symbol.symbol_id,
    name: symbol.qualified_name,
    kind: symbol.kind,
    ...base,
  };
  const members = symbol.kind === "class" || symbol.kind === "struct" ||
      symbol.kind === "interface" || symbol.kind === "trait"
    ? membersOf(symbol)
    : [];
  const lines = symbol.end_line - symbol.start_line + 1;
  if (members.length === 0 || lines <= CLASS_WHOLE_LINES) {
    const text = slice(file, symbol.byte_start, symbol.byte_end);
    return { ...whole, tokens: tokensOf(text), text };
  }
  // A large class: its header (up to its first member), and its members' signatures.
  const headerEnd = file.index.lineRange(Math.max(symbol.start_line, members[0].start_line - 1))[1];
  const end = Math.min(Math.max(headerEnd, symbol.byte_start), symbol.byte_end);
  const text = slice(file, symbol.byte_start, end);
  const outline = members.map((member) => ({
    name: member.name,
    kind: member.kind,
    line: member.start_line,
    signature: member.signature,
  }));
  const outlineChars = outline.reduce((sum, member) => sum + member.signature.length + 1, 0);
  return {
    ...whole,
    span: makeSpan(symbol.path, file.index, symbol.byte_start, end),
    tokens: Math.ceil((text.length + outlineChars) / 4),
    text,
    outline,
  };
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

/** Whether the run may write the index folder `<root>/.llm`. */
function mayWriteIndex(root: string): boolean {
  return Deno.permissions.querySync({ name: "write", path: join(root, ".llm") }).state ===
    "granted";
}

/**
 * Runs `work` on the index of `root`: a host's live index (kept fresh), else the index as it is,
 * opened read-only; with none yet, built first when the run may write `<root>/.llm` (a note says
 * so, `LMC-IO-011`), else built in memory for this run (a note says so and how to keep one,
 * `LMC-IO-010`).
 */
async function withStore<T>(
  options: ContextOptions,
  diagnostics: Diagnostic[],
  work: (store: IndexStore) => T | Promise<T>,
): Promise<T> {
  const root = options.cwd;
  if (options.cache) {
    const { firstBuildWait, liveIndexOnNeed }: typeof import("../../core/symbol_index/live.ts") =
      await import("../../core/symbol_index/live.ts");
    try {
      // A host that may write the index builds it on first need, or waits for its first build
      // under way (then, past the wait, ranks the files indexed so far: `MAG-IO-029`).
      const { live, notes } = await liveIndexOnNeed(
        options.cache,
        root,
        undefined,
        options.signal,
        firstBuildWait(options.deadline),
      );
      diagnostics.push(...notes);
      if (!notes.some((note) => note.code === "MAG-IO-029")) {
        diagnostics.push(...await live.fresh(options.signal));
      }
      return await work(live.store);
    } catch (error) {
      if (!(error instanceof ToolError && error.code === "MAG-IO-013")) throw error;
    }
  }
  let store: IndexStore;
  try {
    store = IndexStore.open(locateDb(root, undefined, false), "read");
  } catch (error) {
    if (!(error instanceof ToolError && error.code === "MAG-IO-013")) throw error;
    if (!mayWriteIndex(root)) {
      // Ranked in memory: the same index, built for this run and dropped after it.
      const { store: memory, outcome } = await indexInMemory({ root, signal: options.signal });
      diagnostics.push(
        makeDiagnostic(
          LLM_CONTEXT,
          "LMC-IO-010",
          `no symbol index in this root: ranked from one built in memory (${outcome.result.parsed} ` +
            `file(s) in ${outcome.result.duration_ms} ms), which this run may not keep`,
          {
            level: "note",
            remediation: "Run `llm-symbols index` in the root once (or allow writing " +
              "<root>/.llm): later runs then start at once.",
          },
        ),
      );
      try {
        return await work(memory);
      } finally {
        memory.close();
      }
    }
    const built = await indexRoot({ root, signal: options.signal });
    diagnostics.push(
      makeDiagnostic(
        LLM_CONTEXT,
        "LMC-IO-011",
        `built the symbol index: ${built.result.parsed} file(s) in ${built.result.duration_ms} ms`,
        { level: "note" },
      ),
    );
    store = IndexStore.open(locateDb(root, undefined, false), "read");
  }
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

/** Files a literal search reads at most (the trigram index names the candidates). */
const LITERAL_FILES = 64;

/**
 * Where a literal occurs in the root, by the repository index (`.llm/trigram.idx`, which
 * `llm-symbols index` builds beside the symbol index): its candidate files are read and searched.
 */
function literalFinder(
  root: string,
  store: IndexStore,
): ((literal: string) => { path: string; line: number }[]) | undefined {
  let index: TrigramIndex | undefined;
  try {
    index = openTrigramIndex(indexPathOf(root));
  } catch (error) {
    if (!(error instanceof IndexRefusal)) throw error;
  }
  const encoder = new TextEncoder();
  const readFile = (path: string): Uint8Array | undefined => {
    try {
      return Deno.readFileSync(join(root, path));
    } catch {
      return undefined;
    }
  };
  const placeIn = (path: string, needle: Uint8Array, read = readFile) => {
    const bytes = read(path);
    if (!bytes) return undefined;
    const at = indexOfBytes(bytes, needle);
    if (at < 0) return undefined;
    let line = 1;
    for (let i = bytes.indexOf(0x0a); i >= 0 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
    return { path, line };
  };
  if (!index) {
    // No repository index (an index built in memory writes none): a small tree's indexed files
    // are read and searched whole; a larger one's messages are not searched.
    const files = store.files();
    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    if (bytes > LITERAL_SCAN_BYTES) return undefined;
    // Read once for all the task's messages (at most LITERAL_SCAN_BYTES are kept).
    const read = new Map<string, Uint8Array | undefined>();
    const cached = (path: string) => {
      if (!read.has(path)) read.set(path, readFile(path));
      return read.get(path);
    };
    return (literal) => {
      const needle = encoder.encode(literal);
      return files.flatMap((file) => placeIn(file.path, needle, cached) ?? []);
    };
  }
  const trigrams = index;
  return (literal) => {
    const mask = trigrams.candidates([literal], false);
    if (!mask) return [];
    const needle = encoder.encode(literal);
    const places: { path: string; line: number }[] = [];
    let read = 0;
    for (let id = 0; id < mask.length && read < LITERAL_FILES; id++) {
      if (!mask[id]) continue;
      read++;
      const place = placeIn(trigrams.paths[id], needle);
      if (place) places.push(place);
    }
    return places;
  };
}

/** Bytes of indexed files a literal search reads whole when there is no repository index. */
const LITERAL_SCAN_BYTES = 4 * 1024 * 1024;

/** The first offset of `needle` in `bytes`, or -1. */
function indexOfBytes(bytes: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  for (let at = bytes.indexOf(first); at >= 0; at = bytes.indexOf(first, at + 1)) {
    if (at + needle.length > bytes.length) return -1;
    let match = true;
    for (let k = 1; k < needle.length; k++) {
      if (bytes[at + k] !== needle[k]) {
        match = false;
        break;
      }
    }
    if (match) return at;
  }
  return -1;
}

/** `focus` and `exclude` entries that name paths, as root-relative paths (refused outside). */
function rootPaths(root: string, entries: readonly string[]): string[] {
  const realRoot = Deno.realPathSync(root);
  const paths: string[] = [];
  for (const entry of entries) {
    if (/^[0-9a-f]{16}$/.test(entry) || !/[/.]/.test(entry)) continue;
    const absolute = resolve(realRoot, entry);
    if (!isInside(realRoot, absolute)) {
      throw new ToolError("LMC-ARG-013", `${entry} lies outside the root`, { file: entry });
    }
    paths.push(displayPath(realRoot, absolute));
  }
  return paths;
}

/**
 * The code a task needs, ranked and fitted to a token budget.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { context } from "./engine.ts";
 * await assert.rejects(context({ cwd: Deno.cwd(), task: "   " }), { code: "LMC-ARG-010" });
 * ```
 */
export async function context(options: ContextOptions): Promise<ContextResult> {
  const symbol = options.symbol?.trim() || undefined;
  if (options.task.trim() === "" && !symbol) {
    throw new ToolError("LMC-ARG-010", "the task is empty", {
      remediation: "Give the task: the issue's text, a request, a traceback (or --symbol NAME).",
    });
  }
  const budget = options.budget ?? CONTEXT_DEFAULTS.budget;
  const excludedPaths = rootPaths(options.cwd, options.exclude ?? []);
  const focusPaths = rootPaths(options.cwd, options.focus ?? []);
  const diagnostics: Diagnostic[] = [];
  const terms = extractTerms(symbol ? "" : options.task);
  if (terms.truncated) {
    diagnostics.push(
      makeDiagnostic(
        LLM_CONTEXT,
        "LMC-ARG-012",
        "the task is long: only its start and its end were read",
        { level: "note" },
      ),
    );
  }
  return await withStore(options, diagnostics, async (store) => {
    const focusNames = (options.focus ?? []).filter((entry) => !/[/.]/.test(entry));
    let ranking: Ranking;
    if (symbol) {
      ranking = rankSymbol(store, symbol, { scopes: options.paths, language: options.language });
      if (ranking.blocks.length === 0) {
        throw new ToolError("LMC-QRY-002", `no definition named ${symbol} in the index`, {
          remediation: `Find the name first: llm-symbols find ${symbol} (or ask with a task).`,
        });
      }
    } else {
      ranking = rankTask(store, terms, {
        scopes: options.paths,
        language: options.language,
        focus: [...focusPaths, ...focusNames],
        findLiteral: literalFinder(options.cwd, store),
        onEvidence: options.onEvidence,
      });
    }
    const files = new FileCache(options.cwd);
    const excluded = new Set([...(options.exclude ?? []), ...excludedPaths, ...focusPaths]);
    const held = new Set(focusNames);
    // A file's definitions, read once per call (a class's members, for its outline).
    const ofFile = new Map<number, SymbolRow[]>();
    const membersOf = (symbol: SymbolRow) => {
      let rows = ofFile.get(symbol.file_id);
      if (!rows) ofFile.set(symbol.file_id, rows = store.symbolsOfFile(symbol.file_id));
      return rows.filter((row) => row.parent === symbol.qualified_name);
    };
    const stale = new StaleFiles(store);
    const blocks: ContextBlock[] = [];
    const omitted: ContextOmitted[] = [];
    let used = 0;
    for (const ranked of ranking.blocks.slice(0, BLOCKS_CONSIDERED)) {
      if (excluded.has(ranked.file_path)) continue;
      if (ranked.symbol && held.has(ranked.symbol.name)) continue;
      const file = files.read(ranked.file_path);
      if (!file) continue;
      const current = await stale.current(ranked, file);
      if (!current) continue;
      const block = blockOf(current, file, membersOf);
      if (!block || excluded.has(block.span.span_id)) continue;
      if (insideListed(block, blocks)) continue;
      // A whole class after one of its methods: it takes the method's place (and tokens), so no
      // text is sent twice.
      const inside = blocks.filter((other) => spanInside(other, block));
      const freed = inside.reduce((sum, other) => sum + other.tokens, 0);
      if (used - freed + block.tokens <= budget) {
        if (inside.length > 0) {
          // Why its members were chosen is why it is read.
          const reasons = inside.flatMap((other) => other.reasons);
          block.reasons = [...new Set([...block.reasons, ...reasons])];
          const at = blocks.indexOf(inside[0]);
          for (const other of inside) blocks.splice(blocks.indexOf(other), 1);
          blocks.splice(at, 0, block);
        } else blocks.push(block);
        used += block.tokens - freed;
      } else if (omitted.length < OMITTED_LISTED) {
        omitted.push({
          span: {
            file_path: block.span.file_path,
            start_line: block.span.start_line,
            end_line: block.span.end_line,
            span_id: block.span.span_id,
          },
          ...(block.name ? { name: block.name } : {}),
          score: block.score,
          tokens: block.tokens,
        });
      }
    }
    diagnostics.push(...stale.notes());
    if (blocks.length === 0 && omitted.length > 0) {
      diagnostics.push(
        makeDiagnostic(
          LLM_CONTEXT,
          "LMC-QRY-001",
          `no block fits the budget of ${budget} tokens: the best takes ${omitted[0].tokens}`,
          { level: "warning" },
        ),
      );
    }
    return {
      data: {
        count: blocks.length,
        budget,
        tokens_used: used,
        token_rule: "ceil(chars / 4) of each block's text and outline",
        files: ranking.files.filter((file) => !excluded.has(file.file_path)).slice(0, FILES_LISTED)
          .map((file) => ({
            file_path: file.file_path,
            score: round(file.score),
            reasons: file.reasons,
          })),
        blocks,
        omitted,
        ...(omitted.length > 0
          ? {
            next: {
              tool: "context" as const,
              arguments: {
                exclude: [...(options.exclude ?? []), ...blocks.map((b) => b.span.span_id)],
                // When nothing fitted, the best block's size: the same budget would list nothing
                // again.
                budget: blocks.length > 0 ? budget : Math.max(budget, omitted[0].tokens),
              },
            },
          }
          : {}),
      },
      diagnostics,
      // Ranked over the files indexed so far while a first build goes on elsewhere: partial.
      partial: omitted.length > 0 || diagnostics.some((d) => d.code === "MAG-IO-029"),
    };
  });
}

/**
 * Files changed since the index read them: their definitions are found again in their bytes
 * (the index's spans may not hold), and a note says which files were.
 */
class StaleFiles {
  readonly #store: IndexStore;
  readonly #found = new Map<string, Map<string, SymbolRow> | undefined>();
  /** The index's row of each file met, read once (a file holds many of the blocks). */
  readonly #rows = new Map<string, FileRow | undefined>();

  constructor(store: IndexStore) {
    this.#store = store;
  }

  /** `ranked` as it lies in `file` now, or undefined when it is no longer there. */
  async current(ranked: RankedBlock, file: FileBytes): Promise<RankedBlock | undefined> {
    if (!this.#rows.has(ranked.file_path)) {
      this.#rows.set(ranked.file_path, this.#store.file(ranked.file_path));
    }
    const row = this.#rows.get(ranked.file_path);
    if (!row || row.hash === file.checksum) return ranked;
    if (!ranked.symbol) return undefined;
    if (!this.#found.has(ranked.file_path)) {
      this.#found.set(ranked.file_path, await extractAgain(ranked.symbol, file));
    }
    const now = this.#found.get(ranked.file_path)?.get(ranked.symbol.qualified_name);
    return now ? { ...ranked, symbol: now } : undefined;
  }

  notes(): Diagnostic[] {
    return [...this.#found.keys()].sort().map((path) =>
      makeDiagnostic(
        LLM_CONTEXT,
        "LMC-IO-012",
        `${path} changed since the index read it: its blocks were found in its bytes again`,
        { level: "note", file: path },
      )
    );
  }
}

/** The definitions of a changed file by qualified name, positions from its bytes now. */
async function extractAgain(
  like: SymbolRow,
  file: FileBytes,
): Promise<Map<string, SymbolRow> | undefined> {
  try {
    const facts = await extractFacts(like.language, decodeFile(file.bytes));
    return new Map(
      facts.symbols.map((fact) => [fact.qualified_name, {
        ...like,
        name: fact.name,
        qualified_name: fact.qualified_name,
        kind: fact.kind,
        parent: fact.parent ?? null,
        signature: fact.signature,
        ...fact.extent,
      }]),
    );
  } catch {
    // The file no longer parses as its language (or the runtime aborted): its blocks go.
    return undefined;
  }
}

/** Whether `block`'s span lies inside `around`'s (the same span included). */
function spanInside(block: ContextBlock, around: ContextBlock): boolean {
  return block.span.file_path === around.span.file_path &&
    around.span.byte_start <= block.span.byte_start && block.span.byte_end <= around.span.byte_end;
}

/** Whether `block` lies inside a block already listed (a method of a listed class). */
function insideListed(block: ContextBlock, listed: readonly ContextBlock[]): boolean {
  return listed.some((other) => spanInside(block, other));
}
