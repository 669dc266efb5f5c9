/**
 * The ast-search engine as a library function: check the request, walk, pick each file's
 * language, serve unchanged files from a long-lived host's cache, parse the rest on the
 * calling thread and (for larger inputs) on workers that claim files from one shared counter,
 * and gather the results in `(file_path, byte_start)` order.
 *
 * @module
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { FileStamp, RunCache } from "../../core/cache.ts";
import { permissionError } from "../../core/permissions.ts";
import { Walker, type WalkOptions } from "../../core/walk/walker.ts";
import {
  type AstMatch,
  type AstSearchData,
  type Diagnostic,
  type DiagnosticDetails,
  makeDiagnostic,
  newId,
  SYMBOL_KINDS,
  ToolError,
} from "../../schema/mod.ts";
import {
  languageByName,
  languageForFile,
  type LanguageInfo,
  supportedLanguageNames,
} from "../../grammars/languages.ts";
import { GrammarLoadError } from "../../grammars/loader.ts";
import { DEFINITION_QUERIES } from "../../grammars/wasm/queries.ts";
import { QueryCompileError, type QueryProblem } from "./compile.ts";
import {
  type FileOutcome,
  FileSearcher,
  type FileTask,
  type SearchSpec,
  SYNTAX_ERRORS_LISTED,
} from "./file_search.ts";
import { claimNext, stopClaims, type WorkerFailure } from "./job.ts";
import { ParsePool, sharedPool, workersAvailable } from "./pool.ts";

const TOOL = "llm-ast-search";

/** Walk settings passed through to the walker. */
export type AstSearchWalkOptions = Omit<
  WalkOptions,
  "tool" | "prefix" | "cwd" | "paths" | "includeDirs" | "stat"
>;

/** Everything an ast-search needs. */
export interface AstSearchOptions {
  /** Tool root: relative paths resolve against it, file paths are reported relative to it. */
  cwd: string;
  /** Files or directories to search; default the root. */
  paths?: readonly string[];
  /** A tree-sitter query (S-expression patterns). */
  query?: string;
  /** A file holding the query, relative to `cwd`. */
  queryFile?: string;
  /** Registry name or alias: search only that language (named files are parsed as it). */
  language?: string;
  /** Symbol kinds to report (definition queries); with a query, keeps matches of these kinds. */
  kinds?: readonly string[];
  /** Regular expression a symbol's name must match. */
  name?: string;
  /** Add `semantics`. */
  semantics?: boolean;
  /** Context lines before and after each match (0: none). */
  contextLines?: number;
  /** Add `checksums`. */
  checksums?: boolean;
  /** Longest text in bytes (0: no limit); default 500. */
  maxColumns?: number;
  /** Matches to list (0: all); default 200. */
  limit?: number;
  /** Walker settings. */
  walk?: AstSearchWalkOptions;
  /** Threads to parse on, the calling one included; default the number of CPUs. */
  threads?: number;
  /** A long-lived host's cache: per-file results of unchanged files are reused. */
  cache?: RunCache;
  /** Parse on workers only from this many bytes to parse; default {@linkcode INLINE_BYTES}. */
  parallelBytes?: number;
  /** Keep the worker pool alive after the run; default: when a cache is given. */
  keepWorkers?: boolean;
  /** Stops the run. */
  signal?: AbortSignal;
  /** Stream listed matches here instead of keeping them in `data`. */
  emit?: (item: unknown) => void;
}

/** The result of an ast-search. */
export interface AstSearchResult {
  /** The envelope's data. */
  data: AstSearchData;
  /** Warnings and notes (syntax errors, skipped files). */
  diagnostics: Diagnostic[];
  /** Whether the listing was cut by the limit. */
  partial: boolean;
}

/**
 * Below this many bytes to parse, the calling thread parses alone: a worker spends about
 * 300 ms of CPU (start, runtime, grammar, query, cold code) before it parses at full speed,
 * which is what parsing this much costs.
 */
export const INLINE_BYTES = 1536 * 1024;

/** A language's files go to workers only from this many bytes: loading its grammar in another
 * isolate costs about as much as parsing that much. */
