/**
 * What the validation gates (`core/gates/`) answer about one file's candidate bytes: whether
 * they are approved, each gate's outcome and every diagnostic (contract §7).
 *
 * @module
 */
import { z } from "zod";
import type { Diagnostic } from "./diagnostic.ts";
import { DiagnosticSchema } from "./diagnostic_schema.ts";

/** How a gate ended: it passed, it rejected the file, or it could not run (said in a note). */
export type GateStatus = "passed" | "failed" | "skipped";

/** One gate's outcome. */
export interface GateOutcome {
  /** The gate: `syntax` (tree-sitter), or the checker it runs (`gcc`, `node`, `javac`, …). */
  name: string;
  /** How it ended. */
  status: GateStatus;
  /** Why it was skipped, or why its failure was overruled (a compiler accepted the file). */
  reason?: string;
  /** Wall time it took, in milliseconds. */
  duration_ms: number;
  /** The program it ran, resolved on PATH. */
  tool_path?: string;
  /** That program's version line. */
  tool_version?: string;
}

/** The gates' answer for one file. */
export interface GateReport {
  /** The language the file was checked as (registry name), or `unknown`. */
  language: string;
  /**
   * True when no gate failed (a skipped gate neither approves nor rejects; a compiler that ran
   * and accepted the file overrules the syntax gate).
   */
  approved: boolean;
  /** Every gate's diagnostics, ordered by (file, line, column, level, message). */
  diagnostics: Diagnostic[];
  /** Each gate in the order it ran. */
  gates: GateOutcome[];
}

/** zod schema of {@linkcode GateOutcome}. */
export const GateOutcomeSchema: z.ZodType<GateOutcome> = z.object({
  name: z.string(),
  status: z.enum(["passed", "failed", "skipped"]),
  reason: z.string().optional(),
  duration_ms: z.number().nonnegative(),
  tool_path: z.string().optional(),
  tool_version: z.string().optional(),
}).meta({ id: "GateOutcome", title: "GateOutcome" });

/** zod schema of {@linkcode GateReport}. */
export const GateReportSchema: z.ZodType<GateReport> = z.object({
  language: z.string(),
  approved: z.boolean(),
  diagnostics: z.array(DiagnosticSchema),
  gates: z.array(GateOutcomeSchema),
}).meta({ id: "GateReport", title: "GateReport" });

/** What `llm-validate` answers: the gates' verdict on one file's candidate text. */
export interface ValidateData {
  /** Diagnostics the gates gave (they are the envelope's `diagnostics`). */
  count: number;
  /** The file the text was checked for, root-relative. */
  file_path: string;
  /** The language it was checked as, or `unknown`. */
  language: string;
  /** `approved` when no gate failed, else `rejected`. */
  status: "approved" | "rejected";
  /** Each gate's outcome, in the order they ran. */
  gates: GateOutcome[];
}

/** zod schema of {@linkcode ValidateData}. */
export const ValidateDataSchema: z.ZodType<ValidateData> = z.object({
  count: z.number().int().nonnegative(),
  file_path: z.string(),
  language: z.string(),
  status: z.enum(["approved", "rejected"]),
  gates: z.array(GateOutcomeSchema),
}).meta({ id: "ValidateData", title: "ValidateData" });
