/**
 * The ranking of `llm-context`: from a task's terms (`terms.ts`) to scored definitions and files
 * of the symbol index, with the reasons each was chosen. Signals, strongest first:
 *
 * - **traceback frames**: the file a frame names (matched by path suffix) and the definition
 *   enclosing its line (or named as its function); a frame in the user's installed copy of the
 *   repository (`site-packages/<pkg>/…`) is the repository's, a renamed file's found by its
 *   function;
 * - **paths** the task writes, and the definition enclosing a line it gives;
 * - **definitions named in the task**: an identifier that is a definition's name (a dotted one
 *   also by its qualifier), worth less the more definitions share the name; the title's names
 *   count more and point at their files; a class named brings its constructor;
 * - **module names**: a dotted name that is a file's module path (`pkg.sub.mod`); a path whose
 *   folders or stem the title writes, two words or more (`LaTeX printing` → `printing/latex.py`);
 * - **BM25** over the definitions' text chunks, when the index has them (`chunkScores`);
 * - **the graph**: callers and callees of the best definitions get a share of their score;
 * - **the first file's imports**, after its best definition (a fix often imports a name).
 *
 * A definition's score is then scaled by its file's (files first, then definitions in them).
 *
 * Tests and docs count less unless the task names them. Deterministic: ties break by path and
 * position.
 *
 * @module
 */
import type { IndexStore, SymbolRow, WeightedTerm } from "../../core/symbol_index/store.ts";
import { chunkTerms } from "../../core/symbol_index/chunk_terms.ts";
import type { TaskTerm, TaskTerms } from "./terms.ts";

/** One reason a candidate was chosen, with its evidence (contract §10). */
export type Reason = string;

/** A definition (or a file's lines) the ranking scored. */
export interface RankedBlock {
  /** The definition, or undefined for lines of a file outside any definition. */
  symbol?: SymbolRow;
  /** The file. */
  file_path: string;
  /** Lines outside definitions: the 1-based line range. */
  lines?: [number, number];
  /** The score. */
  score: number;
  /** Why, strongest first. */
  reasons: Reason[];
}

/** A file the ranking scored. */
export interface RankedFile {
  /** Root-relative path. */
  file_path: string;
  /** The score. */
  score: number;
  /** Why, strongest first. */
  reasons: Reason[];
}

/** The ranking of a task. */
export interface Ranking {
  /** Definitions (and lines), best first. */
  blocks: RankedBlock[];
  /** Files, best first. */
  files: RankedFile[];
}

/** What the ranking may leave out or must prefer. */
export interface RankOptions {
  /** Only files under these root-relative paths (files or folders). */
  scopes?: readonly string[];
  /** Only files of this language (a registry name). */
  language?: string;
  /** Files and symbols the agent holds: their neighbours count more; they are not listed. */
  focus?: readonly string[];
  /**
   * Where a literal text occurs in the repository (root-relative paths, 1-based lines), for the
   * messages a task quotes; absent, messages are not searched.
   */
  findLiteral?: (literal: string) => { path: string; line: number }[];
  /**
   * Told of each piece of evidence as it is counted, before the test factor and the file trust
   * scale blocks (a bench's view of what each signal adds: `bench/localize_floor.ts`). Not needed
   * to rank.
   */
  onEvidence?: (evidence: Evidence) => void;
}

/** One piece of evidence a ranking counts. */
export interface Evidence {
  /** The file it is about. */
  file_path: string;
  /** The block it scores (a key unique within one ranking); absent for the file's own evidence. */
  block?: string;
  /** Why, with its evidence (`named_in_task:Foo`, `terms`, `callee_of:<id>`…). */
  reason: string;
  /** What it adds to the block's or the file's score. */
  score: number;
}

