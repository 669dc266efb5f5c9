; Definitions in JavaScript (also the base of typescript.scm and tsx.scm). See
; grammars/definitions.ts for the capture conventions; the first pattern that captures
; a name wins, so the specific patterns come first.

; Methods of classes (constructors, accessors and private methods included).
(class_body
  (method_definition
    name: (_) @name) @definition.method)

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

; `const f = () => …`, `let g = function () {…}`: the declaration defines a function.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(class_declaration
  name: (_) @name) @definition.class

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class))) @definition.class

; Top-level bindings: `const` ones are constants, `let` and `var` ones variables.
(program
  (lexical_declaration
    "const"
    (variable_declarator
      name: (identifier) @name)) @definition.constant)

(program
  (export_statement
    declaration: (lexical_declaration
      "const"
      (variable_declarator
        name: (identifier) @name)) @definition.constant))

(program
  [
    (lexical_declaration
      (variable_declarator
        name: (identifier) @name))
    (variable_declaration
      (variable_declarator
        name: (identifier) @name))
  ] @definition.variable)

(program
  (export_statement
    declaration: [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name))
      (variable_declaration
        (variable_declarator
          name: (identifier) @name))
    ] @definition.variable))
