; Definitions in Java. See grammars/definitions.ts for the capture conventions.
; Constructors are methods; `static final` fields, enum constants and interface constants
; are constants.

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(enum_constant
  name: (identifier) @name) @definition.constant

(field_declaration
  (modifiers
    "static"
    "final")
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant

(constant_declaration
  declarator: (variable_declarator
    name: (identifier) @name)) @definition.constant