/** How much each signal counts, per unit of a term's weight (tuned on the development set). */
export const SIGNAL = {
  /** A frame's file. */
  frameFile: 3,
  /** The definition enclosing a frame's line. */
  frameDefinition: 4,
  /** Each frame further from the error (among the repository's) counts this much of the last. */
  frameDecay: 0.6,
  /** A written path's file. */
  pathFile: 2.5,
  /** The definition enclosing a written path's line. */
  pathDefinition: 3,
  /** A definition whose name the task writes (divided by the root of how many share it). */
  named: 2,
  /** Factor of a name the task's title writes (its subject). */
  titleNamed: 1.5,
  /** A definition the title names (one of two at most), for its file, as a share of its own. */
  titleNamedFile: 2,
  /** A named class's constructor, as a share of the class's score. */
  constructor: 1,
  /** A dotted name whose qualifier matches the definition's too. */
  qualified: 1.5,
  /** A file whose module path the task writes. */
  module: 2,
  /** A file whose stem is a name the task writes. */
  stem: 1,
  /** A class the task names (one of few so named), for its file, as a share of the name's. */
  namedClassFile: 1,
  /** A dotted name whose qualifier is none of the repository's (`np.array`). */
  foreignQualifier: 0.3,
  /** The best BM25 chunk's share (scores are scaled to the best one's). */
  bm25: 6,
  /** A file's module chunk (its text outside definitions), for the file. */
  moduleChunk: 0.5,
  /** The definition holding a message the task quotes. */
  message: 4,
  /** The file holding it, for a share of that. */
  messageFile: 0.75,
  /** A caller's or callee's share of a seed's score. */
  graph: 0.15,
  /** A definition the agent holds (`focus`), as a seed of the graph. */
  focus: 30,
  /**
   * A file's best definition, for the file (its second best counts a fifth): a file ranks by
   * the code in it the task points at more than by mentions of its module.
   */
  bestBlock: 1.5,
  /** The best of the first file's own BM25 chunks ({@linkcode topFileTerms}). */
  topFile: 3,
  /** Tests, docs and examples, unless the task names them. */
  testFactor: 0.35,
  /** A file whose path holds two or more of the title's words, per word. */
  titlePath: 10,
  /** Exponent of a block's file score over the first file's, which scales the block's score. */
  fileTrust: 0.5,
  /** The first file's import head, as a share of that file's best block. */
  importHead: 0.4,
} as const;

/**
 * Paths of tests, docs and examples, and of vendored third-party code (a project's copy of a
 * library is rarely what its issues are about).
 */
const AUXILIARY =
  /(^|\/)(tests?|testing|docs?|examples?|benchmarks?|vendor|_vendor|vendored|third_party|externals?|packages)\/|(^|\/)test_[^/]*$|_tests?\.[^/]+$|(^|\/)conftest\.py$/;

/** Whether `path` is a test, doc or example file. */
export function isAuxiliary(path: string): boolean {
  return AUXILIARY.test(path);
}

/** A path of installed packages or of the language's own library: no file of the repository. */
const EXTERNAL =
  /(^|[\\/])(site-packages|dist-packages|node_modules|lib[\\/]python\d[.\d]*|\.cargo|go[\\/]src)[\\/]|^<|^\/usr\//;

/**
 * The repository path of a frame or path in an installed copy of this repository (a user's
 * traceback through `site-packages/<pkg>/…` where `<pkg>` is one of the repository's Python
 * packages), or undefined. Such a frame is the repository's own, under a path that may have been
 * renamed since; any other file under an installed-packages folder is a library's.
 */
function installedCopy(store: IndexStore, term: TaskTerm): string | undefined {
  const written = term.path ?? term.value;
  if (!EXTERNAL.test(written)) return undefined;
  const path = term.value.replace(/:\d+(:\d+)?$/, "");
  const slash = path.indexOf("/");
  if (slash <= 0) return undefined;
  const isPackage = store.pathsEndingWith(`/${path.slice(0, slash)}/__init__.py`).length > 0;
  return isPackage ? path : undefined;
}

/** The key of a definition's block in {@linkcode Scores.blocks}. */
function blockKey(symbol: SymbolRow): string {
  return `${symbol.path}\0${symbol.byte_start}\0${symbol.byte_end}`;
}

/** The scores being gathered. */
class Scores {
  readonly blocks = new Map<string, RankedBlock>();
  readonly files = new Map<string, RankedFile>();
  readonly #onEvidence: ((evidence: Evidence) => void) | undefined;

  constructor(onEvidence?: (evidence: Evidence) => void) {
    this.#onEvidence = onEvidence;
  }

  block(symbol: SymbolRow, score: number, reason: Reason): void {
    const key = blockKey(symbol);
    this.#onEvidence?.({ file_path: symbol.path, block: key, reason, score });
    const known = this.blocks.get(key);
    if (known) {
      known.score += score;
      if (!known.reasons.includes(reason)) known.reasons.push(reason);
    } else {
      this.blocks.set(key, { symbol, file_path: symbol.path, score, reasons: [reason] });
    }
  }

  lines(path: string, lines: [number, number], score: number, reason: Reason): void {
    const key = `${path}\0L${lines[0]}`;
    this.#onEvidence?.({ file_path: path, block: key, reason, score });
    const known = this.blocks.get(key);
    if (known) {
      known.score += score;
      if (!known.reasons.includes(reason)) known.reasons.push(reason);
    } else this.blocks.set(key, { file_path: path, lines, score, reasons: [reason] });
  }

  file(path: string, score: number, reason: Reason): void {
    this.#onEvidence?.({ file_path: path, reason, score });
    const known = this.files.get(path);
    if (known) {
      known.score += score;
      if (!known.reasons.includes(reason)) known.reasons.push(reason);
    } else this.files.set(path, { file_path: path, score, reasons: [reason] });
  }
}

