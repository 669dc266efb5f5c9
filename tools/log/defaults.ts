/**
 * The defaults of `llm-log`, stated once: the tool's input schema shows them (flags, `--help`,
 * JSON Schema).
 *
 * @module
 */

/** Default options of `llm-log list`. */
export const LOG_DEFAULTS = {
  /** Runs listed, newest first (`0` lists all). */
  limit: 20,
} as const;
