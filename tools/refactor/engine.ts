/**
 * The engine of `llm-refactor`: symbol-level rename, patch, delete, insert and plans of them,
 * guarded end to end. The symbol index is brought up to date first; every step is applied to
 * the code in memory (a plan's steps each see what the steps before left); every changed file
 * then goes through the validation gates; and only then are all files written in one
 * journaled transaction (`core/transaction/`), so a failure anywhere leaves every file
 * byte-identical. A preview (`dry_run`) writes nothing and exits 1 when there are changes.
 * Undo restores the exact bytes an operation replaced, refusing when the files changed since.
 *
 * @module
 */
import {
  type Diagnostic,
  type MutationError,
  refusalDiagnostic,
  ToolError,
} from "../../schema/diagnostic.ts";
import type { MutationStatus } from "../../schema/envelope.ts";
import { EXIT } from "../../schema/error_codes.ts";
import type {
  RefactorEdit,
  RefactorOperation,
  RefactorOutput,
  RefactorResult,
} from "../../schema/refactor.ts";
import { LLM_REFACTOR } from "../../schema/tool_names.ts";
import type { RunCache } from "../../core/cache.ts";
import {
  checksumOf,
  checksumOfAsync,
  commitChanges,
  compareText,
  failureReport,
  type FileChange,
  type JournalRun,
  type JournalWording,
  recoverReport,
  transactionCodes,
  undoReport,
  Workspace,
} from "../../core/transaction/mod.ts";
import { changesDiff } from "../../core/transaction/diff.ts";
import { IndexStore, locateDb } from "../../core/symbol_index/store.ts";
import { refreshIndex, reindexFiles } from "../../core/symbol_index/indexer.ts";
import { gateChanges } from "./gate.ts";
import { runStep, type Step, type StepOutcome } from "./ops.ts";
import { proveRename } from "./proof.ts";
import { recordOf } from "./target.ts";
import { FactView } from "./view.ts";

/** The words of `llm-refactor undo` and `recover`. */
export const REFACTOR_WORDING: JournalWording = {
  undo: {
    done: "undid {id}: {count} file(s) restored to their exact prior bytes",
    preview: "undo of {id} would restore {count} file(s); nothing was written (dry run)",
    none: "no refactor of this root is left to undo",
  },
  recover: {
    done: "{count} interrupted operation(s) recovered",
    preview: "{count} interrupted operation(s) found",
    previewPending: false,
  },
};

/** What to do. */
export type RefactorRequest =
  | { kind: "edit"; operation: RefactorOperation; steps: Step[] }
  | { kind: "undo"; id?: string; dryRun: boolean }
  | { kind: "recover"; dryRun: boolean };

/** How to run a refactor. */
export interface RefactorOptions {
  /** Workspace root, relative to `cwd` or absolute. */
  root: string;
  /** Directory the root is relative to. */
  cwd: string;
  /** Execution id of the run (its journal's name). */
  executionId: string;
  /** Preview: build, gate and diff, write nothing. */
  dryRun: boolean;
  /** Which gates: `all` (syntax, then the compiler when `--allow-run` allows it) or `syntax`. */
  gates: "all" | "syntax";
  /** Let a compiler gate run the project's build scripts and proc macros (cargo). */
  allowBuildScripts?: boolean;
  /** Bring the whole index up to date (`all`), or only the files involved. */
  refresh: "all" | "involved";
  /** Give the unified diff on an applied run too. */
  withDiff?: boolean;
  /** Check a rename's proof (the graph before and after) and report it. */
  proof?: boolean;
  /** Expected `sha256:` of files (root-relative path → checksum), checked before anything. */
  expectedChecksums?: Readonly<Record<string, string>>;
  /** Cache of a long-lived host. */
  cache?: RunCache;
  /** Stops the gates. */
  signal?: AbortSignal;
}

/** What a run produced: the parts of the mutation envelope, and the exit code. */
export interface RefactorReport {
  /** The operation (`rename`, …, `undo`, `recover`). */
  operation_type: string;
  /** The execution id used. */
  execution_id: string;
  /** `ok`, or `error` when refused. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** Absolute workspace root. */
  workspace: string;
  /** The result. */
  result?: RefactorOutput;
  /** The error that refused the run: a gate's refusal (contract §7), or another error. */
  error?: MutationError;
  /** Every error, warning and note. */
  diagnostics: Diagnostic[];
  /** Exit code per the contract. */
  exitCode: number;
}

