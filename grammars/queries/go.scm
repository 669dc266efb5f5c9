; Definitions in Go. See grammars/definitions.ts for the capture conventions. A
; method's parent is its receiver's type.

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @parent
        (pointer_type
          (type_identifier) @parent)
        (generic_type
          type: (type_identifier) @parent)
        (pointer_type
          (generic_type
            type: (type_identifier) @parent))
      ]))
  name: (field_identifier) @name) @definition.method

; Interface methods.
(type_spec
  type: (interface_type
    (method_spec
      name: (field_identifier) @name) @definition.method))

(type_spec
  name: (type_identifier) @name
  type: (struct_type)) @definition.struct

(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface

(type_spec
  name: (type_identifier) @name) @definition.type

(type_alias
  name: (type_identifier) @name) @definition.type

; One definition per name of `const a, b = …` (the names are the spec's identifier children;
; matching them through the `name:` field would give the first name only).
(const_spec
  (identifier) @name) @definition.constant

; Package-level variables.
(source_file
  (var_declaration
    (var_spec
      (identifier) @name) @definition.variable))
