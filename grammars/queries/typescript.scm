; inherits: javascript
; Definitions in TypeScript; the JavaScript patterns follow these (see javascript.scm).

(interface_declaration
  name: (type_identifier) @name) @definition.interface

; Method signatures of interfaces and abstract classes.
(interface_body
  (method_signature
    name: (_) @name) @definition.method)

(class_body
  (abstract_method_signature
    name: (_) @name) @definition.method)

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

; `namespace A.B {}` and `declare module "x" {}`.
(internal_module
  name: (_) @name) @definition.module

(module
  name: [
    (identifier) @name
    (nested_identifier) @name
    (string
      (string_fragment) @name)
  ]) @definition.module

; Declarations without a body: `declare function f(): void;` and overload signatures.
(function_signature
  name: (identifier) @name) @definition.function

; Bindings exported from a namespace.
(internal_module
  body: (statement_block
    (export_statement
      declaration: (lexical_declaration
        "const"
        (variable_declarator
          name: (identifier) @name)) @definition.constant)))
