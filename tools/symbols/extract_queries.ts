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

/** Names a C function declares for itself: its parameters and local variables. */
const C_LOCALS = `
(parameter_declaration
  declarator: [
    (identifier) @local
    (pointer_declarator declarator: (identifier) @local)
    (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @local))
    (array_declarator declarator: (identifier) @local)
  ])
(compound_statement
  (declaration
    declarator: [
      (identifier) @local
      (init_declarator declarator: (identifier) @local)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @local))
      (init_declarator declarator: (array_declarator declarator: (identifier) @local))
      (pointer_declarator declarator: (identifier) @local)
      (array_declarator declarator: (identifier) @local)
    ]))
`;

/** Calls and uses of names in C (a macro invoked like a function is a call). */
const C_REFERENCES = `
(call_expression function: (identifier) @call)
(call_expression
  function: (field_expression argument: (_) @qualifier field: (field_identifier) @call))
(call_expression
  function: (parenthesized_expression (pointer_expression argument: (identifier) @call)))
(type_identifier) @reference
(identifier) @reference
${C_LOCALS}`;

/** Calls and uses of names in C++: C's, with scopes, templates and `new`. */
const CPP_REFERENCES = `
(call_expression
  function: (qualified_identifier scope: (_) @qualifier name: (identifier) @call))
(call_expression
  function: (qualified_identifier
    scope: (_) @qualifier
    name: (template_function name: (identifier) @call)))
(call_expression function: (template_function name: (identifier) @call))
(call_expression
  function: (field_expression
    argument: (_) @qualifier
    field: (template_method name: (field_identifier) @call)))
(new_expression type: (type_identifier) @call)
(namespace_identifier) @reference
(parameter_declaration
  declarator: (reference_declarator (identifier) @local))
${C_REFERENCES}`;

/** Reference query source of each language that has one. */
const REFERENCE_QUERIES: Readonly<Record<string, string>> = {
  c: C_REFERENCES,
  cpp: CPP_REFERENCES,
};

/** `#include` in C and C++ (a macro as the path is kept as written). */
const C_IMPORTS = `
(preproc_include path: (_) @target) @include
`;

/** Import query source of each language that has one. */
const IMPORT_QUERIES: Readonly<Record<string, string>> = {
  c: C_IMPORTS,
  cpp: `
(using_declaration "namespace" (_) @target) @import
(using_declaration (qualified_identifier) @target) @import
${C_IMPORTS}`,
};

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
