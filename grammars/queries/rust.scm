; Definitions in Rust. See grammars/definitions.ts for the capture conventions. An
; `impl` block is a scope: the methods in it have the implementing type as parent.

(impl_item
  type: [
    (type_identifier) @name
    (generic_type
      type: (type_identifier) @name)
    (scoped_type_identifier
      name: (type_identifier) @name)
  ]) @scope

; Functions in an `impl` or a trait are methods; elsewhere they are functions.
(impl_item
  body: (declaration_list
    (function_item
      name: (identifier) @name) @definition.method))

(trait_item
  body: (declaration_list
    [
      (function_item
        name: (identifier) @name)
      (function_signature_item
        name: (identifier) @name)
    ] @definition.method))

(function_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(union_item
  name: (type_identifier) @name) @definition.union

(trait_item
  name: (type_identifier) @name) @definition.trait

(type_item
  name: (type_identifier) @name) @definition.type

(mod_item
  name: (identifier) @name) @definition.module

(const_item
  name: (identifier) @name) @definition.constant

(static_item
  name: (identifier) @name) @definition.variable

(macro_definition
  name: (identifier) @name) @definition.macro
