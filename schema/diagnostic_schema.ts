/**
 * The zod schema of a {@linkcode Diagnostic}, apart from `diagnostic.ts` so that the engines,
 * which import `ToolError` from there, do not load zod; and of a mutation's `error`, which is a
 * diagnostic or a gate's refusal (a diagnostic with the gate's own diagnostics).
 *
 * @module
 */
import { z } from "zod";
import {
  type CompactGateRefusal,
  type Diagnostic,
  GATE_FAILURE_KINDS,
  type GateRefusal,
  type MutationError,
} from "./diagnostic.ts";
import { SpanSchema } from "./span.ts";

const diagnosticFields = {
  tool: z.string(),
  level: z.enum(["error", "warning", "note"]),
  message: z.string(),
  code: z.string().regex(/^[A-Z]{3}-[A-Z]+-\d{3}$/),
  native_code: z.string().optional(),
  file: z.string().optional(),
  span: SpanSchema.optional(),
  line: z.number().int().positive().optional(),
  column: z.number().int().nonnegative().optional(),
  note: z.string().optional(),
  remediation: z.string().optional(),
  tool_path: z.string().optional(),
  tool_version: z.string().optional(),
};

/** zod schema of {@linkcode Diagnostic}. */
export const DiagnosticSchema: z.ZodType<Diagnostic> = z.object(diagnosticFields)
  .meta({ id: "Diagnostic", title: "Diagnostic" });

const refusalFields = {
  kind: z.enum(GATE_FAILURE_KINDS),
  ...diagnosticFields,
  hint: z.string().optional(),
};

/** zod schema of {@linkcode GateRefusal}. */
export const GateRefusalSchema: z.ZodType<GateRefusal> = z.object({
  ...refusalFields,
  diagnostics: z.array(DiagnosticSchema),
}).meta({ id: "GateRefusal", title: "GateRefusal" });

/** zod schema of {@linkcode CompactGateRefusal}. */
export const CompactGateRefusalSchema: z.ZodType<CompactGateRefusal> = z.object(refusalFields)
  .meta({ id: "CompactGateRefusal", title: "CompactGateRefusal" });

/**
 * zod schema of {@linkcode MutationError}. The refusal comes first: a diagnostic's schema
 * would accept a refusal too, dropping what makes it one.
 */
export const MutationErrorSchema: z.ZodType<MutationError> = z.union([
  GateRefusalSchema,
  DiagnosticSchema,
]);
