; Definitions in C#. See grammars/definitions.ts for the capture conventions. Records
; are classes, delegates types, constructors methods, `const` fields and enum members constants.

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(enum_member_declaration
  name: (identifier) @name) @definition.constant

(delegate_declaration
  name: (identifier) @name) @definition.type

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(local_function_statement
  name: (identifier) @name) @definition.function

(namespace_declaration
  name: (_) @name) @definition.module

(field_declaration
  (modifier
    "const")
  (variable_declaration
    (variable_declarator
      (identifier) @name))) @definition.constant