/** The innermost definition of `symbols` (one file's) enclosing 1-based `line`. */
function enclosing(symbols: readonly SymbolRow[], line: number): SymbolRow | undefined {
  let best: SymbolRow | undefined;
  for (const symbol of symbols) {
    if (symbol.start_line <= line && line <= symbol.end_line) {
      if (!best || symbol.byte_end - symbol.byte_start < best.byte_end - best.byte_start) {
        best = symbol;
      }
    }
  }
  return best;
}

/**
 * The indexed files a path as written names: those ending with its longest suffix that some file
 * ends with (`a/b/c.py` → files ending `a/b/c.py`, else `b/c.py`, else `c.py`).
 */
function filesOfPath(store: IndexStore, path: string): string[] {
  const parts = path.replace(/\\/g, "/").split("/").filter((part) => part && part !== ".");
  for (let from = 0; from < parts.length; from++) {
    const suffix = parts.slice(from).join("/");
    const found = store.pathsEndingWith(`/${suffix}`);
    if (found.length > 0) return found.length <= 3 ? found : [];
  }
  return [];
}

/** Candidate file paths of a dotted module name (`a.b.c` → `a/b/c.py`, `a/b/c/__init__.py`…). */
function moduleFiles(store: IndexStore, dotted: string): string[] {
  const parts = dotted.split(".");
  if (parts.length < 2 || parts.some((part) => !/^\w+$/.test(part))) return [];
  const base = parts.join("/");
  const found: string[] = [];
  for (const candidate of [`${base}.py`, `${base}/__init__.py`, `${base}.ts`, `${base}.js`]) {
    for (const path of store.pathsEndingWith(`/${candidate}`)) {
      if (!found.includes(path)) found.push(path);
    }
  }
  return found.length <= 2 ? found : [];
}

/** The definitions of a file, and those of a name, read once per ranking. */
class FileSymbols {
  readonly #store: IndexStore;
  readonly #byPath = new Map<string, SymbolRow[]>();
  readonly #byName = new Map<string, SymbolRow[]>();

  /** The definitions named exactly `name`. */
  named(name: string): SymbolRow[] {
    let rows = this.#byName.get(name);
    if (!rows) {
      rows = this.#store.symbolsNamed(name).filter((row) => row.name === name);
      this.#byName.set(name, rows);
    }
    return rows;
  }

  constructor(store: IndexStore) {
    this.#store = store;
  }

  of(path: string): SymbolRow[] {
    let symbols = this.#byPath.get(path);
    if (!symbols) {
      const file = this.#store.file(path);
      symbols = file ? this.#store.symbolsOfFile(file.id) : [];
      this.#byPath.set(path, symbols);
    }
    return symbols;
  }
}

/** A frame's or path's evidence: its file and, with a line or a function, the definition. */
function locate(
  scores: Scores,
  symbols: FileSymbols,
  store: IndexStore,
  term: TaskTerm,
  weights: { file: number; definition: number },
): void {
  const copy = installedCopy(store, term);
  const written = copy ?? term.path ?? term.value;
  const paths = copy === undefined
    ? filesOfPath(store, written)
    : store.pathsEndingWith(`/${copy}`);
  if (paths.length === 0 && term.function && (copy !== undefined || !EXTERNAL.test(written))) {
    // A frame of a file the repository no longer has (renamed since): its function may be there.
    // Its definitions share the frame's weight; their files (a file defines the name once per
    // class) share the file's.
    const rows = symbols.named(term.function);
    const files = new Set(rows.map((row) => row.path));
    if (rows.length > 0 && rows.length <= 12 && files.size <= 3) {
      for (const row of rows) {
        scores.block(row, (term.weight * weights.definition) / rows.length, `traceback:${written}`);
      }
      for (const path of files) {
        scores.file(path, (term.weight * weights.file) / files.size, `traceback:${written}`);
      }
    }
  }
  for (const path of paths) {
    const reason = term.kind === "frame"
      ? `traceback:${path}${term.line ? `:${term.line}` : ""}`
      : `named_in_task:${path}`;
    scores.file(path, term.weight * weights.file, reason);
    const inFile = symbols.of(path);
    let definition = term.line ? enclosing(inFile, term.line) : undefined;
    if (!definition && term.function) {
      definition = inFile.find((symbol) => symbol.name === term.function);
    }
    if (definition) scores.block(definition, term.weight * weights.definition, reason);
    else if (term.line) {
      scores.lines(
        path,
        [Math.max(1, term.line - 8), term.line + 8],
        term.weight * weights.definition,
        reason,
      );
    }
  }
}

/** An identifier's last part (`a.b.f` → `f`) and its qualifier (`a`, `b`). */
function nameParts(value: string): { name: string; qualifier: string[] } {
  const parts = value.split(/\.|::/).filter(Boolean);
  return { name: parts.at(-1) ?? "", qualifier: parts.slice(0, -1) };
}

