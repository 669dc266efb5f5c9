/**
 * Undo and recover as every writer reports them (`llm-transform --undo`/`--recover`,
 * `llm-write --undo`, `llm-refactor undo`/`recover`): the transaction module does the work, and
 * this turns its findings into one report shape (the parts of the mutation envelope, and the
 * exit code). What differs from tool to tool is data: its words ({@linkcode JournalWording}) and
 * its codes (`codes.ts`, by the workspace's code prefix).
 *
 * @module
 */
import {
  type Diagnostic,
  makeDiagnostic,
  type MutationError,
  type ToolError,
} from "../../schema/diagnostic.ts";
import type { MutationStatus } from "../../schema/envelope.ts";
import { EXIT, explainCode } from "../../schema/error_codes.ts";
import type { RecoverResult, UndoResult } from "../../schema/journal.ts";
import { transactionCodes } from "./codes.ts";
import { journalBase, listJournals } from "./journal.ts";
import { recoverJournals } from "./recover.ts";
import type { FileChange } from "./types.ts";
import { planUndo, undoneFiles, undoOperation } from "./undo.ts";
import type { Workspace } from "./workspace.ts";

/**
 * A tool's words for its undo and recover reports: message templates, each placeholder
 * (`{id}`, `{count}`, `{execution_id}`, `{outcomes}`) filled in by the report.
 */
export interface JournalWording {
  /** An undo's messages. */
  undo: {
    /**
     * An undo done: `{id}` the operation undone, `{count}` its files, `{execution_id}` the
     * undo's own execution id.
     */
    done: string;
    /** A dry run's (a tool whose undo has no dry run has none). */
    preview?: string;
    /** An undo that names no operation, when the tool has none of its own left to undo. */
    none?: string;
  };
  /** A recovery's messages (a tool without a recovery has none). */
  recover?: {
    /** A recovery done: `{count}` operations, `{outcomes}` how many ended each way. */
    done: string;
    /** A dry run's. */
    preview: string;
    /** In place of either when there is no interrupted operation (else they say `0`). */
    none?: string;
    /** Whether a dry run that would act exits 1 (changes pending), as a previewed undo does. */
    previewPending: boolean;
  };
}

/** What an undo or a recovery reports: the parts of the mutation envelope, and the exit code. */
export interface JournalReport<R> {
  /** `undo` or `recover`. */
  operation_type: string;
  /** The execution id of the run. */
  execution_id: string;
  /** `ok`, or `partial` when a recovery left a file alone. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** The workspace root as given. */
  workspace: string;
  /** The result. */
  result: R;
  /** The first error among the diagnostics. */
  error?: MutationError;
  /** Every error, warning and note. */
  diagnostics: Diagnostic[];
  /** Exit code per the contract: 0 done, 1 changes pending (dry run), 3 refused. */
  exitCode: number;
}

/** An undo or recovery to run and report. */
export interface JournalRun {
  /** The workspace; its code prefix chooses the codes. */
  workspace: Workspace;
  /** The tool's name, in journals and diagnostics. */
  tool: string;
  /** The run's own execution id (an undo's journal). */
  executionId: string;
  /** Change nothing; report what would be done. */
  dryRun: boolean;
  /** The tool's words. */
  wording: JournalWording;
  /** Diagnostics the tool found before the run (earlier operations left interrupted). */
  diagnostics?: Diagnostic[];
  /** The diff of a previewed undo's changes (a tool whose undo has no dry run gives none). */
  diff?: (changes: readonly FileChange[]) => string;
}

/** `template` with each `{name}` replaced by `values[name]`. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(
    /\{(\w+)\}/g,
    (whole, name: string) => Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** The newest committed operation of `tool` in the root that is not itself an undo. */
async function latestOperation(run: JournalRun): Promise<string | undefined> {
  const codes = transactionCodes(run.workspace.prefix);
  const journals = await listJournals(run.workspace.real, codes);
  return journals.filter((entry) =>
    entry.manifest?.tool === run.tool && entry.manifest.state === "committed" &&
    entry.manifest.operation_type !== "undo"
  ).at(-1)?.id;
}

