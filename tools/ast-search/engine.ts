/**
 * The ast-search engine as a library function: check the request, walk, pick each file's
 * language, serve unchanged files from a long-lived host's cache, parse the rest on the
 * calling thread and (for larger inputs) on workers that claim files from one shared counter,
 * and gather the results in `(file_path, byte_start)` order.
 *
 * @module
 */
import { Listing } from "../../core/listing.ts";
import { permissionError } from "../../core/permissions.ts";
import { packageDirectory } from "../../core/workers.ts";
import { type WalkEntry, Walker } from "../../core/walk/walker.ts";
import { Breather } from "../../core/breather.ts";
import type { AstMatch, AstSearchData, LimitedFiles } from "../../schema/ast_search.ts";
import {
  type Diagnostic,
  type DiagnosticDetails,
  makeDiagnostic,
  ToolError,
} from "../../schema/diagnostic.ts";
import { newId } from "../../schema/ids.ts";
import { languageByName, languageForFile, type LanguageInfo } from "../../grammars/languages.ts";
import { GrammarLoadError, runtimeAborted, setParserHeapCeiling } from "../../grammars/loader.ts";
import { DEFINITION_QUERIES } from "../../grammars/wasm/queries.ts";
import { QueryCompileError, type QueryProblem } from "../../grammars/query.ts";
import {
  DEFAULT_PARSE_LIMITS,
  type FileMatch,
  type FileOutcome,
  FileSearcher,
  type LimitStop,
  type ParseLimits,
  type SearchSpec,
  SYNTAX_ERRORS_LISTED,
} from "./file_search.ts";
import type { WorkerFailure } from "./job.ts";
import { WORKER_CRASHED } from "./pool.ts";
import type { AstSearchOptions } from "./options.ts";
import { parseAll, type Parsed, type Result, type Task } from "./parallel.ts";
import { buildSpec, definitionLanguages, grammarError, queryError } from "./request.ts";
import { LLM_AST_SEARCH } from "../../schema/tool_names.ts";
import { AST_SEARCH_DEFAULTS } from "./defaults.ts";

const TOOL = LLM_AST_SEARCH;

export type { AstSearchOptions, AstSearchWalkOptions } from "./options.ts";
export { INLINE_BYTES } from "./parallel.ts";

/** The result of an ast-search. */
export interface AstSearchResult {
  /** The envelope's data. */
  data: AstSearchData;
  /** Warnings and notes (syntax errors, skipped files). */
  diagnostics: Diagnostic[];
  /** Whether the listing was cut by the limit. */
  partial: boolean;
}

interface CachedFile {
  filePath: string;
  language: string;
  outcome: FileOutcome;
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

/** The warning of a file named with `--language` whose name says it is another language. */
function otherLanguage(filePath: string, byName: LanguageInfo, forced: LanguageInfo): Diagnostic {
  return makeDiagnostic(
    TOOL,
    "LMA-ARG-012",
    `${filePath} is ${byName.name} by its name, but --language ${forced.name} parses it as ${forced.name}`,
    {
      level: "warning",
      file: filePath,
      remediation:
        `Drop --language to parse it as ${byName.name}, or keep it if the name misleads.`,
    },
  );
}

const MIB = 1024 * 1024;

/** The warning of a file a limit stopped: which limit, what the file needed, how to go on. */
function limitDiagnostic(task: Task, stopped: LimitStop): Diagnostic {
  const file = task.filePath;
  const fallback = "or search its text with llm-search";
  switch (stopped.limit) {
    case "maxParseBytes":
      return makeDiagnostic(
        TOOL,
        "LMA-AST-005",
        `not parsed: ${file} is ${stopped.reached} bytes, over --max-parse-bytes ${stopped.value}`,
        {
          level: "warning",
          file,
          remediation: `Pass --max-parse-bytes ${stopped.reached} to parse it (memory grows with ` +
            `the file: up to 300 bytes per byte of dense code), ${fallback}.`,
        },
      );
    case "maxParseMemory":
      return makeDiagnostic(
        TOOL,
        "LMA-AST-006",
        `not searched: parsing ${file} needed more than --max-parse-memory ` +
          `${Math.round(stopped.value / MIB)} MiB of parser heap`,
        {
          level: "warning",
          file,
          remediation:
            `Raise --max-parse-memory (at most 1536; the parser runtime aborts at 2048 MiB), ${fallback}.`,
        },
      );
    case "fileTimeoutMs":
      return makeDiagnostic(
        TOOL,
        "LMA-AST-007",
        `not searched: the ${stopped.stage} of ${file} ran past --file-timeout ${stopped.value} ms`,
        {
          level: "warning",
          file,
          remediation: `Raise --file-timeout, narrow the query, ${fallback}.`,
        },
      );
  }
}

/** The most parser heap a search may allow, in MiB (the parser runtime aborts at 2048). */
const MAX_PARSE_MEMORY_MIB = 1536;

/** Gathers the files a parse limit stopped, and the limits that let each of them through. */
class LimitedCollector {
  readonly #paths: string[] = [];
  #bytes = 0;
  #memoryMib = 0;
  #timeoutMs = 0;

