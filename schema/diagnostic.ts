/**
 * Diagnostics (Splice's payload, extended) and the error type tools throw to produce one. No
 * zod here (its schema is in `diagnostic_schema.ts`): every engine imports this module, and a
 * command line must start without loading zod.
 *
 * @module
 */
import type { Span } from "./span_build.ts";
import { EXIT, explainCode } from "./error_codes.ts";

/** Severity of a diagnostic. */
export type DiagnosticLevel = "error" | "warning" | "note";

/** A structured message about a run: what went wrong or was skipped, where, and what to do. */
export interface Diagnostic {
  /** Tool that produced it, e.g. `llm-search`. */
  tool: string;
  /** Severity. */
  level: DiagnosticLevel;
  /** One-line human message. */
  message: string;
  /** Registry code, e.g. `LMS-QRY-001`. */
  code: string;
  /**
   * The producing tool's own code when it has one (a validation gate's compiler: gcc's
   * `-Wunused-variable`, tsc's `TS2322`, rustc's `E0308`), verbatim; `code` stays the registry's.
   */
  native_code?: string;
  /** The file concerned, root-relative when under the root. */
  file?: string;
  /** The exact region concerned. */
  span?: Span;
  /** 1-based line concerned. */
  line?: number;
  /** 0-based byte column concerned. */
  column?: number;
  /** Further detail: candidates, expected vs. actual, the list of valid values. */
  note?: string;
  /** What to do about it (from the registry unless more specific). */
  remediation?: string;
  /** Path of the tool's entrypoint. */
  tool_path?: string;
  /** Version of the tool. */
  tool_version?: string;
}

/** Which validation gate refused a mutation (contract §7): tree-sitter's, or the compiler's. */
export type GateFailureKind = "SyntaxGateFailed" | "CompilerGateFailed";

/** Every {@linkcode GateFailureKind}, the syntax gate's first (it runs first). */
export const GATE_FAILURE_KINDS = [
  "SyntaxGateFailed",
  "CompilerGateFailed",
] as const satisfies readonly GateFailureKind[];

/**
 * The `error` of a mutation a validation gate refused (contract §7): the refusal's diagnostic
 * (`LFW-V-001`, `LMT-V-013`, `SPL-V-003`: its message, file and first failing line) with the
 * gate's own part. It is still a {@linkcode Diagnostic}, so a reader of §3's `error?: Diagnostic`
 * reads it as before; its remediation is `hint` (said once, so no `remediation`).
 */
export interface GateRefusal extends Diagnostic {
  /** The gate that failed: the syntax gate when it found any of the errors, else the compiler. */
  kind: GateFailureKind;
  /** One-line remediation: the registry's for `code`, else the first gate error's. */
  hint?: string;
  /** The gates' errors that refused the file (those the message counts), in contract order. */
  diagnostics: Diagnostic[];
}

/** A {@linkcode GateRefusal} in compact form: its gate errors are the envelope's diagnostics. */
export type CompactGateRefusal = Omit<GateRefusal, "diagnostics">;

/** The `error` of a mutation envelope: a gate's refusal, or the diagnostic of any other error. */
export type MutationError = Diagnostic | GateRefusal;

/**
 * Whether a mutation's error is a gate's refusal (it has a `kind`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isGateRefusal, makeDiagnostic } from "@llm/search/schema";
 * assert.equal(isGateRefusal(makeDiagnostic("llm-write", "LFW-V-004", "stale checksum")), false);
 * ```
 */
export function isGateRefusal(error: MutationError): error is GateRefusal {
  return "kind" in error;
}

/**
 * A gate's refusal as a plain diagnostic, as the envelope's `diagnostics` list it beside the gate
 * errors it does not repeat: its `hint` back as `remediation`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refusalDiagnostic } from "@llm/search/schema";
 * const diagnostic = refusalDiagnostic({
 *   kind: "SyntaxGateFailed", tool: "llm-write", level: "error", code: "LFW-V-001",
 *   message: "a.c fails validation", hint: "Fix it.", diagnostics: [],
 * });
 * assert.equal(diagnostic.remediation, "Fix it.");
 * ```
 */
export function refusalDiagnostic(error: GateRefusal): Diagnostic {
  const { kind: _kind, hint, diagnostics: _diagnostics, ...head } = error;
  return hint !== undefined ? { ...head, remediation: hint } : head;
}

/** The optional parts of a diagnostic a caller can set. */
export type DiagnosticDetails = Partial<Omit<Diagnostic, "tool" | "message" | "code">>;

/**
 * A failure with a registry code. Engines throw it; the CLI and MCP adapters turn it into an
 * error diagnostic and the code's exit status. The error that led to it goes in `cause`
 * (standard `ErrorOptions`), so `--debug` can show the whole chain.
 *
 * @example Throw a coded error
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolError } from "@llm/search/schema";
 * const error = new ToolError("LMS-IO-001", "path not found: src/", { file: "src/" });
 * assert.equal(error.exitCode, 2);
 * ```
 *
 * @example Keep the error that caused it
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolError } from "@llm/search/schema";
 * function readNotes(path: string): string {
 *   try {
 *     return Deno.readTextFileSync(path);
 *   } catch (error) {
 *     throw new ToolError("LMS-IO-002", `cannot read ${path}`, { file: path }, { cause: error });
 *   }
 * }
 * assert.throws(
 *   () => readNotes("/no/such/notes.txt"),
 *   (error) => error instanceof ToolError && error.cause instanceof Deno.errors.NotFound,
 * );
 * ```
 */
export class ToolError extends Error {
  /** Registry code. */
  readonly code: string;
  /** Extra diagnostic fields. */
  readonly details: DiagnosticDetails;

  /**
   * Builds the error; `code` must be in the registry, `options.cause` is the error that led to
   * it.
   */
  constructor(
    code: string,
    message: string,
    details: DiagnosticDetails = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ToolError";
    this.code = code;
    this.details = details;
  }

  /** The exit code the registry gives this error's code. */
  get exitCode(): number {
    return explainCode(this.code)?.exit ?? EXIT.internal;
  }

  /** The error as an error-level diagnostic of `tool`. */
  toDiagnostic(tool: string): Diagnostic {
    return makeDiagnostic(tool, this.code, this.message, { level: "error", ...this.details });
  }
}

/**
 * Builds a diagnostic, filling `remediation` from the registry when not given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainCode, makeDiagnostic } from "@llm/search/schema";
 * const diagnostic = makeDiagnostic("llm-search", "LMS-IO-002", "cannot read dir/", {
 *   level: "warning",
 * });
 * assert.equal(diagnostic.remediation, explainCode("LMS-IO-002")?.remediation);
 * ```
 */
export function makeDiagnostic(
  tool: string,
  code: string,
  message: string,
  details: DiagnosticDetails = {},
): Diagnostic {
  const { level = "error", remediation = explainCode(code)?.remediation, ...rest } = details;
  const diagnostic: Diagnostic = { tool, level, message, code, ...rest };
  if (remediation !== undefined) diagnostic.remediation = remediation;
  return diagnostic;
}
