; Definitions in C. See grammars/definitions.ts for the capture conventions:
; @definition.<kind> is the definition's node, @name its name (a declarator is unwrapped to
; the identifier it declares). When several patterns capture the same name, the first wins.

; Functions are read from the tokens of the translation unit, not from function_definition
; nodes: without a preprocessor, tree-sitter misreads kernel-style macros
; (`int __init f(void)`, `SYSCALL_DEFINE3(read, …)`, `for_each_cpu(cpu) {…}` in a body).
; See grammars/c_functions.ts.
(translation_unit) @functions

(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.union

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list)) @definition.enum

(enumerator
  name: (identifier) @name) @definition.constant

(type_definition
  declarator: (_) @name) @definition.type

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro

; File-scope variables: every declarator of a declaration (prototypes are dropped, pointers
; to functions kept).
(translation_unit
  (declaration
    declarator: [
      (identifier)
      (init_declarator)
      (pointer_declarator)
      (array_declarator)
      (function_declarator)
    ] @name) @definition.variable)
