/**
 * Compiling tree-sitter queries, and explaining the ones that do not compile: where (byte
 * offset, line, column) and what the grammar expected there, with the closest node or field
 * names when a name is wrong; and the compiled definition query of each language, kept for the
 * life of the process. Every tool that runs tree-sitter queries (ast-search, the coming
 * symbols) compiles them here.
 *
 * This module imports no zod, so workers can use it.
 *
 * @module
 */
import { type Language, Query } from "web-tree-sitter";
import { DEFINITION_QUERIES } from "./wasm/queries.ts";
import { closestNames } from "./closest_names.ts";

/** Predicates web-tree-sitter 0.25 evaluates; any other `#…` would be silently ignored. */
export const SUPPORTED_PREDICATES: readonly string[] = [
  "eq?",
  "not-eq?",
  "any-eq?",
  "any-not-eq?",
  "match?",
  "not-match?",
  "any-match?",
  "any-not-match?",
  "any-of?",
  "not-any-of?",
  "is?",
  "is-not?",
  "set!",
];

/** Why a query does not compile, in terms an agent can act on. */
export interface QueryProblem {
  /** Language it was compiled for. */
  language: string;
  /** One-line description. */
  message: string;
  /** UTF-8 byte offset into the query source, when known. */
  offset?: number;
  /** 1-based line of `offset` in the query source. */
  line?: number;
  /** 0-based byte column of `offset` in its line. */
  column?: number;
  /** What tree-sitter expected at that point, with the closest valid names. */
  expected: string;
}

/**
 * Thrown by {@linkcode compileQuery} for a query that does not compile.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { QueryCompileError } from "./query.ts";
 * const error = new QueryCompileError({ language: "c", message: "bad", expected: "a pattern" });
 * assert.equal(error.problem.language, "c");
 * ```
 */
export class QueryCompileError extends Error {
  /** The details. */
  readonly problem: QueryProblem;

  /** Builds the error. */
  constructor(problem: QueryProblem) {
    super(problem.message);
    this.name = "QueryCompileError";
    this.problem = problem;
  }
}

/** Shape of web-tree-sitter's `QueryError` (its class is not exported by 0.25). */
interface TreeSitterQueryError extends Error {
  kind: number;
  index: number;
  info: { word?: string; suffix?: string };
}

function isTreeSitterQueryError(error: unknown): error is TreeSitterQueryError {
  return error instanceof Error && error.name === "QueryError" && "index" in error;
}

const encoder = new TextEncoder();

/** Offset, line and column of code-unit index `index` of `source`. */
function position(source: string, index: number): { offset: number; line: number; column: number } {
  const before = source.slice(0, index);
  const lineStart = before.lastIndexOf("\n") + 1;
  return {
    offset: encoder.encode(before).length,
    line: before.split("\n").length,
    column: encoder.encode(before.slice(lineStart)).length,
  };
}

function namedTypes(language: Language): string[] {
  return language.types.filter((type) => type && /^[a-z_][a-z0-9_]*$/i.test(type));
}

function fieldNames(language: Language): string[] {
  return language.fields.filter((field): field is string => Boolean(field));
}

function suggest(word: string, candidates: string[], what: string, language: string): string {
  const close = closestNames(word, candidates);
  return close.length
    ? `a ${what} of the ${language} grammar; closest to '${word}': ${close.join(", ")}`
    : `a ${what} of the ${language} grammar ('${word}' is none of its ${candidates.length})`;
}

/** Explains a web-tree-sitter `QueryError`. */
function explainQueryError(
  error: TreeSitterQueryError,
  source: string,
  languageName: string,
  language: Language,
): QueryProblem {
  const at = position(source, error.index);
  const word = error.info.word ?? "";
  const near = source.slice(error.index, error.index + 40).split("\n")[0];
  const where = `at offset ${at.offset} (line ${at.line}, column ${at.column})`;
  const base = { language: languageName, ...at };
  switch (error.kind) {
    case 2:
      return {
        ...base,
        message: `the ${languageName} grammar has no node type '${word}' ${where}`,
        expected: suggest(word, namedTypes(language), "node type", languageName),
      };
    case 3:
      return {
        ...base,
        message: `the ${languageName} grammar has no field '${word}' ${where}`,
        expected: suggest(word, fieldNames(language), "field name", languageName),
      };
    case 4:
      return {
        ...base,
        message: `predicate uses capture @${word}, which its pattern does not define, ${where}`,
        expected: "a capture (@name) defined earlier in the same pattern",
      };
    case 5:
      return {
        ...base,
        message: `impossible pattern structure ${where}: '${near}'`,
        expected:
          "children and fields that this node type can have in the grammar (check the parent node and field names)",
      };
    default:
      return {
        ...base,
        message: `query syntax error ${where}: '${near}'`,
        expected:
          "a pattern: '(node_type child…)', '[alternatives]', '\"literal\"', '_', a field 'name: …', " +
          "a capture '@name', a quantifier '?*+', or a predicate '(#eq? @a \"x\")', with balanced parentheses",
      };
  }
}