  /** Notes a file `stopped` stopped, unless no higher limit lets it through (heap at its cap). */
  add(filePath: string, stopped: LimitStop): void {
    switch (stopped.limit) {
      case "maxParseBytes":
        this.#bytes = Math.max(this.#bytes, stopped.reached);
        break;
      case "maxParseMemory": {
        const mib = Math.round(stopped.value / MIB);
        if (mib >= MAX_PARSE_MEMORY_MIB) return;
        this.#memoryMib = Math.max(this.#memoryMib, Math.min(mib * 2, MAX_PARSE_MEMORY_MIB));
        break;
      }
      case "fileTimeoutMs":
        this.#timeoutMs = Math.max(this.#timeoutMs, stopped.value * 4);
        break;
    }
    this.#paths.push(filePath);
  }

  /** The files and limits, or undefined when none was noted. */
  finish(): LimitedFiles | undefined {
    if (this.#paths.length === 0) return undefined;
    return {
      paths: this.#paths,
      ...(this.#bytes ? { max_parse_bytes: this.#bytes } : {}),
      ...(this.#memoryMib ? { max_parse_memory: this.#memoryMib } : {}),
      ...(this.#timeoutMs ? { file_timeout: this.#timeoutMs } : {}),
    };
  }
}

/** The warning of a file a parser failed on (an exception, an aborted runtime, a dead worker). */
function failedFile(task: Task, failure: WorkerFailure): Diagnostic {
  const file = task.filePath;
  if (failure.name in Deno.errors) {
    return makeDiagnostic(TOOL, "LMA-IO-002", `cannot search ${file}: ${failure.message}`, {
      level: "warning",
      file,
    });
  }
  const restarted = failure.name === "ParserAbortedError" || failure.name === WORKER_CRASHED;
  return makeDiagnostic(
    TOOL,
    "LMA-AST-008",
    `not searched: the parser failed on ${file}: ${failure.message}`,
    {
      level: "warning",
      file,
      note: restarted
        ? "The parser was replaced by a fresh one for the files after it."
        : `${failure.name}; the files after it were searched.`,
      remediation: "Skip the file with --glob '!path', or search its text with llm-search.",
    },
  );
}

/**
 * The language to parse a walked file as: by its name, or the `--language` one for a file named
 * on the command line (with a warning when its name says otherwise); `undefined` for a file to
 * leave out (another language than the forced one, or none known: a warning when it was named).
 */
function pickLanguage(
  entry: WalkEntry,
  forced: LanguageInfo | undefined,
  diagnostics: Diagnostic[],
): LanguageInfo | undefined {
  const byName = languageForFile(entry.name);
  let info = byName;
  if (forced) {
    if (entry.explicit) {
      info = forced;
      if (byName && byName.name !== forced.name) {
        diagnostics.push(otherLanguage(entry.filePath, byName, forced));
      }
    } else if (byName?.name !== forced.name) return undefined;
  }
  if (!info && entry.explicit) {
    diagnostics.push(
      makeDiagnostic(TOOL, "LMA-ARG-010", `cannot tell the language of ${entry.filePath}`, {
        level: "warning",
        file: entry.filePath,
        remediation: "Pass --language to parse it as a given language.",
      }),
    );
  }
  return info;
}

/** The task of a walked file in `language`, with its version when the walk gave one. */
function taskOf(entry: WalkEntry, language: string): Task {
  const task: Task = {
    absPath: entry.absPath,
    filePath: entry.filePath,
    language,
    size: entry.size ?? 0,
    explicit: entry.explicit,
  };
  if (entry.size !== undefined && entry.mtimeMs !== undefined) {
    task.version = { size: entry.size, mtimeMs: entry.mtimeMs };
  }
  return task;
}

/** One note per language whose files were skipped: its grammar cannot load, or no definitions. */
function skipNotes(unsupportedFiles: SkipCounter, withoutDefinitions: SkipCounter): Diagnostic[] {
  return [
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
  ];
}

/** How long the walk and the text prefilter run before a cancellable run lets others in (ms). */
const WALK_BREATH_MS = 20;

/**
 * Walks and picks each file's language. A run that may be cancelled lets the event loop run
 * every WALK_BREATH_MS (a cancel then stops the walk of a large tree, on any thread).
 */
async function collectTasks(
  spec: SearchSpec,
  forced: LanguageInfo | undefined,
  walker: Walker,
  signal: AbortSignal | undefined,
): Promise<{ tasks: Task[]; diagnostics: Diagnostic[] }> {
  const breather = new Breather(signal, WALK_BREATH_MS);
  const diagnostics: Diagnostic[] = [];
  const unsupportedFiles = new SkipCounter();
  const withoutDefinitions = new SkipCounter();
  const seen = new Set<string>();
  const tasks: Task[] = [];
  for (const entry of walker.entries()) {
    await breather.breathe();
    if (entry.kind !== "file" || seen.has(entry.absPath)) continue;
    seen.add(entry.absPath);
    const info = pickLanguage(entry, forced, diagnostics);
    if (!info) continue;
    if (info.unsupported) {
      unsupportedFiles.add(info.name);
      continue;
    }
    if (spec.mode === "kind" && !DEFINITION_QUERIES[info.name]) {
      withoutDefinitions.add(info.name);
      continue;
    }
    tasks.push(taskOf(entry, info.name));
  }
  tasks.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0));
  diagnostics.push(...skipNotes(unsupportedFiles, withoutDefinitions));
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

/** The run's parse limits: the options', else the defaults. */
function parseLimits(options: AstSearchOptions): ParseLimits {
  return {
    maxParseBytes: options.maxParseBytes ?? DEFAULT_PARSE_LIMITS.maxParseBytes,
    maxParseMemory: options.maxParseMemory ?? DEFAULT_PARSE_LIMITS.maxParseMemory,
    fileTimeoutMs: options.fileTimeoutMs ?? DEFAULT_PARSE_LIMITS.fileTimeoutMs,
  };
}

/** Refuses a run in a process whose parser runtime aborted before: it cannot parse again. */
function requireLiveRuntime(): void {
  if (!runtimeAborted()) return;
  throw new ToolError(
    "LMA-AST-008",
    "the parser runtime of this process aborted in an earlier run and cannot parse again",
    { remediation: "Start a new process (a one-shot run or a fresh server)." },
  );
}

/** `promise`, with a grammar that cannot load turned into its `LMA-AST-003` error. */
function withGrammarError<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error) => {
    throw error instanceof GrammarLoadError ? grammarError(error) : error;
  });
}

/** The files of a run split by how their outcome is found. */
interface Triage {
  /** Outcomes known without a parse: from the host's cache, or ruled out by their text. */
  known: Map<Task, FileOutcome>;
  /** The files whose outcome came from the cache (not stored again). */
  fromCache: Set<Task>;
  /** The files left to parse. */
  work: Task[];
}

/** Takes the outcome of each unchanged file from the host's cache; the others are left to parse. */
function takeCached(tasks: Task[], options: AstSearchOptions, namespace: string): Triage {
  const triage: Triage = { known: new Map(), fromCache: new Set(), work: [] };
  for (const task of tasks) {
    const hit = options.cache && task.version
      ? options.cache.get<CachedFile>(namespace, task.absPath, task.version)
      : undefined;
    if (hit && hit.filePath === task.filePath && hit.language === task.language) {
      triage.known.set(task, hit.outcome);
      triage.fromCache.add(task);
    } else triage.work.push(task);
  }
  return triage;
}

/**
 * Rules out by their text the files that cannot match (a cheap pass before the parse): only
 * files that can match are parsed, and only their bytes decide whether workers are worth
 * starting.
 */
async function ruleOutByText(
  searcher: FileSearcher,
  triage: Triage,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!searcher.rulesOutByText) return;
  const breather = new Breather(signal, WALK_BREATH_MS);
  for (const task of triage.work) {
    await breather.breathe();
    let outcome: FileOutcome | undefined;
    try {
      outcome = searcher.outcomeWithoutParse(Deno.readFileSync(task.absPath));
    } catch {
      // Left to the parse, which reads the file again and reports why it cannot.
      continue;
    }
    if (outcome) triage.known.set(task, outcome);
  }
  triage.work = triage.work.filter((task) => !triage.known.has(task));
}

