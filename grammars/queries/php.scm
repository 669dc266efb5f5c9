; Definitions in PHP. See grammars/definitions.ts for the capture conventions.
; Constants are `const` declarations (at file or class level) and enum cases.

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(enum_case
  name: (name) @name) @definition.constant

(method_declaration
  name: (name) @name) @definition.method

(function_definition
  name: (name) @name) @definition.function

(namespace_definition
  name: (namespace_name) @name) @definition.module

(const_declaration
  (const_element
    (name) @name)) @definition.constant
