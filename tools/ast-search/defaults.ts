/**
 * The defaults of `llm-ast-search`, stated once: the engine applies them to options left out,
 * and the tool's input schema shows them (flags, `--help`, MCP, JSON Schema). The per-file parse
 * limits are `DEFAULT_PARSE_LIMITS` (file_search.ts).
 *
 * @module
 */

/** Default options of the AST search engine. */
export const AST_SEARCH_DEFAULTS = {
  /** Matches listed before the run is cut (`partial`). */
  limit: 200,
  /** Longest match, capture or context text, in bytes. */
  maxColumns: 500,
  /** Context lines of `with_context`. */
  contextLines: 3,
} as const;