const SHARE_BYTES = 512 * 1024;

interface Task extends FileTask {
  size: number;
  stamp?: FileStamp;
  explicit: boolean;
}

interface CachedFile {
  filePath: string;
  language: string;
  outcome: FileOutcome;
}

type Result = { outcome: FileOutcome } | { failure: WorkerFailure };

function definitionLanguages(): string[] {
  return Object.keys(DEFINITION_QUERIES).sort();
}

function unknownLanguage(name: string): ToolError {
  return new ToolError("LMA-ARG-010", `unknown language '${name}'`, {
    note: `supported languages: ${supportedLanguageNames().join(", ")}`,
  });
}

function unsupported(info: LanguageInfo): ToolError {
  return new ToolError(
    "LMA-AST-002",
    `the ${info.name} grammar cannot be loaded: ${info.unsupported}`,
    {
      note: `supported languages: ${supportedLanguageNames().join(", ")}`,
    },
  );
}

/** The coded error of a query that does not compile. */
function queryError(
  problem: QueryProblem,
  queryFile?: string,
  others: QueryProblem[] = [],
): ToolError {
  const notes = [`expected ${problem.expected}`];
  for (const other of others) notes.push(`${other.language}: ${other.message}`);
  const details: DiagnosticDetails = { note: notes.join("\n") };
  if (queryFile !== undefined) details.file = queryFile;
  if (problem.line !== undefined) details.line = problem.line;
  if (problem.column !== undefined) details.column = problem.column;
  return new ToolError(
    "LMA-QRY-001",
    `query does not compile for ${problem.language}: ${problem.message}`,
    details,
  );
}

function grammarError(error: GrammarLoadError): ToolError {
  return new ToolError("LMA-AST-003", error.message, { note: `language: ${error.language}` });
}

/** Checks the request and turns it into the spec workers run. */
function buildSpec(options: AstSearchOptions): { spec: SearchSpec; forced?: LanguageInfo } {
  if (options.query !== undefined && options.queryFile !== undefined) {
    throw new ToolError("LMA-ARG-011", "give either --query or --query-file, not both");
  }
  let query = options.query;
  if (options.queryFile !== undefined) {
    try {
      query = Deno.readTextFileSync(resolve(options.cwd, options.queryFile));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new ToolError("LMA-IO-001", `no such query file: ${options.queryFile}`, {
          file: options.queryFile,
        });
      }
      throw error;
    }
  }
  const kinds = [...new Set(options.kinds ?? [])];
  const badKind = kinds.find((kind) => !(SYMBOL_KINDS as readonly string[]).includes(kind));
  if (badKind !== undefined) {
    throw new ToolError("LMA-ARG-002", `unknown kind '${badKind}'`, {
      note: `kinds: ${SYMBOL_KINDS.join(", ")}`,
    });
  }
  if (query !== undefined && query.trim() === "") {
    throw new ToolError("LMA-QRY-002", "the query is empty");
  }
  if (query === undefined && kinds.length === 0 && options.name === undefined) {
    throw new ToolError("LMA-QRY-002", "nothing to search for: give a query, --kind or --name");
  }
  if (options.name !== undefined) {
    try {
      new RegExp(options.name, "u");
    } catch (error) {
      throw new ToolError(
        "LMA-QRY-003",
        `--name is not a valid regular expression: ${options.name}`,
        {
          note: error instanceof Error ? error.message : String(error),
        },
      );
    }
  }
  let forced: LanguageInfo | undefined;
  if (options.language !== undefined) {
    forced = languageByName(options.language);
    if (!forced) throw unknownLanguage(options.language);
    if (forced.unsupported) throw unsupported(forced);
    if (query === undefined && !DEFINITION_QUERIES[forced.name]) {
      throw new ToolError("LMA-AST-004", `no definition query for ${forced.name}`, {
        note: `--kind and --name work for: ${definitionLanguages().join(", ")}`,
      });
    }
  }
  const spec: SearchSpec = {
    mode: query === undefined ? "kind" : "query",
    query: query ?? "",
    kinds,
    semantics: options.semantics ?? false,
    contextLines: options.contextLines ?? 0,
    checksums: options.checksums ?? false,
    maxColumns: options.maxColumns ?? 500,
  };
  if (options.name !== undefined) spec.name = options.name;
  return forced ? { spec, forced } : { spec };
}