/**
 * Parses the files left, largest first (so the threads finish together), once every grammar
 * they need is loaded: loading is asynchronous and only advances while this thread waits, so
 * loading on first need would stall the parse once per language.
 */
async function parseWork(
  work: Task[],
  searcher: FileSearcher,
  options: AstSearchOptions,
): Promise<Parsed> {
  work.sort((a, b) => b.size - a.size);
  const languages = [...new Set(work.map((task) => task.language))];
  await Promise.all(languages.map((language) => withGrammarError(searcher.prepare(language))));
  return await withGrammarError(parseAll(work, searcher, options));
}

/** The notes of how the parse ran: on one thread only, or with workers that failed. */
function parseDiagnostics(parsed: Parsed): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (parsed.single) {
    diagnostics.push(
      makeDiagnostic(
        TOOL,
        "LMA-PERM-001",
        "parsed on one thread: parse workers need read access to the package",
        {
          level: "note",
          note: `package: ${packageDirectory()}`,
          remediation:
            "For multi-core parsing, add the package directory to --allow-read (or run the package from JSR).",
        },
      ),
    );
  }
  for (const failure of parsed.workerFailures) {
    diagnostics.push(
      makeDiagnostic(TOOL, "LMA-INT-001", `a parse worker failed: ${failure.message}`, {
        level: "warning",
        note: "Its files were parsed on the calling thread; the results are complete.",
      }),
    );
  }
  return diagnostics;
}

