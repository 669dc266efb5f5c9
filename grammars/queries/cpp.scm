; inherits: c
; Definitions in C++; the C patterns follow these (see c.scm). A function defined in a class
; body, or outside it under a qualified name (`double Shape::area() {…}`), is a method; the
; qualifier is then its parent.

; A function defined in a function body is a loop macro and its block: `FOR_EACH(x, xs) {…}`.
(compound_statement
  (function_definition) @not_definition)

(field_declaration_list
  (function_definition
    declarator: (_) @name) @definition.method)

(field_declaration_list
  (template_declaration
    (function_definition
      declarator: (_) @name) @definition.method))

(function_definition
  declarator: (function_declarator
    declarator: (qualified_identifier) @name)) @definition.method

(function_definition
  declarator: (_
    (function_declarator
      declarator: (qualified_identifier) @name))) @definition.method

(function_definition
  declarator: (_) @name) @definition.function

(namespace_definition
  name: (_) @name) @definition.module

(class_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.class

(struct_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.struct

(alias_declaration
  name: (type_identifier) @name) @definition.type

; Namespace-scope variables.
(namespace_definition
  body: (declaration_list
    (declaration
      declarator: [
        (identifier)
        (init_declarator)
        (pointer_declarator)
        (reference_declarator)
        (array_declarator)
        (function_declarator)
      ] @name) @definition.variable))
