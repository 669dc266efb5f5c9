; Definitions in Python. See grammars/definitions.ts for the capture conventions; the
; first pattern that captures a name wins, so methods come before functions. A decorated
; definition spans its decorators.

(class_definition
  body: (block
    (decorated_definition
      definition: (function_definition
        name: (identifier) @name)) @definition.method))

(class_definition
  body: (block
    (function_definition
      name: (identifier) @name) @definition.method))

(decorated_definition
  definition: (function_definition
    name: (identifier) @name)) @definition.function

(function_definition
  name: (identifier) @name) @definition.function

(decorated_definition
  definition: (class_definition
    name: (identifier) @name)) @definition.class

(class_definition
  name: (identifier) @name) @definition.class

; UPPER_CASE names bound at module or class level are constants.
(module
  (expression_statement
    (assignment
      left: (identifier) @name) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

(class_definition
  body: (block
    (expression_statement
      (assignment
        left: (identifier) @name) @definition.constant))
  (#match? @name "^[A-Z][A-Z0-9_]*$"))

; Other names bound at module level are variables.
(module
  (expression_statement
    (assignment
      left: (identifier) @name) @definition.variable))
