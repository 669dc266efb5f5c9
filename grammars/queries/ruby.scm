; Definitions in Ruby. See grammars/definitions.ts for the capture conventions. A
; `def` in a class, module or `class << self` body is a method, elsewhere a function; a
; constant assignment (`MAX = 10`) is a constant.

(class
  body: (body_statement
    (method
      name: (_) @name) @definition.method))

(module
  body: (body_statement
    (method
      name: (_) @name) @definition.method))

(singleton_class
  body: (body_statement
    (method
      name: (_) @name) @definition.method))

(singleton_method
  name: (_) @name) @definition.method

(method
  name: (_) @name) @definition.function

(class
  name: [
    (constant) @name
    (scope_resolution
      name: (_) @name)
  ]) @definition.class

(module
  name: [
    (constant) @name
    (scope_resolution
      name: (_) @name)
  ]) @definition.module

(assignment
  left: (constant) @name) @definition.constant
