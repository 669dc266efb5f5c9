/**
 * The ast-search engine as a library function: check the request, walk, pick each file's
 * language, serve unchanged files from a long-lived host's cache, parse the rest on the
 * calling thread and (for larger inputs) on workers that claim files from one shared counter,
 * and gather the results in `(file_path, byte_start)` order.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { permissionError } from "../../core/permissions.ts";
import { Walker } from "../../core/walk/walker.ts";
import type { AstMatch, AstSearchData } from "../../schema/ast_search.ts";
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
import { QueryCompileError, type QueryProblem } from "./compile.ts";
import {
  DEFAULT_PARSE_LIMITS,
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
import { parseAll, type Result, type Task } from "./parallel.ts";
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
      if (entry.explicit) {
        info = forced;
        if (byName && byName.name !== forced.name) {
          diagnostics.push(otherLanguage(entry.filePath, byName, forced));
        }
      } else if (byName?.name !== forced.name) continue;
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
 * @example List the functions whose name starts with "ast"
 * ```ts
 * import { astSearch } from "@llm/search/ast-search";
 * const { data } = await astSearch({ cwd: Deno.cwd(), kinds: ["function"], name: "^ast" });
 * console.log(data.matches.map((match) => match.name));
 * ```
 */
export async function astSearch(options: AstSearchOptions): Promise<AstSearchResult> {
  const { spec, forced } = buildSpec(options);
  const limits: ParseLimits = {
    maxParseBytes: options.maxParseBytes ?? DEFAULT_PARSE_LIMITS.maxParseBytes,
    maxParseMemory: options.maxParseMemory ?? DEFAULT_PARSE_LIMITS.maxParseMemory,
    fileTimeoutMs: options.fileTimeoutMs ?? DEFAULT_PARSE_LIMITS.fileTimeoutMs,
  };
  if (runtimeAborted()) {
    throw new ToolError(
      "LMA-AST-008",
      "the parser runtime of this process aborted in an earlier run and cannot parse again",
      { remediation: "Start a new process (a one-shot run or a fresh server)." },
    );
  }
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
    const limit = options.limit ?? AST_SEARCH_DEFAULTS.limit;
    // Files a limit or a failure kept from being searched: the results may miss their matches.
    let unsearched = 0;
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
        diagnostics.push(failedFile(task, failure));
        unsearched++;
        continue;
      }
      const { outcome } = result;
      if (outcome.stopped) {
        // Not cached: another run may give the file more room.
        diagnostics.push(limitDiagnostic(task, outcome.stopped));
        unsearched++;
        continue;
      }
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
    const cut = data.match_count > data.count;
    if (cut) data.total = data.match_count;
    const partial = cut || unsearched > 0;
    return { data, diagnostics, partial };
  } finally {
    searcher.dispose();
  }
}