/** Throws the failures that end the run: a refused permission, a grammar that cannot load. */
function throwIfFatal(task: Task, failure: WorkerFailure): void {
  if (failure.name === "NotCapable") throw permissionError("LMA", new Error(failure.message));
  if (failure.name === "GrammarLoadError") {
    throw grammarError({ message: failure.message, language: task.language });
  }
}

/** Everything the gathering of outcomes needs. */
interface Gathering {
  options: AstSearchOptions;
  namespace: string;
  fromCache: Set<Task>;
  outcomes: Map<Task, Result>;
}

/**
 * Gathers the outcomes in `(file_path, byte_start)` order into the data: counts, the listing cut
 * at the limit, each file's warnings; caches what a later run can reuse. `partial` when the
 * limit cut the listing or a file could not be searched (its matches may be missing).
 */
function gather(
  tasks: Task[],
  mode: AstSearchData["mode"],
  gathering: Gathering,
  diagnostics: Diagnostic[],
): AstSearchResult {
  const { options, namespace, fromCache, outcomes } = gathering;
  const data: AstSearchData = {
    count: 0,
    mode,
    match_count: 0,
    files_searched: 0,
    files_matched: 0,
    languages: [],
    matches: [],
  };
  const list = options.emit ?? ((match: AstMatch) => data.matches.push(match));
  // A match gets its id only when it is listed.
  const listing = new Listing<FileMatch>(
    options.limit ?? AST_SEARCH_DEFAULTS.limit,
    (match) => list({ match_id: newId(), ...match }),
  );
  let unsearched = 0;
  const limited = new LimitedCollector();
  const searchedLanguages = new Set<string>();
  for (const task of tasks) {
    const result = outcomes.get(task);
    if (!result) continue;
    if ("failure" in result) {
      throwIfFatal(task, result.failure);
      diagnostics.push(failedFile(task, result.failure));
      unsearched++;
      continue;
    }
    const { outcome } = result;
    if (outcome.stopped) {
      // Not cached: another run may give the file more room.
      diagnostics.push(limitDiagnostic(task, outcome.stopped));
      limited.add(task.filePath, outcome.stopped);
      unsearched++;
      continue;
    }
    if (options.cache && task.version && !fromCache.has(task)) {
      options.cache.set<CachedFile>(namespace, task.absPath, task.version, {
        filePath: task.filePath,
        language: task.language,
        outcome,
      });
    }
    if (outcome.binary) {
      if (task.explicit) diagnostics.push(skippedBinary(task));
      continue;
    }
    data.files_searched++;
    searchedLanguages.add(task.language);
    diagnostics.push(...syntaxDiagnostics(task, outcome));
    if (outcome.matches.length === 0) continue;
    data.files_matched++;
    data.match_count += outcome.matches.length;
    for (const match of outcome.matches) listing.offer(match);
  }
  data.count = listing.count;
  data.languages = [...searchedLanguages].sort();
  const total = listing.cutTotal;
  if (total !== undefined) data.total = total;
  const letThrough = limited.finish();
  if (letThrough) data.limited = letThrough;
  return { data, diagnostics, partial: listing.cut || unsearched > 0 };
}