/** Explains a predicate that web-tree-sitter rejected with a plain `Error`. */
function explainPredicateError(error: Error, source: string, languageName: string): QueryProblem {
  const operator = /`#([^`]+)`/.exec(error.message)?.[1];
  const index = operator ? source.indexOf(`#${operator}`) : -1;
  const at = index >= 0 ? position(source, index) : {};
  return {
    language: languageName,
    message: `invalid predicate: ${error.message}`,
    ...at,
    expected: `predicates of the form (#eq? @capture "text"), (#match? @capture "regex"), ` +
      `(#any-of? @capture "a" "b"); supported: ${
        SUPPORTED_PREDICATES.map((p) => `#${p}`).join(" ")
      }`,
  };
}

/**
 * Compiles `source` for `language` (whose registry name is `languageName`). Throws
 * {@linkcode QueryCompileError} when it does not compile or uses a predicate web-tree-sitter
 * would ignore.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileQuery } from "./query.ts";
 * import { loadLanguage } from "./loader.ts";
 * const query = compileQuery("c", await loadLanguage("c"), "(function_definition) @fn");
 * assert.deepEqual(query.captureNames, ["fn"]);
 * ```
 */
export function compileQuery(languageName: string, language: Language, source: string): Query {
  let query: Query;
  try {
    query = new Query(language, source);
  } catch (error) {
    if (isTreeSitterQueryError(error)) {
      throw new QueryCompileError(explainQueryError(error, source, languageName, language));
    }
    if (error instanceof Error) {
      throw new QueryCompileError(explainPredicateError(error, source, languageName));
    }
    throw error;
  }
  for (const predicates of query.predicates) {
    const unknown = predicates.find((predicate) =>
      !SUPPORTED_PREDICATES.includes(predicate.operator)
    );
    if (unknown) {
      query.delete();
      const index = source.indexOf(`#${unknown.operator}`);
      throw new QueryCompileError({
        language: languageName,
        message: `unsupported predicate #${unknown.operator}`,
        ...(index >= 0 ? position(source, index) : {}),
        expected: `one of ${SUPPORTED_PREDICATES.map((p) => `#${p}`).join(" ")}`,
      });
    }
  }
  return query;
}

const definitionQueries = new Map<string, Query>();

/**
 * The compiled definition query of `language` (`undefined` for a language without one),
 * compiled once per isolate and kept, like the grammars, for the life of the process: it
 * depends on nothing but the language and `kinds`.
 *
 * With `kinds`, the patterns after the last one that captures a definition of a kind in it are
 * disabled, except those that capture no `@definition.<kind>` (`@functions` counts as
 * `function`): a search for C functions then does not marshal every macro, enumerator and
 * variable of a file out of the parser. Callers that need parents pass the container kinds too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { definitionQuery } from "./query.ts";
 * import { loadLanguage } from "./loader.ts";
 * const c = await loadLanguage("c");
 * const query = definitionQuery("c", c);
 * assert.equal(definitionQuery("c", c), query); // cached
 * assert.notEqual(definitionQuery("c", c, new Set(["function"])), query);
 * ```
 */
export function definitionQuery(
  language: string,
  grammar: Language,
  kinds?: ReadonlySet<string>,
): Query | undefined {
  const source = DEFINITION_QUERIES[language];
  if (source === undefined) return undefined;
  const key = kinds ? `${language}\0${[...kinds].sort().join(",")}` : language;
  let query = definitionQueries.get(key);
  if (!query) {
    query = compileQuery(language, grammar, source);
    if (kinds) disableOtherKinds(query, kinds);
    definitionQueries.set(key, query);
  }
  return query;
}

/**
 * Disables the patterns of `query` that capture definitions of kinds outside `kinds` only, and
 * come after every pattern of a kind in it. A pattern before one that is kept must stay: when
 * two patterns capture the same name, the first one wins, so disabling it could turn its name
 * into a definition of a kept kind.
 */
function disableOtherKinds(query: Query, kinds: ReadonlySet<string>): void {
  const patternKinds = query.captureQuantifiers.map((quantifiers) =>
    query.captureNames.flatMap((name, capture) => {
      if (quantifiers[capture] === 0) return [];
      if (name.startsWith("definition.")) return [name.slice("definition.".length)];
      return name === "functions" ? ["function"] : [];
    })
  );
  const lastKept = patternKinds.findLastIndex((defined) => defined.some((kind) => kinds.has(kind)));
  patternKinds.forEach((defined, patternIndex) => {
    if (patternIndex > lastKept && defined.length) query.disablePattern(patternIndex);
  });
}
