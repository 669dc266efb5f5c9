/**
 * A mutation's refusal by the validation gates as its envelope's `error` (contract §7): the
 * tool's refusal diagnostic with `kind` (the gate that failed), `hint` and the gate's errors.
 * Free of the gates themselves (no grammar loader): `llm-transform`, which gates only when
 * `--validate` asks, loads it at start-up.
 *
 * @module
 */
import type { Diagnostic, GateFailureKind, GateRefusal } from "../../schema/diagnostic.ts";

/** The `tool` of the syntax gate's diagnostics. */
export const SYNTAX_TOOL = "tree-sitter";

/**
 * The gate that refused a file, from the errors that refused it: the syntax gate when it found
 * any (it runs first, and a compiler that accepts the file overrules it, so its errors stand
 * only when the compiler failed too or did not run), else the compiler.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gateFailureKind } from "./refusal.ts";
 * assert.equal(
 *   gateFailureKind([{ tool: "gcc", level: "error", message: "x", code: "LFW-V-101" }]),
 *   "CompilerGateFailed",
 * );
 * ```
 */
export function gateFailureKind(errors: readonly Diagnostic[]): GateFailureKind {
  return errors.some((d) => d.tool === SYNTAX_TOOL) ? "SyntaxGateFailed" : "CompilerGateFailed";
}

/**
 * The envelope `error` of a refusal: `refusal` (the tool's diagnostic, e.g. `LFW-V-001`) with
 * the gate that failed, its remediation as `hint` (else the first gate error's) and `errors`,
 * the gates' errors that refused the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gateRefusal } from "./refusal.ts";
 * import { makeDiagnostic } from "../../schema/diagnostic.ts";
 * const refusal = makeDiagnostic("llm-write", "LFW-V-001", "a.c fails validation");
 * const missing = makeDiagnostic("tree-sitter", "LFW-AST-101", "missing ;", { file: "a.c" });
 * assert.equal(gateRefusal(refusal, [missing]).kind, "SyntaxGateFailed");
 * ```
 */
export function gateRefusal(refusal: Diagnostic, errors: readonly Diagnostic[]): GateRefusal {
  const { remediation, ...head } = refusal;
  const hint = remediation ?? errors.find((d) => d.remediation !== undefined)?.remediation;
  return {
    kind: gateFailureKind(errors),
    ...head,
    ...(hint !== undefined ? { hint } : {}),
    diagnostics: [...errors],
  };
}