/** The note of a binary file named on the command line. */
function skippedBinary(task: Task): Diagnostic {
  return makeDiagnostic(TOOL, "LMA-IO-002", `skipped binary file ${task.filePath}`, {
    level: "note",
    file: task.filePath,
    remediation: "Binary files (a NUL byte in the first 8 KiB) are not parsed.",
  });
}

/**
 * Runs a tree-sitter query, or a symbol search by kind and name, over files under
 * `options.cwd`. Throws a `ToolError` for a query that does not compile (`LMA-QRY-001`), an
 * unknown language (`LMA-ARG-010`), an unloadable grammar (`LMA-AST-002`/`-003`) and a missing
 * permission (`LMA-PERM-*`).
 *
 * @example List the functions whose name starts with "ast"
 * ```ts
 * import assert from "node:assert/strict";
 * import { astSearch } from "@llm/search/ast-search";
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/a.ts`, "function astWalk() {}\nfunction walk() {}\n");
 * const { data } = await astSearch({ cwd, kinds: ["function"], name: "^ast" });
 * assert.deepEqual(data.matches.map((match) => match.name), ["astWalk"]);
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export async function astSearch(options: AstSearchOptions): Promise<AstSearchResult> {
  const { spec, forced } = buildSpec(options);
  const limits = parseLimits(options);
  requireLiveRuntime();
  setParserHeapCeiling(options.parserHeapCeiling);
  const searcher = new FileSearcher(spec, limits);
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
    const collected = await collectTasks(spec, forced, walker, options.signal);
    const namespace = `llm-ast-search\0${JSON.stringify(spec)}`;
    const triage = takeCached(collected.tasks, options, namespace);
    // The query is compiled for the languages left to parse (a cached file's language compiled
    // when it was parsed). Definition queries are known to compile.
    const languages = [...new Set(triage.work.map((task) => task.language))].sort();
    const prepared = spec.mode === "query"
      ? await prepareLanguages(searcher, languages, options, forced)
      : { ready: new Set(languages), diagnostics: [] };
    triage.work = triage.work.filter((task) => prepared.ready.has(task.language));
    const tasks = collected.tasks.filter((task) =>
      triage.fromCache.has(task) || prepared.ready.has(task.language)
    );
    await ruleOutByText(searcher, triage, options.signal);
    const parsed = await parseWork(triage.work, searcher, options);
    const outcomes = new Map<Task, Result>(parsed.results);
    for (const [task, outcome] of triage.known) outcomes.set(task, { outcome });
    const diagnostics = [
      ...walker.diagnostics,
      ...collected.diagnostics,
      ...prepared.diagnostics,
      ...parseDiagnostics(parsed),
    ];
    return gather(
      tasks,
      spec.mode,
      { options, namespace, fromCache: triage.fromCache, outcomes },
      diagnostics,
    );
  } finally {
    searcher.dispose();
  }
}
