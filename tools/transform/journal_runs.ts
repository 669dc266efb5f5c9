/**
 * `--recover` and `--undo` as `llm-transform` runs: the transaction module does the work, this
 * turns its findings into the report (diagnostics, message, exit code).
 *
 * @module
 */
import type { Diagnostic } from "../../schema/diagnostic.ts";
import type { RecoverResult, UndoResult } from "../../schema/journal.ts";
import { requirePermission } from "../../core/permissions.ts";
import {
  journalBase,
  planUndo,
  recoverJournals,
  undoneFiles,
  undoOperation,
} from "../../core/transaction/mod.ts";
import { unifiedDiff } from "./diff.ts";
import {
  exitOf,
  interruptedWarnings,
  TOOL_NAME,
  TRANSACTION_CODES,
  transformDiagnostic,
  type TransformOptions,
  type TransformReport,
} from "./report.ts";
import type { Workspace } from "./workspace.ts";

/** Recovers the workspace's interrupted operations (a dry run says what it would do). */
export async function recover(
  workspace: Workspace,
  options: TransformOptions,
): Promise<TransformReport> {
  if (!options.dryRun) requirePermission("LMT", "write", journalBase(workspace.real));
  const { result, damaged } = await recoverJournals(workspace.real, {
    dryRun: options.dryRun,
    codes: TRANSACTION_CODES,
  });
  const diagnostics: Diagnostic[] = [];
  for (const journal of result.journals) {
    for (const file of journal.files) {
      if (file.action !== "conflict") continue;
      diagnostics.push(transformDiagnostic(
        "LMT-V-012",
        `${file.file_path} changed after operation ${journal.execution_id} was interrupted; ` +
          "left as it is",
        {
          file: file.file_path,
          note: `backups: ${
            workspace.display(journalBase(workspace.real))
          }/${journal.execution_id}`,
        },
      ));
    }
    if (journal.outcome === "in_progress") {
      diagnostics.push(transformDiagnostic(
        "LMT-REF-003",
        `operation ${journal.execution_id} is still running in another process; not touched`,
        { level: "note" },
      ));
    }
  }
  for (const journal of damaged) {
    diagnostics.push(transformDiagnostic(
      "LMT-REF-002",
      `journal ${journal.execution_id} is damaged and was skipped: ${journal.reason}`,
      { level: "warning", file: workspace.display(journal.dir) },
    ));
  }
  const error = diagnostics.find((d) => d.level === "error");
  const acted = result.journals.filter((journal) => journal.outcome !== "in_progress").length;
  return {
    operation_type: "recover",
    execution_id: options.executionId,
    status: error ? "partial" : "ok",
    message: recoverSummary(result),
    workspace: workspace.given,
    result,
    ...(error ? { error } : {}),
    diagnostics,
    exitCode: error ? exitOf(error.code) : options.dryRun && acted ? 1 : 0,
  };
}

function recoverSummary(result: RecoverResult): string {
  if (result.count === 0) return "no interrupted operation to recover";
  const counts = new Map<string, number>();
  for (const journal of result.journals) {
    counts.set(journal.outcome, (counts.get(journal.outcome) ?? 0) + 1);
  }
  const parts = [...counts].map(([outcome, n]) => `${n} ${outcome.replace("_", " ")}`);
  return `${result.dry_run ? "dry run: would recover" : "recovered"} ${result.count} ` +
    `interrupted operation(s): ${parts.join(", ")}`;
}

/** Undoes operation `id` (a dry run diffs what the undo would change). */
export async function undo(
  workspace: Workspace,
  id: string,
  options: TransformOptions,
): Promise<TransformReport> {
  const warnings = await interruptedWarnings(workspace);
  let result: UndoResult;
  if (options.dryRun) {
    const plan = await planUndo(workspace.real, id, TRANSACTION_CODES);
    result = {
      dry_run: true,
      undone_execution_id: id,
      count: plan.changes.length,
      files: undoneFiles(plan.changes),
      diff: plan.changes.map((change) => unifiedDiff(change.file_path, change.before, change.after))
        .join(""),
    };
  } else {
    const { plan, report } = await undoOperation({
      root: workspace.real,
      executionId: options.executionId,
      tool: TOOL_NAME,
      operationType: "undo",
      prefix: "LMT",
      codes: TRANSACTION_CODES,
      undoOf: id,
    });
    result = {
      dry_run: false,
      undone_execution_id: id,
      count: plan.changes.length,
      files: undoneFiles(plan.changes),
      journal: workspace.display(report.journal),
    };
  }
  return {
    operation_type: "undo",
    execution_id: options.executionId,
    status: "ok",
    message: options.dryRun
      ? `dry run: undoing ${id} would restore ${result.count} file(s); nothing was written`
      : `undid ${id}: restored ${result.count} file(s); undo this with --undo ${options.executionId}`,
    workspace: workspace.given,
    result,
    diagnostics: warnings,
    exitCode: options.dryRun && result.count ? 1 : 0,
  };
}
