/**
 * Checking an ast-search request before any file is read: the query (inline or from a file),
 * the kinds, the name pattern and the language, each refused with its own code; and the coded
 * errors of languages, grammars and queries the engine reports.
 *
 * @module
 */
import { SYMBOL_KINDS } from "../../schema/ast_search.ts";
import { type DiagnosticDetails, ToolError } from "../../schema/diagnostic.ts";
import { readInputFile } from "../../core/input_file.ts";
import {
  languageByName,
  type LanguageInfo,
  supportedLanguageNames,
} from "../../grammars/languages.ts";
import { DEFINITION_QUERIES } from "../../grammars/wasm/queries.ts";
import type { QueryProblem } from "../../grammars/query.ts";
import type { SearchSpec } from "./file_search.ts";
import type { AstSearchOptions } from "./options.ts";
import { AST_SEARCH_DEFAULTS } from "./defaults.ts";

/**
 * Languages that have a definition query, sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { definitionLanguages } from "./request.ts";
 * assert.ok(definitionLanguages().includes("rust"));
 * ```
 */
export function definitionLanguages(): string[] {
  return Object.keys(DEFINITION_QUERIES).sort();
}

/**
 * The `LMA-ARG-010` error of a `--language` the registry does not know, listing the others.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unknownLanguage } from "./request.ts";
 * assert.equal(unknownLanguage("cobol").code, "LMA-ARG-010");
 * ```
 */
export function unknownLanguage(name: string): ToolError {
  return new ToolError("LMA-ARG-010", `unknown language '${name}'`, {
    note: `supported languages: ${supportedLanguageNames().join(", ")}`,
  });
}

/**
 * The `LMA-AST-002` error of a known language whose grammar cannot be loaded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unsupported } from "./request.ts";
 * import { languageByName } from "../../grammars/languages.ts";
 * assert.equal(unsupported(languageByName("yaml")!).code, "LMA-AST-002");
 * ```
 */
export function unsupported(info: LanguageInfo): ToolError {
  return new ToolError(
    "LMA-AST-002",
    `the ${info.name} grammar cannot be loaded: ${info.unsupported}`,
    {
      note: `supported languages: ${supportedLanguageNames().join(", ")}`,
    },
  );
}

/**
 * The `LMA-QRY-001` error of a query that does not compile: where and what was expected, with
 * the problems of other languages in the note.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryError } from "./request.ts";
 * const error = queryError({ language: "c", message: "syntax error", expected: "a pattern" });
 * assert.equal(error.code, "LMA-QRY-001");
 * ```
 */