/** Counts of files skipped per language, for one summary note each. */
class SkipCounter {
  readonly #counts = new Map<string, number>();

  add(language: string): void {
    this.#counts.set(language, (this.#counts.get(language) ?? 0) + 1);
  }

  notes(make: (language: string, count: number) => Diagnostic): Diagnostic[] {
    return [...this.#counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([l, c]) => make(l, c));
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Walks and picks each file's language. */
function collectTasks(
  spec: SearchSpec,
  forced: LanguageInfo | undefined,
  walker: Walker,
): { tasks: Task[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const unsupportedFiles = new SkipCounter();
  const withoutDefinitions = new SkipCounter();
  const seen = new Set<string>();
  const tasks: Task[] = [];
  for (const entry of walker.entries()) {
    if (entry.kind !== "file" || seen.has(entry.absPath)) continue;
    seen.add(entry.absPath);
    const byName = languageForFile(entry.name);
    let info = byName;
    if (forced) {
      if (entry.explicit) info = forced;
      else if (byName?.name !== forced.name) continue;
    }
    if (!info) {
      if (entry.explicit) {
        diagnostics.push(
          makeDiagnostic(TOOL, "LMA-ARG-010", `cannot tell the language of ${entry.filePath}`, {
            level: "warning",
            file: entry.filePath,
            remediation: "Pass --language to parse it as a given language.",
          }),
        );
      }
      continue;
    }
    if (info.unsupported) {
      unsupportedFiles.add(info.name);
      continue;
    }
    if (spec.mode === "kind" && !DEFINITION_QUERIES[info.name]) {
      withoutDefinitions.add(info.name);
      continue;
    }
    const task: Task = {
      absPath: entry.absPath,
      filePath: entry.filePath,
      language: info.name,
      size: entry.size ?? 0,
      explicit: entry.explicit,
    };
    if (entry.size !== undefined && entry.mtimeMs !== undefined) {
      task.stamp = { size: entry.size, mtimeMs: entry.mtimeMs };
    }
    tasks.push(task);
  }
  tasks.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  diagnostics.push(
    ...unsupportedFiles.notes((language, count) =>
      makeDiagnostic(
        TOOL,
        "LMA-AST-002",
        `skipped ${plural(count, `${language} file`)}: ` +
          `the ${language} grammar cannot be loaded (${languageByName(language)?.unsupported})`,
        {
          level: "note",
        },
      )
    ),
    ...withoutDefinitions.notes((language, count) =>
      makeDiagnostic(
        TOOL,
        "LMA-AST-004",
        `skipped ${plural(count, `${language} file`)}: ` +
          `no definition query for ${language}`,
        {
          level: "note",
          note: `--kind and --name work for: ${definitionLanguages().join(", ")}`,
        },
      )
    ),
  );
  return { tasks, diagnostics };
}

/**
 * Prepares the calling thread's searcher for each language; languages whose query does not
 * compile are dropped with a warning, or fail the run when the language was named or when no
 * language is left.
 */
async function prepareLanguages(
  searcher: FileSearcher,
  languages: string[],
  options: AstSearchOptions,
  forced: LanguageInfo | undefined,
): Promise<{ ready: Set<string>; diagnostics: Diagnostic[] }> {
  const ready = new Set<string>();
  const problems: QueryProblem[] = [];
  searcher.preload(languages);
  for (const language of languages) {
    try {
      await searcher.prepare(language);
      ready.add(language);
    } catch (error) {
      if (error instanceof GrammarLoadError) throw grammarError(error);
      if (!(error instanceof QueryCompileError)) throw error;
      if (forced) throw queryError(error.problem, options.queryFile);
      problems.push(error.problem);
    }
  }
  if (problems.length && ready.size === 0) {
    throw queryError(problems[0], options.queryFile, problems.slice(1));
  }
  const diagnostics = problems.map((problem) =>
    makeDiagnostic(
      TOOL,
      "LMA-QRY-001",
      `${problem.language} files skipped: the query does not compile for ${problem.language}: ${problem.message}`,
      {
        level: "warning",
        note: `expected ${problem.expected}`,
        remediation: "Pass --language to search one language, or fix the query for this one.",
      },
    )
  );
  return { ready, diagnostics };
}

/** What parsing the work list gave. */
interface Parsed {
  /** The result of each file. */
  results: Map<Task, Result>;
  /** Workers that gave up (their files were parsed here). */
  workerFailures: WorkerFailure[];
  /** Workers were wanted but could not load: everything was parsed on this thread. */
  single: boolean;
}

/**
 * Splits the work into files worth sharing with workers (their language has enough bytes to
 * pay for loading its grammar in another isolate) and files this thread parses alone.
 */
function shareable(
  work: Task[],
  threads: number,
  threshold: number,
): { shared: Task[]; own: Task[] } {
  if (threads < 2) return { shared: [], own: work };
  const bytes = new Map<string, number>();
  for (const task of work) bytes.set(task.language, (bytes.get(task.language) ?? 0) + task.size);
  const enough = Math.min(SHARE_BYTES, threshold);
  const shared = work.filter((task) => (bytes.get(task.language) ?? 0) >= enough);
  const sharedBytes = shared.reduce((sum, task) => sum + task.size, 0);
  if (shared.length < 2 || sharedBytes < threshold) return { shared: [], own: work };
  return { shared, own: work.filter((task) => !shared.includes(task)) };
}

/**
 * Parses `work` (largest first) on this thread and, for larger inputs, on workers: they claim
 * files of the shared languages from one counter, while this thread parses the other files
 * first and then claims with them.
 */
async function parseAll(
  work: Task[],
  searcher: FileSearcher,
  options: AstSearchOptions,
): Promise<Parsed> {
  const threads = Math.max(1, options.threads ?? navigator.hardwareConcurrency ?? 1);
  const keep = options.keepWorkers ?? options.cache !== undefined;
  let { shared, own } = shareable(work, threads, options.parallelBytes ?? INLINE_BYTES);
  const single = shared.length > 0 && !workersAvailable();
  if (single) [shared, own] = [[], work];
  const results = new Map<Task, Result>();
  let allDone: (() => void) | undefined;
  const settle = (task: Task, result: Result) => {
    results.set(task, result);
    if (results.size === work.length) allDone?.();
  };
  const parseHere = async (task: Task) => {
    try {
      settle(task, { outcome: await searcher.searchFile(task) });
    } catch (error) {
      if (error instanceof GrammarLoadError) throw error;
      settle(task, {
        failure: {
          name: error instanceof Error ? error.name : "Error",
          message: error instanceof Error ? error.message : String(error),
        },
      });
    }
  };
  const counter = new Int32Array(new SharedArrayBuffer(4));
  let pool: ParsePool | undefined;
  let running: Promise<WorkerFailure[]> | undefined;
  if (shared.length > 0) {
    pool = keep ? sharedPool(threads - 1) : new ParsePool(threads - 1);
    const files: FileTask[] = shared.map(({ absPath, filePath, language }) => ({
      absPath,
      filePath,
      language,
    }));
    running = pool.run({
      spec: searcher.spec,
      languages: [...new Set(files.map((file) => file.language))],
      files,
      counter: counter.buffer as SharedArrayBuffer,
    }, (index, outcome, failure) => {
      settle(
        shared[index],
        outcome ? { outcome } : { failure: failure ?? { name: "Error", message: "" } },
      );
    });
  }
  let workerFailures: WorkerFailure[] = [];
  try {
    for (const task of own) {
      options.signal?.throwIfAborted();
      await parseHere(task);
    }
    for (let index = claimNext(counter); index < shared.length; index = claimNext(counter)) {
      if (options.signal?.aborted) {
        stopClaims(counter);
        break;
      }
      await parseHere(shared[index]);
    }
    if (running && results.size < work.length) {
      // Wait for the files workers claimed; a worker that claimed none (still loading its
      // grammars) is not waited for.
      const finished = new Promise<void>((resolve) => (allDone = resolve));
      const outcome = await Promise.race([running, finished]);
      if (outcome) workerFailures = outcome;
    }
  } finally {
    if (pool && !keep) pool.close();
  }
  options.signal?.throwIfAborted();
  // Files a failed worker had claimed but not finished are parsed here.
  for (const task of shared) if (!results.has(task)) await parseHere(task);
  return { results, workerFailures, single };
}

function syntaxDiagnostics(task: Task, outcome: FileOutcome): Diagnostic[] {
  return outcome.syntaxErrors.map((error, position) => {
    const details: DiagnosticDetails = {
      level: "warning",
      file: task.filePath,
      span: error.span,
      line: error.span.start_line,
      column: error.span.start_col,
    };
    const hidden = outcome.syntaxErrorCount - SYNTAX_ERRORS_LISTED;
    if (position === SYNTAX_ERRORS_LISTED - 1 && hidden > 0) {
      details.note = `${plural(hidden, "more syntax error")} in this file not listed`;
    }
    return makeDiagnostic(
      TOOL,
      "LMA-AST-001",
      `syntax error in ${task.filePath} at line ${error.span.start_line}: ${error.message}`,
      details,
    );
  });
}

/**
 * Runs a tree-sitter query, or a symbol search by kind and name, over files under
 * `options.cwd`. Throws a `ToolError` for a query that does not compile (`LMA-QRY-001`), an
 * unknown language (`LMA-ARG-010`), an unloadable grammar (`LMA-AST-002`/`-003`) and a missing
 * permission (`LMA-PERM-*`).
 *
 * @example
 * ```ts
 * import { astSearch } from "@llm/search/ast-search";
 * const { data } = await astSearch({ cwd: Deno.cwd(), kinds: ["function"], name: "^ast" });
 * console.log(data.matches.map((match) => match.name));
 * ```
 */
export async function astSearch(options: AstSearchOptions): Promise<AstSearchResult> {
  const { spec, forced } = buildSpec(options);
  const searcher = new FileSearcher(spec);
  try {
    if (forced) await prepareLanguages(searcher, [forced.name], options, forced);
    const walker = new Walker({
      ...options.walk,
      tool: TOOL,
      prefix: "LMA",
      cwd: options.cwd,
      paths: options.paths,
      stat: true,
    });
    const collected = collectTasks(spec, forced, walker);
    const namespace = `llm-ast-search\0${JSON.stringify(spec)}`;
    // Outcomes known without a parse: from the host's cache, or ruled out by their text.
    const known = new Map<Task, FileOutcome>();
    const fromCache = new Set<Task>();
    let work: Task[] = [];
    for (const task of collected.tasks) {
      const hit = options.cache && task.stamp
        ? options.cache.get<CachedFile>(namespace, task.absPath, task.stamp)
        : undefined;
      if (hit && hit.filePath === task.filePath && hit.language === task.language) {
        known.set(task, hit.outcome);
        fromCache.add(task);
      } else work.push(task);
    }
    // The query is compiled for the languages left to parse (a cached file's language compiled
    // when it was parsed). Definition queries are known to compile.
    const languages = [...new Set(work.map((task) => task.language))].sort();
    const prepared = spec.mode === "query"
      ? await prepareLanguages(searcher, languages, options, forced)
      : { ready: new Set(languages), diagnostics: [] };
    work = work.filter((task) => prepared.ready.has(task.language));
    const tasks = collected.tasks.filter((task) =>
      fromCache.has(task) || prepared.ready.has(task.language)
    );
    if (searcher.rulesOutByText) {
      // A cheap pass over the text first: only files that can match are parsed, and only
      // their bytes decide whether workers are worth starting.
      for (const task of work) {
        let outcome: FileOutcome | undefined;
        try {
          outcome = searcher.outcomeWithoutParse(Deno.readFileSync(task.absPath));
        } catch {
          // Left to the parse, which reads the file again and reports why it cannot.
          continue;
        }
        if (outcome) known.set(task, outcome);
      }
      work = work.filter((task) => !known.has(task));
    }
    // Largest files first, so the threads finish together.
    work.sort((a, b) => b.size - a.size);
    // Every grammar the parse needs is loaded before it starts: loading is asynchronous and
    // only advances while this thread waits, so loading on first need would stall the parse
    // once per language.
    await Promise.all(
      [...new Set(work.map((task) => task.language))].map((language) =>
        searcher.prepare(language).catch((error) => {
          throw error instanceof GrammarLoadError ? grammarError(error) : error;
        })
      ),
    );
    const { results, workerFailures, single } = await parseAll(work, searcher, options).catch(
      (error) => {
        throw error instanceof GrammarLoadError ? grammarError(error) : error;
      },
    );
    const outcomes = new Map<Task, Result>(results);
    for (const [task, outcome] of known) outcomes.set(task, { outcome });
    const diagnostics = [...walker.diagnostics, ...collected.diagnostics, ...prepared.diagnostics];
    if (single) {
      diagnostics.push(
        makeDiagnostic(
          TOOL,
          "LMA-PERM-001",
          "parsed on one thread: parse workers need read access to the package",
          {
            level: "note",
            note: `package: ${fileURLToPath(new URL("../../", import.meta.url))}`,
            remediation:
              "For multi-core parsing, add the package directory to --allow-read (or run the package from JSR).",
          },
        ),
      );
    }
    for (const failure of workerFailures) {
      diagnostics.push(
        makeDiagnostic(TOOL, "LMA-INT-001", `a parse worker failed: ${failure.message}`, {
          level: "warning",
          note: "Its files were parsed on the calling thread; the results are complete.",
        }),
      );
    }
    const data: AstSearchData = {
      count: 0,
      mode: spec.mode,
      match_count: 0,
      files_searched: 0,
      files_matched: 0,
      languages: [],
      matches: [],
    };
    const limit = options.limit ?? 200;
    const searchedLanguages = new Set<string>();
    for (const task of tasks) {
      const result = outcomes.get(task);
      if (!result) continue;
      if ("failure" in result) {
        const { failure } = result;
        if (failure.name === "NotCapable") throw permissionError("LMA", new Error(failure.message));
        if (failure.name === "GrammarLoadError") {
          throw new ToolError("LMA-AST-003", failure.message, {
            note: `language: ${task.language}`,
          });
        }
        diagnostics.push(
          makeDiagnostic(TOOL, "LMA-IO-002", `cannot search ${task.filePath}: ${failure.message}`, {
            level: "warning",
            file: task.filePath,
          }),
        );
        continue;
      }
      const { outcome } = result;
      if (options.cache && task.stamp && !fromCache.has(task)) {
        options.cache.set<CachedFile>(namespace, task.absPath, task.stamp, {
          filePath: task.filePath,
          language: task.language,
          outcome,
        });
      }
      if (outcome.binary) {
        if (task.explicit) {
          diagnostics.push(
            makeDiagnostic(TOOL, "LMA-IO-002", `skipped binary file ${task.filePath}`, {
              level: "note",
              file: task.filePath,
              remediation: "Binary files (a NUL byte in the first 8 KiB) are not parsed.",
            }),
          );
        }
        continue;
      }
      data.files_searched++;
      searchedLanguages.add(task.language);
      diagnostics.push(...syntaxDiagnostics(task, outcome));
      if (outcome.matches.length === 0) continue;
      data.files_matched++;
      data.match_count += outcome.matches.length;
      for (const match of outcome.matches) {
        if (limit > 0 && data.count >= limit) break;
        const listed: AstMatch = { match_id: newId(), ...match };
        data.count++;
        if (options.emit) options.emit(listed);
        else data.matches.push(listed);
      }
    }
    data.languages = [...searchedLanguages].sort();
    const partial = data.match_count > data.count;
    if (partial) data.total = data.match_count;
    return { data, diagnostics, partial };
  } finally {
    searcher.dispose();
  }
}