/**
 * Definitions whose name the task writes: each name once, at the best weight of the identifiers
 * ending in it (`scatterplot` and `sns.scatterplot` are one name), worth less the more
 * definitions share it; more when a dotted form's qualifier is the definition's class or module,
 * less when no dotted form's is (`np.array` is numpy's). A name that is a file's stem
 * (`concat` → `concat.py`) points at that file too.
 */
function named(
  scores: Scores,
  store: IndexStore,
  symbols: FileSymbols,
  terms: readonly TaskTerm[],
): void {
  const byName = new Map<string, TaskTerm[]>();
  for (const term of terms) {
    if (term.kind !== "identifier") continue;
    const { name } = nameParts(term.value);
    if (name.length < 2) continue;
    byName.set(name, [...(byName.get(name) ?? []), term]);
  }
  for (const [name, group] of byName) {
    // A name the title writes is the issue's subject: it counts more than one only the body has.
    const titled = group.some((term) => term.in_title) ? SIGNAL.titleNamed : 1;
    const weight = Math.max(...group.map((term) => term.weight)) * titled;
    const qualifiers = group.map((term) => nameParts(term.value).qualifier).filter((q) =>
      q.length > 0
    );
    const plain = group.some((term) => nameParts(term.value).qualifier.length === 0);
    const rows = symbols.named(name);
    if (rows.length > 0 && rows.length <= 200) {
      const share = (weight * SIGNAL.named * specificity(store, name)) / Math.sqrt(rows.length);
      for (const row of rows) {
        const qualified = qualifiers.some((qualifier) => qualifierMatches(row, qualifier));
        const factor = qualified
          ? SIGNAL.qualified
          : plain || qualifiers.length === 0
          ? 1
          : SIGNAL.foreignQualifier;
        scores.block(row, share * factor, `named_in_task:${group[0].value}`);
        // A class named (few define it) points at its file more than a function's name does.
        if (rows.length <= 3 && CLASS_KINDS.has(row.kind)) {
          scores.file(row.path, share * factor * SIGNAL.namedClassFile, `defines:${name}`);
          // Making one runs its constructor, where what it does with its arguments is decided.
          const constructor = symbols.of(row.path).find((member) =>
            member.parent === row.qualified_name && CONSTRUCTORS.has(member.name)
          );
          if (constructor) {
            scores.block(constructor, share * factor * SIGNAL.constructor, `constructs:${name}`);
          }
        } else if (titled > 1 && rows.length <= 2) {
          // The title's subject, defined once or twice: its file is what the issue is about.
          scores.file(row.path, share * factor * SIGNAL.titleNamedFile, `defines:${name}`);
        }
      }
    }
    for (
      const path of store.pathsNamed(`${name}.py`).concat(
        store.pathsNamed(`${name}.ts`),
        store.pathsNamed(`${name}.js`),
      ).slice(0, 3)
    ) {
      scores.file(path, weight * SIGNAL.stem, `module:${name}`);
    }
    for (const term of group) {
      const { qualifier } = nameParts(term.value);
      for (const dotted of [term.value, qualifier.join(".")]) {
        for (const path of moduleFiles(store, dotted)) {
          scores.file(path, term.weight * SIGNAL.module, `module:${dotted}`);
        }
      }
    }
  }
}

/** Names of constructors: Python's, JavaScript's and TypeScript's, Rust's by convention. */
const CONSTRUCTORS = new Set(["__init__", "__new__", "constructor", "new"]);

/** Kinds that hold members: naming one names its file's subject. */
const CLASS_KINDS = new Set(["class", "struct", "interface", "trait", "enum"]);

/**
 * How specific a name is in this repository, 0..1: the inverse document frequency of its
 * lower-cased form over the index's chunks (1 when the index has none). `kind` or `args`, in
 * thousands of chunks, say less of where to look than `HueMapping`.
 */
function specificity(store: IndexStore, name: string): number {
  if (!store.hasChunks()) return 1;
  const total = store.chunkCount();
  const term = name.toLowerCase().replace(/_/g, "");
  const frequency = store.derived(`context:df:${term}`, () => store.chunkFrequency(term));
  return Math.log((total + 1) / (frequency + 1)) / Math.log(total + 1);
}

/** Whether a definition's qualified name or path holds the qualifier's last part. */
function qualifierMatches(row: SymbolRow, qualifier: readonly string[]): boolean {
  const last = qualifier.at(-1)!;
  if (row.qualified_name.split(".").slice(0, -1).includes(last)) return true;
  const pathParts = row.path.replace(/\.[^./]+$/, "").split("/");
  return pathParts.includes(last);
}

