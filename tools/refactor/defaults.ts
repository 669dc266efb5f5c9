/**
 * The defaults of `llm-refactor`, stated once: the engine applies them to options left out,
 * and the input schemas show them (flags, `--help`, MCP, JSON Schema).
 *
 * @module
 */

/** Default options of the refactor engine. */
export const REFACTOR_DEFAULTS = {
  /** Syntax gate, then the compiler gate when the run may start it. */
  gates: "all",
  /** Bring the whole symbol index up to date before resolving. */
  refresh: "all",
} as const;
