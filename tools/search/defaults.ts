/**
 * The defaults of `llm-search`, stated once: the engine applies them to options left out, and
 * the tool's input schema shows them (flags, `--help`, MCP, JSON Schema).
 *
 * @module
 */

/** Default options of the search engine. */
export const SEARCH_DEFAULTS = {
  /** Results listed before the run is cut (`partial`). */
  limit: 200,
  /** Longest line text, in bytes, before it is cut to a window around the match. */
  maxColumns: 500,
  /** Context lines of `with_context`. */
  contextLines: 3,
} as const;