/** Whether `path` lies in one of `scopes` (none: everywhere). */
function inScope(path: string, scopes: readonly string[] | undefined): boolean {
  if (!scopes || scopes.length === 0) return true;
  return scopes.some((scope) =>
    scope === "." || scope === "" || path === scope ||
    path.startsWith(`${scope.replace(/\/$/, "")}/`)
  );
}

/**
 * Ranks the definitions and files of `store` for `task`. `chunkScores`, when the index has text
 * chunks, gives BM25 scores of definitions for weighted terms.
 */
export function rankTask(
  store: IndexStore,
  task: TaskTerms,
  options: RankOptions = {},
): Ranking {
  const scores = new Scores(options.onEvidence);
  const symbols = new FileSymbols(store);
  const named_files = new Set<string>();
  // Frames in the repository, closest to the error first: each further one counts less (the
  // outer frames are the API the user called, the inner ones the code that failed).
  const frames = task.terms.filter((term) =>
    term.kind === "frame" &&
    (!EXTERNAL.test(term.path ?? term.value) || installedCopy(store, term) !== undefined)
  )
    .sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0) || a.offset - b.offset);
  // A file counts by its innermost frame alone: a file the traceback passes through twice (an
  // outer API and its callback) is not more the error's than the file that raised it.
  const framed = new Set<string>();
  for (const [rank, term] of frames.entries()) {
    const decay = SIGNAL.frameDecay ** rank;
    const written = term.path ?? term.value;
    const again = framed.has(written);
    framed.add(written);
    locate(scores, symbols, store, { ...term, weight: term.weight * decay }, {
      file: again ? 0 : SIGNAL.frameFile,
      definition: SIGNAL.frameDefinition,
    });
  }
  // A traceback's paths are its frames' (a path term repeats each frame's file): counted once.
  const framePaths = new Set(frames.map((term) => term.path ?? term.value));
  for (const term of task.terms) {
    if (term.kind === "path" && !framePaths.has(term.path ?? term.value)) {
      locate(scores, symbols, store, term, {
        file: SIGNAL.pathFile,
        definition: SIGNAL.pathDefinition,
      });
    }
  }
  named(scores, store, symbols, task.terms);
  if (options.findLiteral) messages(scores, symbols, task, options.findLiteral);
  // A file the task writes as a path is what it is about, test or not; a frame's file is not
  // (a traceback passes through tests and vendored code).
  for (const term of task.terms) {
    if (term.kind !== "path" || term.context === "traceback") continue;
    for (const path of filesOfPath(store, term.path ?? term.value)) named_files.add(path);
  }
  titlePaths(scores, store, task);
  if (store.hasChunks()) bm25(scores, store, task);
  seedFocus(scores, symbols, options.focus ?? []);
  expandGraph(scores, store, symbols);
  const blocks = [...scores.blocks.values()].filter((block) =>
    inScope(block.file_path, options.scopes) &&
    (!options.language || !block.symbol || block.symbol.language === options.language)
  );
  for (const block of blocks) {
    if (isAuxiliary(block.file_path) && !named_files.has(block.file_path)) {
      block.score *= SIGNAL.testFactor;
    }
  }
  const files = rankFiles(scores, blocks, named_files, options);
  if (store.hasChunks() && files.length > 0) {
    for (const block of topFileTerms(store, task, blocks, files[0].file_path, scores)) {
      blocks.push(block);
    }
  }
  if (files.length > 0 && files[0].score > 0) {
    // A definition is read in its file: one in a file the ranking doubts counts less than an
    // equal one in the file it trusts most (files first, then definitions within them).
    const fileScore = new Map(files.map((file) => [file.file_path, file.score]));
    const top = files[0].score;
    for (const block of blocks) {
      block.score *= ((fileScore.get(block.file_path) ?? 0) / top) ** SIGNAL.fileTrust;
    }
  }
  if (files.length > 0) {
    const head = importHead(store, symbols, files[0].file_path, blocks);
    if (head) blocks.push(head);
  }
  blocks.sort(compareBlocks);
  return { blocks, files };
}

/**
 * The first file's imports (the module's head, before its first definition) as a block that
 * comes after that file's best definition: a fix often needs a name imported, and the head says
 * which names the file already has and where from.
 */
function importHead(
  store: IndexStore,
  symbols: FileSymbols,
  path: string,
  blocks: readonly RankedBlock[],
): RankedBlock | undefined {
  const best = blocks.find((block) => block.file_path === path);
  const file = store.file(path);
  if (!best || !file) return undefined;
  const firstDefinition = symbols.of(path).reduce(
    (first, symbol) => Math.min(first, symbol.start_line),
    Number.MAX_SAFE_INTEGER,
  );
  const head = store.importsOfFile(file.id).filter((row) => row.end_line < firstDefinition);
  if (head.length === 0) return undefined;
  const from = head[0].start_line;
  const to = Math.min(head.at(-1)!.end_line, from + IMPORT_HEAD_LINES - 1);
  return {
    file_path: path,
    lines: [from, to],
    score: best.score * SIGNAL.importHead,
    reasons: ["imports"],
  };
}

