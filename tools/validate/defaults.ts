/**
 * Defaults of `llm-validate`: the engine applies them, the input schema shows them.
 *
 * @module
 */
import { GATE_TIMEOUT_MS } from "../../core/gates/mod.ts";

/** Default values of `llm-validate`'s options. */
export const VALIDATE_DEFAULTS = {
  /** Every gate of the language. */
  gates: "all",
  /** Time limit of each gate, in milliseconds. */
  timeoutMs: GATE_TIMEOUT_MS,
} as const;
