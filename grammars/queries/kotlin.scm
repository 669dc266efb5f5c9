; Definitions in Kotlin (its grammar has no fields: names are the first identifier child). See
; grammars/definitions.ts for the capture conventions. A function in a class, object
; or companion body is a method; `const val` at file level is a constant, other top-level
; properties variables.

(class_declaration
  "interface"
  (type_identifier) @name) @definition.interface

(class_declaration
  "enum"
  (type_identifier) @name) @definition.enum

(class_declaration
  (type_identifier) @name) @definition.class

(object_declaration
  (type_identifier) @name) @definition.class

(class_body
  (function_declaration
    (simple_identifier) @name) @definition.method)

(function_declaration
  (simple_identifier) @name) @definition.function

(type_alias
  (type_identifier) @name) @definition.type

(enum_entry
  (simple_identifier) @name) @definition.constant

(source_file
  (property_declaration
    (modifiers
      (property_modifier) @const
      (#eq? @const "const"))
    (variable_declaration
      (simple_identifier) @name)) @definition.constant)

(source_file
  (property_declaration
    (variable_declaration
      (simple_identifier) @name)) @definition.variable)