/** Lines of a file's import head listed at most. */
const IMPORT_HEAD_LINES = 60;

/**
 * The definitions of the best file that the task's terms reach, by BM25 over that file's chunks
 * alone: their share (SIGNAL.topFile of the best) is added to their blocks, and those the whole
 * index's query had not reached are returned as new blocks. A large file's functions rarely
 * make the whole index's best chunks, yet the file the ranking put first is where the task most
 * likely lies, and its definitions that share the task's words are what to read there.
 */
function topFileTerms(
  store: IndexStore,
  task: TaskTerms,
  blocks: readonly RankedBlock[],
  path: string,
  scores: Scores,
): RankedBlock[] {
  const fileId = blocks.find((block) => block.file_path === path && block.symbol)?.symbol?.file_id;
  if (fileId === undefined) return [];
  const within = new Set(store.symbolIdsOfFile(fileId));
  const top = store.chunkScores(bm25Terms(task), TOP_FILE_CHUNKS, { within });
  if (top.length === 0) return [];
  const best = top[0].score;
  const scoreOf = new Map(top.map((chunk) => [chunk.rowid, chunk.score]));
  const known = new Set(scores.blocks.values());
  const added: RankedBlock[] = [];
  for (const row of store.chunkRows(top.map((chunk) => chunk.rowid))) {
    if (!row.symbol) continue;
    const score = (scoreOf.get(row.rowid)! / best) * SIGNAL.topFile;
    const factor = isAuxiliary(row.path) ? SIGNAL.testFactor : 1;
    scores.block(row.symbol, score * factor, "terms_in_file");
    const block = scores.blocks.get(blockKey(row.symbol))!;
    if (!known.has(block)) added.push(block);
  }
  return added;
}

/** Chunks of the best file scored by {@linkcode topFileTerms} at most. */
const TOP_FILE_CHUNKS = 20;

/**
 * The BM25 query of a task: its identifiers and words as the index's chunks hold them
 * (`chunkTerms`), each at the best weight it comes with (an identifier's parts at half its).
 */
function bm25Terms(task: TaskTerms): WeightedTerm[] {
  const weights = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const term of chunkTerms(text)) {
      weights.set(term, Math.max(weights.get(term) ?? 0, weight));
    }
  };
  for (const term of task.terms) {
    if (term.kind === "word") add(term.value, term.weight);
    else if (term.kind === "identifier") add(term.value.replace(/[.:]+/g, " "), term.weight / 2);
  }
  return [...weights].map(([term, weight]) => ({ term, weight })).sort((a, b) =>
    b.weight - a.weight || (a.term < b.term ? -1 : 1)
  ).slice(0, BM25_TERMS);
}

/**
 * BM25 of the definitions' chunks (and files' module chunks) for the task's terms: the best
 * chunk's score is worth SIGNAL.bm25 of a term's weight, the others in proportion.
 */
function bm25(scores: Scores, store: IndexStore, task: TaskTerms): void {
  const top = store.chunkScores(bm25Terms(task), BM25_CHUNKS);
  if (top.length === 0) return;
  const best = top[0].score;
  const rows = new Map(
    store.chunkRows(top.map((chunk) => chunk.rowid)).map((row) => [row.rowid, row]),
  );
  for (const chunk of top) {
    const row = rows.get(chunk.rowid);
    if (!row) continue;
    const score = (chunk.score / best) * SIGNAL.bm25;
    if (row.symbol) scores.block(row.symbol, score, "terms");
    else scores.file(row.path, score * SIGNAL.moduleChunk, "terms");
  }
}

/**
 * Files whose path the title spells: two or more of the title's words are folders or the stem of
 * its path (`LaTeX printing …` → `printing/latex.py`, `… breaks pretty printing` →
 * `printing/pretty/pretty.py`). A part most files share (the top package) says nothing.
 */
function titlePaths(scores: Scores, store: IndexStore, task: TaskTerms): void {
  const words = new Set<string>();
  for (const term of task.terms) {
    if (term.in_title && (term.kind === "word" || term.kind === "identifier")) {
      words.add(term.value.toLowerCase());
    }
  }
  const byPart = pathParts(store);
  const hits = new Map<string, string[]>();
  for (const word of words) {
    const files = byPart.get(word);
    if (!files) continue;
    for (const path of files) hits.set(path, [...hits.get(path) ?? [], word]);
  }
  for (const [path, matched] of hits) {
    if (matched.length < 2) continue;
    scores.file(path, SIGNAL.titlePath * matched.length, `title_path:${matched.join(",")}`);
  }
}