export function queryError(
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

/**
 * The `LMA-AST-003` error of a grammar that failed to load, here or in a worker (whose failure
 * arrives as its message and the language of its file).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grammarError } from "./request.ts";
 * import { GrammarLoadError } from "../../grammars/loader.ts";
 * assert.equal(grammarError(new GrammarLoadError("c", "damaged")).code, "LMA-AST-003");
 * ```
 */
export function grammarError(error: { message: string; language: string }): ToolError {
  return new ToolError("LMA-AST-003", error.message, { note: `language: ${error.language}` });
}

/**
 * Deepest nesting of parentheses and brackets a query may have. tree-sitter compiles a query
 * recursively on a small stack in the runtime's heap: about 2,500 levels overflow it, which
 * corrupts the runtime of the whole thread (a later parse fails with "table index is out of
 * bounds"). Real queries nest a few levels.
 */
export const MAX_QUERY_NESTING = 256;

/**
 * The code-unit index of the first bracket of `query` nested deeper than `limit` (strings and
 * `;` comments skipped, as tree-sitter reads them), or -1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tooDeep } from "./request.ts";
 * assert.equal(tooDeep("((a))", 1), 1);
 * assert.equal(tooDeep('("((((" @x)', 1), -1);
 * ```
 */
export function tooDeep(query: string, limit: number): number {
  let depth = 0;
  for (let index = 0; index < query.length; index++) {
    const char = query[index];
    if (char === '"') {
      for (index++; index < query.length && query[index] !== '"'; index++) {
        if (query[index] === "\\") index++;
      }
    } else if (char === ";") {
      while (index < query.length && query[index] !== "\n") index++;
    } else if (char === "(" || char === "[") {
      if (++depth > limit) return index;
    } else if ((char === ")" || char === "]") && depth > 0) depth--;
  }
  return -1;
}

/** Line (1-based) and byte column (0-based) of code-unit `index` of `text`. */
function lineAndColumn(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf("\n") + 1;
  return {
    line: before.split("\n").length,
    column: new TextEncoder().encode(before.slice(lineStart)).length,
  };
}

/** Refuses a query tree-sitter cannot take safely: a NUL byte, or nesting past the limit. */
function checkQueryText(query: string, queryFile: string | undefined): void {
  const where = (index: number): DiagnosticDetails => ({
    ...lineAndColumn(query, index),
    ...(queryFile === undefined ? {} : { file: queryFile }),
  });
  const nul = query.indexOf("\0");
  if (nul >= 0) {
    throw new ToolError("LMA-QRY-001", `the query contains a NUL byte at index ${nul}`, {
      ...where(nul),
      note: "expected query text: node types, fields, captures, strings and predicates",
    });
  }
  const deep = tooDeep(query, MAX_QUERY_NESTING);
  if (deep >= 0) {
    throw new ToolError(
      "LMA-QRY-004",
      `the query nests parentheses and brackets deeper than ${MAX_QUERY_NESTING} levels`,
      { ...where(deep), note: `limit: ${MAX_QUERY_NESTING} levels` },
    );
  }
}

/**
 * The code-unit index of the atom at which `pattern` stops being a valid start of a regular
 * expression (with flag `u`): after the longest prefix that compiles once its open class and
 * groups are closed.
 */
function regexErrorIndex(pattern: string): number {
  const opened: number[] = [];
  let inClass = false;
  let index = 0;
  // Where the last prefix that compiled ended: the atom after it holds the error.
  let atom = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    const closers = (inClass ? "]" : "") + ")".repeat(opened.length);
    if (!/[*+?{]/.test(char)) {
      try {
        new RegExp(pattern.slice(0, index) + closers, "u");
        atom = index;
      } catch {
        return atom;
      }
    }
    if (char === "\\") index++;
    else if (inClass) inClass = char !== "]";
    else if (char === "[") inClass = true;
    else if (char === "(") opened.push(index);
    else if (char === ")") {
      if (opened.pop() === undefined) return index;
    }
    index++;
  }
  if (inClass) return pattern.lastIndexOf("[");
  return opened.at(-1) ?? atom;
}

/** Refuses a `--name` that is not a regular expression, or holds a NUL byte. */
function checkName(name: string): void {
  const nul = name.indexOf("\0");
  if (nul >= 0) {
    throw new ToolError("LMA-QRY-003", `--name contains a NUL byte at index ${nul}`, {
      column: nul,
      note: "symbol names never contain NUL",
    });
  }
  try {
    new RegExp(name, "u");
  } catch (error) {
    // Finding the position compiles each prefix: kept to names of a sane length.
    const at = name.length <= 1000 ? regexErrorIndex(name) : undefined;
    const details: DiagnosticDetails = {
      note: error instanceof Error ? error.message : String(error),
    };
    if (at !== undefined) details.column = at;
    throw new ToolError(
      "LMA-QRY-003",
      `--name is not a valid regular expression${at === undefined ? "" : ` (at index ${at})`}: ${
        JSON.stringify(name.length > 200 ? name.slice(0, 200) + "…" : name)
      }`,
      details,
    );
  }
}

/**
 * Checks the request and turns it into the spec workers run (and the language `--language`
 * forces). Throws the request's coded error: `LMA-ARG-011` for two queries, `LMA-IO-001` for a
 * missing query file, `LMA-ARG-002` for an unknown kind, `LMA-QRY-002` for nothing to search,
 * `LMA-QRY-003` for a bad `--name`, `LMA-ARG-010`, `LMA-AST-002` or `LMA-AST-004` for the
 * language.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildSpec } from "./request.ts";
 * assert.equal(buildSpec({ cwd: ".", kinds: ["function"], language: "go" }).forced?.name, "go");
 * ```
 */
export function buildSpec(options: AstSearchOptions): { spec: SearchSpec; forced?: LanguageInfo } {
  if (options.query !== undefined && options.queryFile !== undefined) {
    throw new ToolError("LMA-ARG-011", "give either --query or --query-file, not both");
  }
  let query = options.query;
  if (options.queryFile !== undefined) {
    query = readInputFile("LMA", options.cwd, options.queryFile, "query file");
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
  if (query !== undefined) checkQueryText(query, options.queryFile);
  if (options.name !== undefined) checkName(options.name);
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
    maxColumns: options.maxColumns ?? AST_SEARCH_DEFAULTS.maxColumns,
  };
  if (options.name !== undefined) spec.name = options.name;
  return forced ? { spec, forced } : { spec };
}