/**
 * Runs one request.
 *
 * @example Preview a rename
 * ```ts
 * import assert from "node:assert/strict";
 * import { refactor } from "./engine.ts";
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.py`, "def f():\n    return 1\n\nprint(f())\n");
 * const report = await refactor(
 *   { kind: "edit", operation: "rename", steps: [{ op: "rename", target: { symbol: "f" }, to: "g" }] },
 *   { root, cwd: root, executionId: crypto.randomUUID(), dryRun: true, gates: "syntax", refresh: "all" },
 * );
 * assert.equal(report.exitCode, 1); // changes pending
 * assert.equal(await Deno.readTextFile(`${root}/a.py`), "def f():\n    return 1\n\nprint(f())\n");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function refactor(
  request: RefactorRequest,
  options: RefactorOptions,
): Promise<RefactorReport> {
  const workspace = await Workspace.open(options.root, options.cwd, "SPL");
  const head = { execution_id: options.executionId, workspace: workspace.given };
  const journalRun = (dryRun: boolean): JournalRun => ({
    workspace,
    tool: LLM_REFACTOR,
    executionId: options.executionId,
    dryRun,
    wording: REFACTOR_WORDING,
    diff: changesDiff,
  });
  try {
    switch (request.kind) {
      case "undo":
        return { ...head, ...await undoReport(journalRun(request.dryRun), request.id) };
      case "recover":
        return { ...head, ...await recoverReport(journalRun(request.dryRun)) };
      case "edit":
        return { ...head, ...await edit(workspace, request, options) };
    }
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const operation = request.kind === "edit" ? request.operation : request.kind;
    return { ...head, ...failureReport(LLM_REFACTOR, operation, head, error) };
  }
}

type ReportBody = Omit<RefactorReport, "execution_id" | "workspace">;

/** The index of the root, brought up to date (all of it, or the files a name involves). */
async function openIndex(workspace: Workspace, options: RefactorOptions): Promise<IndexStore> {
  const store = IndexStore.open(locateDb(workspace.real, undefined, true), "write");
  try {
    // An index whose facts an older extraction wrote is re-extracted first: its spans may not
    // be this version's (a BOM was not counted before facts version 2).
    if (options.refresh === "all" || store.counts().files === 0 || !store.factsCurrent()) {
      await refreshIndex(store, { root: workspace.real, signal: options.signal });
    }
    return store;
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Re-indexes the files the index lists for the names the steps involve (when not all were). */
async function refreshInvolved(view: FactView, steps: Step[]): Promise<void> {
  // A step named by symbol_id involves the files of its definition's name.
  const names = steps.flatMap((step) => [
    ...(step.target.symbol ? [step.target.symbol] : []),
    ...[step.target.symbol_id, step.target.symbol].flatMap((id) =>
      id ? view.store.symbolsWithId(id).map((row) => row.name) : []
    ),
  ]);
  const paths = new Set(names.flatMap((name) => view.filesMentioning(name)));
  const candidates = [];
  const statsFrom = Date.now();
  for (const path of paths) {
    const absPath = view.workspace.resolve(path).path;
    try {
      const info = await Deno.stat(absPath);
      candidates.push({
        absPath,
        path,
        language: view.store.file(path)?.language ?? "",
        size: info.size,
        mtime: info.mtime?.getTime() ?? 0,
      });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  const present = new Set(candidates.map((candidate) => candidate.path));
  const gone = [...paths].filter((path) => !present.has(path));
  await reindexFiles(view.store, candidates, gone, statsFrom);
}

async function edit(
  workspace: Workspace,
  request: Extract<RefactorRequest, { kind: "edit" }>,
  options: RefactorOptions,
): Promise<ReportBody> {
  const store = await openIndex(workspace, options);
  try {
    const view = new FactView(store, workspace, new Map());
    if (options.refresh === "involved") await refreshInvolved(view, request.steps);
    const originals = new Map<string, Uint8Array>();
    const outcomes: StepOutcome[] = [];
    for (const step of request.steps) {
      for (const path of view.filesMentioning(step.target.symbol ?? "")) {
        if (!originals.has(path) && !view.overlay.has(path)) {
          originals.set(path, await view.bytesOf(path));
        }
      }
      const before = new Map(view.overlay);
      const outcome = await runStep(view, step);
      for (const edit of outcome.edits) {
        if (!originals.has(edit.file_path) && !before.has(edit.file_path)) {
          originals.set(edit.file_path, await view.diskBytesOf(edit.file_path));
        }
      }
      outcomes.push(outcome);
    }
    const changes = changesOf(workspace, view, originals);
    // Hashed side by side by Web Crypto; every later checksum of these bytes is the memo's.
    await Promise.all(
      changes.flatMap((change) => [change.before, change.after])
        .flatMap((bytes) => bytes ? [checksumOfAsync(bytes)] : []),
    );
    checkExpected(changes, options.expectedChecksums ?? {});
    // The files written are re-indexed by the next run's refresh (or a live index's watcher).
    return await gateAndCommit(workspace, request, outcomes, changes, view, options);
  } finally {
    store.close();
  }
}

/** The files whose bytes the steps changed, by path. */
function changesOf(
  workspace: Workspace,
  view: FactView,
  originals: Map<string, Uint8Array>,
): FileChange[] {
  const changes: FileChange[] = [];
  for (const [path, after] of view.overlay) {
    const before = originals.get(path)!;
    if (sameBytes(before, after)) continue;
    changes.push({ file_path: path, path: workspace.resolveTarget(path).path, before, after });
  }
  return changes.sort((a, b) => compareText(a.file_path, b.file_path));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Refuses, before the gates, a file whose checksum is not the caller's expected one. */
function checkExpected(changes: FileChange[], expected: Readonly<Record<string, string>>): void {
  for (const change of changes) {
    const want = expected[change.file_path];
    const actual = checksumOf(change.before!);
    if (want !== undefined && want !== actual) {
      throw new ToolError(
        "SPL-V-004",
        `${change.file_path} does not have the expected checksum; nothing was changed`,
        { file: change.file_path, note: `expected ${want}\nactual   ${actual}` },
      );
    }
  }
}

/** A rename's names, to read the new bytes' compiler messages as the old ones' would say them. */
function normalizer(steps: Step[], outcomes: StepOutcome[]): (message: string) => string {
  const pairs = steps.flatMap((step, index) =>
    step.op === "rename" ? [[step.to, outcomes[index].target.name] as const] : []
  );
  return (message) =>
    pairs.reduce(
      (text, [to, from]) => text.replace(new RegExp(`\\b${escape(to)}\\b`, "g"), from),
      message,
    );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function resultOf(
  request: Extract<RefactorRequest, { kind: "edit" }>,
  outcomes: StepOutcome[],
  changes: FileChange[],
  options: RefactorOptions,
): RefactorResult {
  const counts = new Map<string, number>();
  const edits: RefactorEdit[] = outcomes.flatMap((outcome) => outcome.edits);
  for (const e of edits) counts.set(e.file_path, (counts.get(e.file_path) ?? 0) + 1);
  edits.sort((a, b) => compareText(a.file_path, b.file_path) || a.byte_start - b.byte_start);
  const result: RefactorResult = {
    operation: request.operation,
    dry_run: options.dryRun,
    applied: false,
    symbol: recordOf(outcomes[0].target),
    files: changes.map((change) => ({
      file_path: change.file_path,
      edits: counts.get(change.file_path) ?? 0,
      checksum_before: checksumOf(change.before!),
      checksum_after: checksumOf(change.after!),
    })),
    edits,
    left: outcomes.flatMap((outcome) => outcome.left)
      .sort((a, b) => compareText(a.file_path, b.file_path) || a.byte_start - b.byte_start),
    gates: options.gates,
  };
  const first = request.steps[0];
  if (request.operation === "rename" && first.op === "rename") result.new_name = first.to;
  if (request.operation === "plan") result.steps = request.steps.length;
  return result;
}

async function gateAndCommit(
  workspace: Workspace,
  request: Extract<RefactorRequest, { kind: "edit" }>,
  outcomes: StepOutcome[],
  changes: FileChange[],
  view: FactView,
  options: RefactorOptions,
): Promise<ReportBody> {
  const result = resultOf(request, outcomes, changes, options);
  const operation_type = request.operation;
  const findings = await gateChanges(changes, {
    root: workspace.real,
    executionId: options.executionId,
    gates: options.gates,
    allowBuildScripts: options.allowBuildScripts ?? false,
    normalize: normalizer(request.steps, outcomes),
    parseErrorsBefore: (path) => view.parseErrorsOnDisk(path),
    identifiersOnly: request.steps.every((step) => step.op === "rename"),
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (findings.refused.length > 0) {
    const error = findings.refused[0];
    return {
      operation_type,
      status: "error",
      message: error.message,
      result,
      error,
      diagnostics: [...findings.refused.map(refusalDiagnostic), ...findings.diagnostics],
      exitCode: EXIT.refused,
    };
  }
  if (options.proof && request.operation === "rename") {
    result.proof = await proveRename(view, outcomes[0]);
    const broken = result.proof.invariants.filter((invariant) => !invariant.holds);
    if (broken.length > 0) {
      throw new ToolError(
        "SPL-V-008",
        `the rename's proof fails: ${broken.map((b) => `${b.name} (${b.detail})`).join("; ")}; ` +
          "nothing was changed",
      );
    }
  }
  if (options.dryRun || changes.length === 0) {
    if (changes.length > 0) result.diff = changesDiff(changes);
    return {
      operation_type,
      status: "ok",
      message: changes.length === 0
        ? "nothing to change"
        : `${changes.length} file(s) would change (${result.edits.length} edit(s)); nothing ` +
          "was written (dry run)",
      result,
      diagnostics: findings.diagnostics,
      exitCode: changes.length > 0 && options.dryRun ? EXIT.pending : EXIT.ok,
    };
  }
  const report = await commitChanges(changes, {
    root: workspace.real,
    executionId: options.executionId,
    tool: LLM_REFACTOR,
    operationType: operation_type,
    prefix: "SPL",
    codes: transactionCodes("SPL"),
  });
  result.applied = true;
  result.journal = workspace.display(report.journal);
  if (options.withDiff) result.diff = changesDiff(changes);
  return {
    operation_type,
    status: "ok",
    message: `${operation_type}: changed ${changes.length} file(s) (${result.edits.length} ` +
      `edit(s)); undo with \`llm-refactor undo ${options.executionId}\``,
    result,
    diagnostics: findings.diagnostics,
    exitCode: EXIT.ok,
  };
}