/**
 * Indexed files by each lower-cased folder and stem of their paths, leaving out the parts more
 * than a fifth of the files share; kept until the index changes.
 */
function pathParts(store: IndexStore): Map<string, string[]> {
  return store.derived("context:path-parts", () => {
    const files = store.files();
    const byPart = new Map<string, string[]>();
    for (const file of files) {
      const parts = new Set(file.path.replace(/\.[^./]+$/, "").toLowerCase().split("/"));
      for (const part of parts) {
        const list = byPart.get(part);
        if (list) list.push(file.path);
        else byPart.set(part, [file.path]);
      }
    }
    for (const [part, list] of byPart) {
      if (list.length > files.length / 5) byPart.delete(part);
    }
    return byPart;
  });
}

/** Terms of a BM25 query at most. */
const BM25_TERMS = 48;

/** Chunks BM25 scores at most. */
const BM25_CHUNKS = 150;

/** Fragments of a message shorter than this are not searched: they occur everywhere. */
const MESSAGE_FRAGMENT_CHARS = 12;

/** Places of a message fragment past which it is too common to point anywhere. */
const MESSAGE_PLACES = 8;

/**
 * The messages a task quotes (an exception's text), searched literally: the definition holding
 * one (its `raise`), or the lines around it, and its file.
 */
function messages(
  scores: Scores,
  symbols: FileSymbols,
  task: TaskTerms,
  findLiteral: (literal: string) => { path: string; line: number }[],
): void {
  for (const term of task.terms) {
    if (term.kind !== "message") continue;
    const fragments = (term.fragments ?? [term.value]).filter((fragment) =>
      fragment.length >= MESSAGE_FRAGMENT_CHARS
    ).sort((a, b) => b.length - a.length).slice(0, 2);
    for (const fragment of fragments) {
      const places = findLiteral(fragment);
      if (places.length === 0 || places.length > MESSAGE_PLACES) continue;
      const share = (term.weight * SIGNAL.message) / Math.sqrt(places.length);
      const reason = `message:${fragment.slice(0, 40)}`;
      for (const place of places) {
        scores.file(place.path, share * SIGNAL.messageFile, reason);
        const definition = enclosing(symbols.of(place.path), place.line);
        if (definition) scores.block(definition, share, reason);
        else {
          scores.lines(place.path, [Math.max(1, place.line - 8), place.line + 8], share, reason);
        }
      }
      break;
    }
  }
}

/**
 * What the agent holds (`focus`: files or definition names) seeds the graph: its definitions
 * enter with a fixed score (the engine does not list them again), so their callers and callees
 * count more.
 */
function seedFocus(scores: Scores, symbols: FileSymbols, focus: readonly string[]): void {
  for (const entry of focus) {
    const rows = /[/.]/.test(entry)
      ? symbols.of(entry).filter((row) => row.parent === null)
      : symbols.named(entry);
    for (const row of rows.slice(0, 20)) scores.block(row, SIGNAL.focus, `focus:${entry}`);
  }
}

/**
 * Callers and callees of the best definitions get a share of their score: the code a fix touches
 * is often next to the code the task names.
 */
function expandGraph(scores: Scores, store: IndexStore, symbols: FileSymbols): void {
  const seeds = [...scores.blocks.values()].filter((block) => block.symbol).sort(compareBlocks)
    .slice(0, 8);
  for (const seed of seeds) {
    const symbol = seed.symbol!;
    const share = seed.score * SIGNAL.graph;
    const callees = new Set(
      store.callsWithin(symbol.file_id, symbol.qualified_name).map((ref) => ref.name),
    );
    for (const name of callees) {
      const rows = symbols.named(name);
      if (rows.length === 0 || rows.length > 3) continue;
      for (const row of rows) {
        scores.block(row, share / rows.length, `callee_of:${symbol.symbol_id}`);
      }
    }
    // Its callers: the definitions enclosing calls of its name (a name many define is left).
    if (symbols.named(symbol.name).length > 3) {
      continue;
    }
    const calls = store.refsNamed(symbol.name, true);
    if (calls.length > 30) continue;
    const callers = new Map<string, SymbolRow>();
    for (const call of calls) {
      if (!call.enclosing) continue;
      const caller = store.symbolInFile(call.file_id, call.enclosing);
      if (caller) callers.set(`${caller.file_id}\0${caller.qualified_name}`, caller);
    }
    for (const caller of callers.values()) {
      scores.block(caller, share / Math.max(1, callers.size / 2), `caller_of:${symbol.symbol_id}`);
    }
  }
}

/** Best first; ties by path and position. */
function compareBlocks(a: RankedBlock, b: RankedBlock): number {
  if (b.score !== a.score) return b.score - a.score;
  if (a.file_path !== b.file_path) return a.file_path < b.file_path ? -1 : 1;
  return (a.symbol?.byte_start ?? a.lines![0]) - (b.symbol?.byte_start ?? b.lines![0]);
}

