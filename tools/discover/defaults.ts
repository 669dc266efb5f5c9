/**
 * The defaults of `llm-discover`, stated once: the engine applies them to options left out, and
 * the tool's input schema shows them (flags, `--help`, MCP, JSON Schema).
 *
 * @module
 */

/** Default options of the discover engine. */
export const DISCOVER_DEFAULTS = {
  /** Results listed before the run is cut (`partial`). */
  limit: 20,
} as const;