/**
 * Undoes operation `id` (`undefined`: the tool's newest one), or with `dryRun` says what the
 * undo would change, with its diff. A refusal (unknown id, already undone, files changed since)
 * is thrown as the tool's `ToolError`.
 *
 * @example Undo an edit
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitChanges } from "./commit.ts";
 * import { transactionCodes } from "./codes.ts";
 * import { undoReport } from "./journal_runs.ts";
 * import { Workspace } from "./workspace.ts";
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.writeTextFileSync(`${root}/a.txt`, "old\n");
 * const [before, after] = [new TextEncoder().encode("old\n"), new TextEncoder().encode("new\n")];
 * const edit = crypto.randomUUID();
 * await commitChanges([{ file_path: "a.txt", path: `${root}/a.txt`, before, after }], {
 *   root, executionId: edit, tool: "llm-transform", operationType: "edit", prefix: "LMT",
 *   codes: transactionCodes("LMT"),
 * });
 * const report = await undoReport({
 *   workspace: await Workspace.open(root, root), tool: "llm-transform",
 *   executionId: crypto.randomUUID(), dryRun: false,
 *   wording: { undo: { done: "undid {id}: {count} file(s)" } },
 * }, edit);
 * assert.equal(report.message, `undid ${edit}: 1 file(s)`);
 * assert.equal(Deno.readTextFileSync(`${root}/a.txt`), "old\n");
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function undoReport(
  run: JournalRun,
  id: string | undefined,
): Promise<JournalReport<UndoResult>> {
  const { workspace, dryRun, wording } = run;
  const codes = transactionCodes(workspace.prefix);
  const head = { operation_type: "undo", execution_id: run.executionId };
  const undoOf = id ?? await latestOperation(run);
  if (undoOf === undefined) {
    return {
      ...head,
      status: "ok",
      message: wording.undo.none ?? "",
      workspace: workspace.given,
      result: { dry_run: dryRun, undone_execution_id: "", count: 0, files: [] },
      diagnostics: run.diagnostics ?? [],
      exitCode: EXIT.ok,
    };
  }
  const { plan, report } = dryRun
    ? { plan: await planUndo(workspace.real, undoOf, codes), report: undefined }
    : await undoOperation({
      root: workspace.real,
      executionId: run.executionId,
      tool: run.tool,
      operationType: "undo",
      prefix: workspace.prefix,
      codes,
      undoOf,
    });
  const result: UndoResult = {
    dry_run: dryRun,
    undone_execution_id: undoOf,
    count: plan.changes.length,
    files: undoneFiles(plan.changes),
  };
  if (dryRun) result.diff = run.diff?.(plan.changes) ?? "";
  if (report) result.journal = workspace.display(report.journal);
  const values = { id: undoOf, count: result.count, execution_id: run.executionId };
  return {
    ...head,
    status: "ok",
    message: fill((dryRun ? wording.undo.preview : undefined) ?? wording.undo.done, values),
    workspace: workspace.given,
    result,
    diagnostics: run.diagnostics ?? [],
    exitCode: dryRun && result.count > 0 ? EXIT.pending : EXIT.ok,
  };
}

/**
 * Recovers the workspace's interrupted operations, or with `dryRun` says what it would do. A
 * tool whose codes register the findings of a recovery (`recoverFindings`) reports each: a file
 * left alone (an error: the run is `partial`), an operation still running elsewhere, a damaged
 * journal skipped.
 *
 * @example Nothing to recover
 * ```ts
 * import assert from "node:assert/strict";
 * import { recoverReport } from "./journal_runs.ts";
 * import { Workspace } from "./workspace.ts";
 * const root = Deno.makeTempDirSync();
 * const report = await recoverReport({
 *   workspace: await Workspace.open(root, root), tool: "llm-transform",
 *   executionId: crypto.randomUUID(), dryRun: true,
 *   wording: {
 *     undo: { done: "undid {id}" },
 *     recover: { done: "recovered {count}", preview: "would recover {count}", previewPending: true },
 *   },
 * });
 * assert.equal(report.message, "would recover 0");
 * assert.equal(report.exitCode, 0);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function recoverReport(run: JournalRun): Promise<JournalReport<RecoverResult>> {
  const { workspace, dryRun } = run;
  const wording = run.wording.recover!;
  const codes = transactionCodes(workspace.prefix);
  const { result, damaged } = await recoverJournals(workspace.real, { dryRun, codes });
  const diagnostics: Diagnostic[] = [...run.diagnostics ?? []];
  const findings = codes.recoverFindings;
  const diagnostic = (code: string, message: string, extra: Partial<Diagnostic>) =>
    diagnostics.push(makeDiagnostic(run.tool, code, message, extra));
  for (const journal of findings ? result.journals : []) {
    for (const file of journal.files) {
      if (file.action !== "conflict") continue;
      diagnostic(
        findings!.conflict,
        `${file.file_path} changed after operation ${journal.execution_id} was interrupted; ` +
          "left as it is",
        {
          file: file.file_path,
          note: `backups: ${
            workspace.display(journalBase(workspace.real))
          }/${journal.execution_id}`,
        },
      );
    }
    if (journal.outcome === "in_progress") {
      diagnostic(
        findings!.interrupted,
        `operation ${journal.execution_id} is still running in another process; not touched`,
        { level: "note" },
      );
    }
  }
  for (const journal of findings ? damaged : []) {
    diagnostic(
      codes.journalUnusable,
      `journal ${journal.execution_id} is damaged and was skipped: ${journal.reason}`,
      { level: "warning", file: workspace.display(journal.dir) },
    );
  }
  const error = diagnostics.find((d) => d.level === "error");
  const acted = result.journals.filter((journal) => journal.outcome !== "in_progress").length;
  return {
    operation_type: "recover",
    execution_id: run.executionId,
    status: error ? "partial" : "ok",
    message: recoverMessage(result, wording),
    workspace: workspace.given,
    result,
    ...(error ? { error } : {}),
    diagnostics,
    exitCode: error
      ? explainCode(error.code)?.exit ?? EXIT.internal
      : dryRun && acted && wording.previewPending
      ? EXIT.pending
      : EXIT.ok,
  };
}

function recoverMessage(
  result: RecoverResult,
  wording: NonNullable<JournalWording["recover"]>,
): string {
  if (result.count === 0 && wording.none !== undefined) return wording.none;
  const counts = new Map<string, number>();
  for (const journal of result.journals) {
    counts.set(journal.outcome, (counts.get(journal.outcome) ?? 0) + 1);
  }
  const outcomes = [...counts].map(([outcome, n]) => `${n} ${outcome.replace("_", " ")}`);
  return fill(result.dry_run ? wording.preview : wording.done, {
    count: result.count,
    outcomes: outcomes.join(", "),
  });
}

/**
 * The report of a run that `error` refused: its diagnostic as the error and the message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolError } from "../../schema/diagnostic.ts";
 * import { failureReport } from "./journal_runs.ts";
 * const error = new ToolError("LFW-REF-001", "no journal for x");
 * const report = failureReport("llm-write", "undo", { execution_id: "e", workspace: "/r" }, error);
 * assert.equal(report.status, "error");
 * assert.equal(report.exitCode, error.exitCode);
 * ```
 */
export function failureReport(
  tool: string,
  operationType: string,
  head: { execution_id: string; workspace: string },
  error: ToolError,
): Omit<JournalReport<never>, "result"> {
  const failure = error.toDiagnostic(tool);
  return {
    operation_type: operationType,
    execution_id: head.execution_id,
    status: "error",
    message: failure.message,
    workspace: head.workspace,
    error: failure,
    diagnostics: [failure],
    exitCode: error.exitCode,
  };
}