/** Files: their own evidence plus their best blocks' (the best one's and a little of the next). */
function rankFiles(
  scores: Scores,
  blocks: readonly RankedBlock[],
  named: ReadonlySet<string>,
  options: RankOptions,
): RankedFile[] {
  const files = new Map<string, RankedFile>();
  for (const file of scores.files.values()) {
    if (!inScope(file.file_path, options.scopes)) continue;
    const factor = isAuxiliary(file.file_path) && !named.has(file.file_path)
      ? SIGNAL.testFactor
      : 1;
    files.set(file.file_path, { ...file, score: file.score * factor, reasons: [...file.reasons] });
  }
  const byFile = new Map<string, number[]>();
  for (const block of blocks) {
    const list = byFile.get(block.file_path) ?? [];
    list.push(block.score);
    byFile.set(block.file_path, list);
  }
  for (const [path, list] of byFile) {
    list.sort((a, b) => b - a);
    // Blocks carry the test factor already.
    const score = SIGNAL.bestBlock * list[0] + 0.2 * (list[1] ?? 0);
    const file = files.get(path);
    if (file) {
      file.score += score;
      file.reasons.push("blocks");
    } else files.set(path, { file_path: path, score, reasons: ["blocks"] });
  }
  return [...files.values()].sort((a, b) =>
    b.score - a.score || (a.file_path < b.file_path ? -1 : a.file_path > b.file_path ? 1 : 0)
  );
}

/** How much each part of a symbol's context counts (`--symbol`): the order the blocks come in. */
const SYMBOL_PARTS = { definition: 100, caller: 10, callee: 5 } as const;

/** Callers listed at most for one definition (a name called everywhere lists its first ones). */
const SYMBOL_CALLERS = 50;

/**
 * The definitions a symbol as written names: `name`, or a dotted `Class.method` / `pkg.mod.name`
 * whose qualifier ends the definition's qualified name or its module path.
 */
export function definitionsNamed(store: IndexStore, written: string): SymbolRow[] {
  const parts = written.split(/\.|::|#/).filter(Boolean);
  const name = parts.at(-1) ?? written;
  const rows = store.symbolsNamed(name).filter((row) => row.name === name);
  if (parts.length < 2) return rows;
  const qualifier = parts.slice(0, -1).join(".");
  return rows.filter((row) => {
    const qualified = row.qualified_name.replace(/::|#/g, ".");
    if (qualified === written || qualified.endsWith(`.${parts.slice(-2).join(".")}`)) return true;
    const module = row.path.replace(/\.[^./]+$/, "").replace(/\/__init__$/, "").replace(/\//g, ".");
    return module === qualifier || module.endsWith(`.${qualifier}`);
  });
}

/**
 * The context of one symbol (`llm-context --symbol NAME`, as Magellan's `context symbol`): its
 * definitions (signature and body), then the definitions that call it, then those it calls,
 * each part in path order. Deterministic; scoped like a task's ranking.
 */
export function rankSymbol(
  store: IndexStore,
  written: string,
  options: Pick<RankOptions, "scopes" | "language"> = {},
): Ranking {
  const scores = new Scores();
  const definitions = definitionsNamed(store, written).filter((row) =>
    inScope(row.path, options.scopes) && (!options.language || row.language === options.language)
  );
  for (const row of definitions) {
    scores.block(row, SYMBOL_PARTS.definition, `symbol:${written}`);
  }
  for (const row of definitions) {
    const calls = store.refsNamed(row.name, true);
    const callers = new Map<string, SymbolRow>();
    for (const call of calls) {
      if (!call.enclosing || callers.size >= SYMBOL_CALLERS) continue;
      const caller = store.symbolInFile(call.file_id, call.enclosing);
      if (caller) callers.set(`${caller.file_id}\0${caller.qualified_name}`, caller);
    }
    for (const caller of callers.values()) {
      scores.block(caller, SYMBOL_PARTS.caller, `caller_of:${row.symbol_id}`);
    }
    const callees = new Set(
      store.callsWithin(row.file_id, row.qualified_name).map((ref) => ref.name),
    );
    for (const name of [...callees].sort()) {
      const rows = store.symbolsNamed(name).filter((callee) => callee.name === name);
      if (rows.length === 0 || rows.length > 3) continue;
      for (const callee of rows) {
        scores.block(callee, SYMBOL_PARTS.callee / rows.length, `callee_of:${row.symbol_id}`);
      }
    }
  }
  const blocks = [...scores.blocks.values()].filter((block) =>
    inScope(block.file_path, options.scopes)
  ).sort(compareBlocks);
  return { blocks, files: rankFiles(scores, blocks, new Set(), options) };
}
