/**
 * The reference and import queries of each language, compiled together with its definition
 * query once per isolate (through `grammars/query.ts`, the one place queries are compiled) and
 * kept.
 *
 * Reference queries capture `@call` (the called name) with an optional `@qualifier` (its
 * receiver or scope) in the same pattern, `@reference` (any other use of a name), `@member` (a
 * name read through a plain name, with that name as `@qualifier`: `ns.f` not called, kept only
 * when the qualifier is a module the file binds), `@namespace` (a name the file binds to a
 * module: `import * as ns`, Go's `u "path"`), `@package` (a Go import path without a name: its
 * last part names the package), `@local` (a name a function declares: a parameter, a local
 * variable) and `@ignore` (a name that is no use, such as a keyword argument's). Import queries
 * capture
 * `@import` (the whole declaration) with `@target` (what it imports; quotes and angle brackets
 * are stripped) and optional `@imported` (each name it lists), or `@include` for a C/C++
 * `#include`. No capture name is one the definition queries use.
 *
 * @module
 */
import type { Language, Query, QueryMatch } from "web-tree-sitter";
import { compileQuery } from "../../grammars/query.ts";
import { DEFINITION_QUERIES } from "../../grammars/wasm/queries.ts";

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
; A macro invoked as a declaration (\`static DEFINE_MUTEX(lock);\`) or as a loop head with a
; body (\`for_each_cpu(cpu) {…}\`), which tree-sitter reads as a type and a declarator.
(declaration type: (type_identifier) @call declarator: (parenthesized_declarator))
(compound_statement
  (function_definition type: (type_identifier) @call declarator: (parenthesized_declarator)))
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
; A member function declared in its class (\`static int make(int);\`), defined elsewhere.
(field_declaration declarator: (function_declarator declarator: (field_identifier) @reference))
(parameter_declaration
  declarator: (reference_declarator (identifier) @local))
${C_REFERENCES}`;

/** Calls and uses of names in Python. */
const PYTHON_REFERENCES = `
(call function: (identifier) @call)
(call function: (attribute object: (_) @qualifier attribute: (identifier) @call))
(keyword_argument name: (identifier) @ignore)
(identifier) @reference
(parameters (identifier) @local)
(default_parameter name: (identifier) @local)
(typed_parameter (identifier) @local)
(typed_default_parameter name: (identifier) @local)
(list_splat_pattern (identifier) @local)
(dictionary_splat_pattern (identifier) @local)
(assignment left: (identifier) @local)
(for_statement left: (identifier) @local)
`;

/** Calls and uses of names in JavaScript (TypeScript adds its own patterns to these). */
const JAVASCRIPT_REFERENCES = `
(call_expression function: (identifier) @call)
(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: [(property_identifier) (private_property_identifier)] @call))
(new_expression constructor: (identifier) @call)
(new_expression
  constructor: (member_expression object: (_) @qualifier property: (property_identifier) @call))
(member_expression object: (identifier) @qualifier property: (property_identifier) @member)
(namespace_import (identifier) @namespace)
(identifier) @reference
(variable_declarator name: (identifier) @local)
(variable_declarator name: (array_pattern (identifier) @local))
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @local))
(arrow_function parameter: (identifier) @local)
`;

/** Parameters in JavaScript. */
const JAVASCRIPT_PARAMETERS = `
(formal_parameters (identifier) @local)
(formal_parameters (assignment_pattern left: (identifier) @local))
`;

/** Calls and uses of names in TypeScript and TSX. */
const TYPESCRIPT_REFERENCES = `
(type_identifier) @reference
(required_parameter pattern: (identifier) @local)
(optional_parameter pattern: (identifier) @local)
${JAVASCRIPT_REFERENCES}`;

/** Calls and uses of names in Rust (a macro invocation is a call). */
const RUST_REFERENCES = `
(call_expression function: (identifier) @call)
(call_expression
  function: (scoped_identifier path: (_) @qualifier name: (identifier) @call))
(call_expression
  function: (field_expression value: (_) @qualifier field: (field_identifier) @call))
(call_expression function: (generic_function function: (identifier) @call))
(call_expression
  function: (generic_function
    function: (scoped_identifier path: (_) @qualifier name: (identifier) @call)))
(call_expression
  function: (generic_function
    function: (field_expression value: (_) @qualifier field: (field_identifier) @call)))
(macro_invocation macro: (identifier) @call)
(macro_invocation macro: (scoped_identifier path: (_) @qualifier name: (identifier) @call))
(type_identifier) @reference
(identifier) @reference
(parameter pattern: (identifier) @local)
(let_declaration pattern: (identifier) @local)
(closure_parameters (identifier) @local)
(for_expression pattern: (identifier) @local)
`;

/** Calls and uses of names in Go. */
const GO_REFERENCES = `
(call_expression function: (identifier) @call)
(call_expression
  function: (selector_expression operand: (_) @qualifier field: (field_identifier) @call))
(selector_expression operand: (identifier) @qualifier field: (field_identifier) @member)
(import_spec name: (package_identifier) @namespace)
(import_spec !name path: (_) @package)
((type_identifier) @reference
  (#not-any-of? @reference
    "bool" "byte" "complex64" "complex128" "error" "float32" "float64" "int" "int8" "int16"
    "int32" "int64" "rune" "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr" "any"))
(identifier) @reference
(parameter_declaration name: (identifier) @local)
(short_var_declaration left: (expression_list (identifier) @local))
(var_spec name: (identifier) @local)
(range_clause left: (expression_list (identifier) @local))
`;

/** Calls (a constructor call calls its class) and uses of names in Java. */
const JAVA_REFERENCES = `
(method_invocation object: (_) @qualifier name: (identifier) @call)
(method_invocation !object name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
(object_creation_expression type: (generic_type (type_identifier) @call))
(type_identifier) @reference
(identifier) @reference
(formal_parameter name: (identifier) @local)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @local))
(enhanced_for_statement name: (identifier) @local)
(catch_formal_parameter name: (identifier) @local)
(lambda_expression parameters: (identifier) @local)
`;

/** Calls and uses of names in C#. */
const CSHARP_REFERENCES = `
(invocation_expression function: (identifier) @call)
(invocation_expression function: (generic_name (identifier) @call))
(invocation_expression
  function: (member_access_expression expression: (_) @qualifier name: (identifier) @call))
(invocation_expression
  function: (member_access_expression
    expression: (_) @qualifier
    name: (generic_name (identifier) @call)))
(object_creation_expression type: (identifier) @call)
(object_creation_expression type: (generic_name (identifier) @call))
(identifier) @reference
(parameter name: (identifier) @local)
(variable_declarator (identifier) @local)
`;

/** Calls and uses of names in Kotlin. */
const KOTLIN_REFERENCES = `
(call_expression (simple_identifier) @call)
(call_expression
  (navigation_expression (_) @qualifier (navigation_suffix (simple_identifier) @call)))
(type_identifier) @reference
(simple_identifier) @reference
(parameter (simple_identifier) @local)
(function_value_parameters (parameter (simple_identifier) @local))
(property_declaration (variable_declaration (simple_identifier) @local))
`;

/** Calls and uses of names in PHP (variables are not names of symbols). */
const PHP_REFERENCES = `
(function_call_expression function: (name) @call)
(function_call_expression function: (qualified_name (name) @call))
(member_call_expression object: (_) @qualifier name: (name) @call)
(nullsafe_member_call_expression object: (_) @qualifier name: (name) @call)
(scoped_call_expression scope: (_) @qualifier name: (name) @call)
(object_creation_expression (name) @call)
(object_creation_expression (qualified_name (name) @call))
(named_type (name) @reference)
(class_constant_access_expression (name) @reference)
(base_clause (name) @reference)
(class_interface_clause (name) @reference)
`;

/** Calls and uses of names in Ruby (a bare identifier may be a call without parentheses). */
const RUBY_REFERENCES = `
(call receiver: (_) @qualifier method: (identifier) @call)
(call !receiver method: (identifier) @call)
(constant) @reference
(identifier) @reference
(method_parameters (identifier) @local)
(optional_parameter name: (identifier) @local)
(block_parameters (identifier) @local)
(assignment left: (identifier) @local)
`;

/** Commands run in Bash: a function is called as a command. */
const BASH_REFERENCES = `
(command name: (command_name (word) @call))
`;

/** Reference query source of each language that has one. */
const REFERENCE_QUERIES: Readonly<Record<string, string>> = {
  bash: BASH_REFERENCES,
  c: C_REFERENCES,
  cpp: CPP_REFERENCES,
  csharp: CSHARP_REFERENCES,
  go: GO_REFERENCES,
  java: JAVA_REFERENCES,
  javascript: `${JAVASCRIPT_REFERENCES}${JAVASCRIPT_PARAMETERS}`,
  kotlin: KOTLIN_REFERENCES,
  php: PHP_REFERENCES,
  python: PYTHON_REFERENCES,
  ruby: RUBY_REFERENCES,
  rust: RUST_REFERENCES,
  tsx: TYPESCRIPT_REFERENCES,
  typescript: TYPESCRIPT_REFERENCES,
};

/** `#include` in C and C++ (a macro as the path is kept as written). */
const C_IMPORTS = `
(preproc_include path: (_) @target) @include
`;

/** `import`, `export … from`, `require("…")` and `import("…")` in JavaScript and TypeScript. */
const JAVASCRIPT_IMPORTS = `
(import_statement source: (string (string_fragment) @target)) @import
(import_statement (import_clause (identifier) @imported)) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @imported)))) @import
(import_statement (import_clause (namespace_import (identifier) @imported))) @import
(export_statement source: (string (string_fragment) @target)) @import
(export_statement
  (export_clause (export_specifier name: (identifier) @imported))
  source: (_)) @import
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @target) .)
  (#eq? @_require "require")) @import
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @target))) @import
`;

/** Import query source of each language that has one. */
const IMPORT_QUERIES: Readonly<Record<string, string>> = {
  bash: `
(command
  name: (command_name (word) @_source)
  argument: (_) @target
  (#any-of? @_source "source" ".")) @import
`,
  c: C_IMPORTS,
  cpp: `
(using_declaration "namespace" (_) @target) @import
(using_declaration (qualified_identifier) @target) @import
${C_IMPORTS}`,
  csharp: `
(using_directive [(identifier) (qualified_name)] @target) @import
`,
  go: `
(import_spec path: (_) @target) @import
`,
  java: `
(import_declaration [(scoped_identifier) (identifier)] @target) @import
`,
  javascript: JAVASCRIPT_IMPORTS,
  kotlin: `
(import_header (identifier) @target) @import
`,
  php: `
(namespace_use_clause [(name) (qualified_name)] @target) @import
[
  (require_expression [(string) (encapsed_string)] @target)
  (require_once_expression [(string) (encapsed_string)] @target)
  (include_expression [(string) (encapsed_string)] @target)
  (include_once_expression [(string) (encapsed_string)] @target)
] @import
`,
  python: `
(import_statement name: (dotted_name) @target) @import
(import_statement name: (aliased_import name: (dotted_name) @target)) @import
(import_from_statement module_name: (_) @target) @import
(import_from_statement name: (dotted_name) @imported) @import
(import_from_statement name: (aliased_import name: (dotted_name) @imported)) @import
`,
  ruby: `
(call
  !receiver
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @target))
  (#any-of? @_require "require" "require_relative" "load")) @import
`,
  rust: `
(use_declaration argument: [(scoped_identifier) (identifier) (use_wildcard)] @target) @import
(use_declaration argument: (use_as_clause path: (_) @target)) @import
(use_declaration argument: (scoped_use_list path: (_) @target)) @import
(use_declaration
  argument: (scoped_use_list list: (use_list [(identifier) (self)] @imported))) @import
(use_declaration
  argument: (scoped_use_list list: (use_list (use_as_clause path: (identifier) @imported)))) @import
(mod_item name: (identifier) @target !body) @import
(extern_crate_declaration name: (identifier) @target) @import
`,
  tsx: JAVASCRIPT_IMPORTS,
  typescript: JAVASCRIPT_IMPORTS,
};

/** A language's facts query and where its reference and import patterns begin. */
export interface FactsQuery {
  /** Definition, then reference, then import patterns. */
  query: Query;
  /** Index of the first reference pattern (the definition patterns come before). */
  firstReference: number;
  /** Index of the first import pattern. */
  firstImport: number;
}

/** The matches of one pass of a {@linkcode FactsQuery}, split by the part of the query. */
export interface FactMatches {
  /** Matches of definition patterns. */
  definitions: QueryMatch[];
  /** Matches of reference patterns. */
  references: QueryMatch[];
  /** Matches of import patterns. */
  imports: QueryMatch[];
}

/**
 * `matches` of `facts` split by part, so each reader walks its own (of the 332,081 matches of
 * the first 250 files of Linux `kernel/`, 3,969 are definitions and a handful imports).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createParser, loadLanguage } from "../../grammars/loader.ts";
 * import { factsQuery, splitMatches } from "./extract_queries.ts";
 * const facts = factsQuery("c", await loadLanguage("c"))!;
 * const parser = await createParser("c");
 * const tree = parser.parse('#include "a.h"\nint f(void) { return g(); }\n')!;
 * assert.equal(splitMatches(facts, facts.query.matches(tree.rootNode)).imports.length, 1);
 * tree.delete();
 * parser.delete();
 * ```
 */
export function splitMatches(facts: FactsQuery, matches: QueryMatch[]): FactMatches {
  const split: FactMatches = { definitions: [], references: [], imports: [] };
  for (const match of matches) {
    const index = match.patternIndex;
    const part = index < facts.firstReference
      ? split.definitions
      : index < facts.firstImport
      ? split.references
      : split.imports;
    part.push(match);
  }
  return split;
}

/** The index of the first pattern of `query` that starts at or after `offset` in its source. */
function firstPatternFrom(query: Query, offset: number): number {
  let index = 0;
  while (index < query.patternCount() && query.startIndexForPattern(index) < offset) index++;
  return index;
}

const compiled = new Map<string, FactsQuery | undefined>();

/**
 * The compiled facts query of `language`: its definition query (`grammars/queries/`, the one
 * `llm-ast-search --kind` runs) followed by its reference and import patterns, so that one
 * pass over a tree finds all three (a pass costs a walk of the whole tree, about a third of a
 * parse). The definition patterns come first, so their pattern indices, by which the first
 * pattern to capture a name wins, are the definition query's own. `undefined` for a language
 * with none of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLanguage } from "../../grammars/loader.ts";
 * import { factsQuery } from "./extract_queries.ts";
 * const names = factsQuery("c", await loadLanguage("c"))?.query.captureNames ?? [];
 * assert.ok(names.includes("functions") && names.includes("call") && names.includes("include"));
 * ```
 */
export function factsQuery(language: string, grammar: Language): FactsQuery | undefined {
  if (compiled.has(language)) return compiled.get(language);
  // Each part ends with a line break of its own, so a pattern never straddles two parts.
  const parts = [
    DEFINITION_QUERIES[language],
    REFERENCE_QUERIES[language],
    IMPORT_QUERIES[language],
  ].map((source) => source === undefined ? "" : `${source}\n`);
  const source = parts.join("");
  let facts: FactsQuery | undefined;
  if (source !== "") {
    const query = compileQuery(language, grammar, source);
    facts = {
      query,
      firstReference: firstPatternFrom(query, parts[0].length),
      firstImport: firstPatternFrom(query, parts[0].length + parts[1].length),
    };
  }
  compiled.set(language, facts);
  return facts;
}
