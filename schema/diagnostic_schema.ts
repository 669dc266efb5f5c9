/**
 * The zod schema of a {@linkcode Diagnostic}, apart from `diagnostic.ts` so that the engines,
 * which import `ToolError` from there, do not load zod.
 *
 * @module
 */
import { z } from "zod";
import type { Diagnostic } from "./diagnostic.ts";
import { SpanSchema } from "./span.ts";

/** zod schema of {@linkcode Diagnostic}. */
export const DiagnosticSchema: z.ZodType<Diagnostic> = z.object({
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
}).meta({ id: "Diagnostic", title: "Diagnostic" });
