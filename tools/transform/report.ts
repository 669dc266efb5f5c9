/**
 * What every `llm-transform` run reports: the tool's name and the words of its undo and
 * recover reports, the options of a run, its report (the parts of the mutation envelope and the
 * exit code), and the diagnostics every run shares.
 *
 * @module
 */
import { type Diagnostic, makeDiagnostic, type MutationError } from "../../schema/diagnostic.ts";
import type { MutationStatus } from "../../schema/envelope.ts";
import { EXIT, explainCode } from "../../schema/error_codes.ts";
import type { TransformOutput } from "../../schema/transform.ts";
import {
  findInterrupted,
  type JournalWording,
  transactionCodes,
} from "../../core/transaction/mod.ts";
import type { Workspace } from "../../core/transaction/workspace.ts";
import type { RunCache } from "../../core/cache.ts";
import { LLM_TRANSFORM } from "../../schema/tool_names.ts";

/** Name of the tool in envelopes and diagnostics. */
export const TOOL_NAME: typeof LLM_TRANSFORM = LLM_TRANSFORM;

/** The words of `llm-transform`'s `--undo` and `--recover` reports. */
export const TRANSFORM_WORDING: JournalWording = {
  undo: {
    done: "undid {id}: restored {count} file(s); undo this with --undo {execution_id}",
    preview: "dry run: undoing {id} would restore {count} file(s); nothing was written",
  },
  recover: {
    done: "recovered {count} interrupted operation(s): {outcomes}",
    preview: "dry run: would recover {count} interrupted operation(s): {outcomes}",
    none: "no interrupted operation to recover",
    previewPending: true,
  },
};

/** Which gates a transform runs before it writes (`validate.ts` runs them). */
export type ValidationMode = "syntax" | "all" | "none";

/** The validation modes, the default first. */
export const VALIDATION_MODES = [
  "syntax",
  "all",
  "none",
] as const satisfies readonly ValidationMode[];

/** How to run a request. */
export interface TransformOptions {
  /** Workspace root, relative to `cwd` or absolute. */
  root: string;
  /** Directory the root is relative to. */
  cwd: string;
  /** Execution id of the run (a plan's own `execution_id` takes precedence). */
  executionId: string;
  /** Write nothing; report what would change. */
  dryRun: boolean;
  /** Which validation gates run on the new bytes before the write; default `none`. */
  validate?: ValidationMode;
  /** Let a compiler gate run the project's build scripts and proc macros (cargo). */
  allowBuildScripts?: boolean;
  /** Cache of a long-lived host (gate results by content hash). */
  cache?: RunCache;
  /** Stops the gates (and a running compiler). */
  signal?: AbortSignal;
}

/** What a run produced: the parts of the mutation envelope, and the exit code. */
export interface TransformReport {
  /** `edit`, `replace`, `recover` or `undo`. */
  operation_type: string;
  /** The execution id used (the plan's, when it names one). */
  execution_id: string;
  /** Outcome. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** Absolute workspace root. */
  workspace: string;
  /** The result. */
  result?: TransformOutput;
  /** The error that stopped the run: a gate's refusal (contract §7), or another error. */
  error?: MutationError;
  /** Every error, warning and note. */
  diagnostics: Diagnostic[];
  /** Exit code per the contract: 0 done, 1 changes pending (dry run), 2/3/4 refused. */
  exitCode: number;
}

/**
 * A diagnostic of `llm-transform`, remediation from the registry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { transformDiagnostic } from "./report.ts";
 * assert.equal(transformDiagnostic("LMT-V-001", "stale").tool, "llm-transform");
 * ```
 */
export function transformDiagnostic(
  code: string,
  message: string,
  extra: Partial<Diagnostic> = {},
): Diagnostic {
  return makeDiagnostic(TOOL_NAME, code, message, extra);
}

/**
 * The exit code the registry gives `code`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exitOf } from "./report.ts";
 * assert.equal(exitOf("LMT-V-001"), 3);
 * ```
 */
export function exitOf(code: string): number {
  return explainCode(code)?.exit ?? EXIT.internal;
}

/** Warnings about earlier operations that were killed and not yet recovered. */
export async function interruptedWarnings(workspace: Workspace): Promise<Diagnostic[]> {
  return (await findInterrupted(workspace.real, transactionCodes("LMT"))).map((manifest) =>
    transformDiagnostic(
      "LMT-REF-003",
      `operation ${manifest.execution_id} (${manifest.tool} ${manifest.operation_type}, ` +
        `${manifest.created_at}) was interrupted; run --recover`,
      { level: "warning", note: manifest.files.map((file) => file.file_path).join("\n") },
    )
  );
}
