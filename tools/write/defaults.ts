/**
 * The defaults of `llm-write`, stated once: the engine applies them to options left out, and
 * the tool's input schema shows them (flags, `--help`, MCP, JSON Schema).
 *
 * @module
 */

/** Default options of the write engine. */
export const WRITE_DEFAULTS = {
  /** Run the gates and write nothing. */
  validate_only: false,
  /** Replace existing files (each with its expected checksum). */
  overwrite: false,
} as const;
