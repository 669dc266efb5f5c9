; Definitions in Bash: functions. See grammars/definitions.ts for the conventions.

(function_definition
  name: (word) @name) @definition.function
