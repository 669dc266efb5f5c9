; Definitions in Bash: functions. See tools/ast-search/definitions.ts for the conventions.

(function_definition
  name: (word) @name) @definition.function
