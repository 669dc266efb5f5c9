/**
 * The defaults of `llm-context`, stated once: the engine applies them to options left out, and
 * the tool's input schema shows them.
 *
 * @module
 */

/** Default options of the context engine. */
export const CONTEXT_DEFAULTS = {
  /** Tokens the blocks may take (a token is ceil(chars / 4) of their text). */
  budget: 8000,
} as const;
