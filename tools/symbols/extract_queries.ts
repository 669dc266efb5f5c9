/**
 * The reference and import queries of each language, compiled once per isolate (through
 * `grammars/query.ts`, the one place queries are compiled) and kept.
 *
 * Reference queries capture `@call` (the called name) with an optional `@qualifier` (its
 * receiver or scope) in the same pattern, and `@reference` (any other use of a name). Import
 * queries capture `@import` (the whole declaration) with `@target` (what it imports; quotes
 * and angle brackets are stripped) and optional `@name` (each name it lists), or `@include`
 * for a C/C++ `#include`.
 *
 * @module
 */
import type { Language, Query } from "web-tree-sitter";
import { compileQuery } from "../../grammars/query.ts";

/** Reference query source of each language that has one. */
const REFERENCE_QUERIES: Readonly<Record<string, string>> = {};

/** Import query source of each language that has one. */
const IMPORT_QUERIES: Readonly<Record<string, string>> = {};

const compiled = new Map<string, Query | undefined>();

function cached(
  kind: string,
  sources: Readonly<Record<string, string>>,
  language: string,
  grammar: Language,
): Query | undefined {
  const key = `${kind}:${language}`;
  if (compiled.has(key)) return compiled.get(key);
  const source = sources[language];
  const query = source === undefined ? undefined : compileQuery(language, grammar, source);
  compiled.set(key, query);
  return query;
}

/**
 * The compiled reference query of `language` (`undefined` when it has none).
 *
 * @example
 * ```ts
 * import { loadLanguage } from "../../grammars/loader.ts";
 * import { compiledReferenceQuery } from "./extract_queries.ts";
 * compiledReferenceQuery("c", await loadLanguage("c"))?.captureNames.includes("call"); // true
 * ```
 */
export function compiledReferenceQuery(language: string, grammar: Language): Query | undefined {
  return cached("references", REFERENCE_QUERIES, language, grammar);
}

/**
 * The compiled import query of `language` (`undefined` when it has none).
 *
 * @example
 * ```ts
 * import { loadLanguage } from "../../grammars/loader.ts";
 * import { compiledImportQuery } from "./extract_queries.ts";
 * compiledImportQuery("c", await loadLanguage("c"))?.captureNames.includes("include"); // true
 * ```
 */
export function compiledImportQuery(language: string, grammar: Language): Query | undefined {
  return cached("imports", IMPORT_QUERIES, language, grammar);
}
