/**
 * The engine of `llm-transform`: verifies span edits and guarded replacements against the files,
 * applies them all or none through the shared transaction module, or previews them as a diff;
 * `--recover` and `--undo` are the shared reports of `core/transaction/journal_runs.ts`.
 *
 * @module
 */
import { normalizeChecksum, sha256 } from "../../schema/checksum.ts";
import {
  type Diagnostic,
  type GateRefusal,
  refusalDiagnostic,
  ToolError,
} from "../../schema/diagnostic.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan, type Span } from "../../schema/span_build.ts";
import type { EditOutcome, FileOutcome, TransformResult } from "../../schema/transform.ts";
import {
  checksumOf,
  checksumOfAsync,
  commitChanges,
  compareText,
  contentsAt,
  type FileChange,
  journalBase,
  type JournalRun,
  recoverReport,
  transactionCodes,
  undoReport,
  Workspace,
} from "../../core/transaction/mod.ts";
import { requirePermission } from "../../core/permissions.ts";
import {
  exitOf,
  interruptedWarnings,
  TOOL_NAME,
  TRANSFORM_WORDING,
  transformDiagnostic as diagnostic,
  type TransformOptions,
  type TransformReport,
} from "./report.ts";
import { type ChangedRegion, changesDiff, unifiedDiff } from "../../core/transaction/diff.ts";
import { describeOccurrences, findOccurrences, missNote } from "./replace.ts";
import type { PlanRequest, ReplaceRequest, TransformRequest } from "./request.ts";
import { applySpanEdits, type PlacedEdit, type SpanEditResult } from "./spans.ts";
import { gateChanges } from "./validate.ts";

interface Problem {
  code: string;
  message: string;
  note?: string;
}

interface FileState {
  display: string;
  path: string;
  bytes?: Uint8Array;
  checksum?: string;
  problem?: Problem;
  edits: PlannedEdit[];
  applied?: SpanEditResult;
}

interface PlannedEdit {
  index: number;
  file: FileState;
  byte_start: number;
  byte_end: number;
  new_text: string;
  expected_checksum?: string;
}

/**
 * Runs one request against the files of a workspace.
 *
 * @example Replace a word in a file
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildRequest, transform } from "@llm/search/transform";
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.txt`, "hello world\n");
 * const request = await buildRequest(
 *   { file: "a.txt", old: "world", new: "there", all: false, recover: false },
 *   { cwd: root },
 * );
 * const report = await transform(request, {
 *   root, cwd: root, executionId: crypto.randomUUID(), dryRun: false,
 * });
 * assert.equal(report.status, "ok");
 * assert.equal(await Deno.readTextFile(`${root}/a.txt`), "hello there\n");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function transform(
  request: TransformRequest,
  options: TransformOptions,
): Promise<TransformReport> {
  const workspace = await Workspace.open(options.root, options.cwd);
  switch (request.kind) {
    case "recover":
      if (!options.dryRun) requirePermission("LMT", "write", journalBase(workspace.real));
      return await recoverReport(journalRun(workspace, options));
    case "undo": {
      const diagnostics = await interruptedWarnings(workspace);
      return await undoReport({ ...journalRun(workspace, options), diagnostics }, request.id);
    }
    case "replace":
      return await replace(workspace, request, options);
    default:
      return await editPlan(workspace, request, options);
  }
}

/** An undo or recovery as `llm-transform` runs it. */
function journalRun(workspace: Workspace, options: TransformOptions): JournalRun {
  return {
    workspace,
    tool: TOOL_NAME,
    executionId: options.executionId,
    dryRun: options.dryRun,
    wording: TRANSFORM_WORDING,
    diff: changesDiff,
  };
}

/** Reads a file of the plan, recording why it cannot be edited. */
async function load(file: FileState): Promise<void> {
  const now = await contentsAt(file.path);
  if (!now) {
    file.problem = { code: "LMT-IO-012", message: `${file.display} is not a regular file` };
  } else if (!now.bytes) {
    file.problem = { code: "LMT-IO-010", message: `${file.display} does not exist` };
  } else {
    file.bytes = now.bytes;
    file.checksum = now.checksum!;
  }
}

/** The files a plan names, keyed by real path, each loaded. */
class FileSet {
  readonly #files = new Map<string, FileState>();
  readonly #workspace: Workspace;

  constructor(workspace: Workspace) {
    this.#workspace = workspace;
  }

  get(path: string): FileState {
    const resolved = this.#workspace.resolveTarget(path);
    let file = this.#files.get(resolved.path);
    if (!file) {
      file = { display: resolved.display, path: resolved.path, edits: [] };
      this.#files.set(resolved.path, file);
    }
    return file;
  }

  async loadAll(): Promise<void> {
    for (const file of this.#files.values()) await load(file);
  }

  sorted(): FileState[] {
    return [...this.#files.values()].sort((a, b) => compareText(a.display, b.display));
  }
}

async function editPlan(
  workspace: Workspace,
  request: PlanRequest,
  options: TransformOptions,
): Promise<TransformReport> {
  const executionId = request.plan.execution_id ?? options.executionId;
  const files = new FileSet(workspace);
  const edits = request.plan.edits.map((edit, index): PlannedEdit => {
    const file = files.get(edit.file_path);
    const planned: PlannedEdit = {
      index,
      file,
      byte_start: edit.byte_start,
      byte_end: edit.byte_end,
      new_text: edit.new_text,
    };
    if (edit.expected_checksum !== undefined) planned.expected_checksum = edit.expected_checksum;
    file.edits.push(planned);
    return planned;
  });
  const expected = Object.entries(request.plan.file_checksums ?? {}).map(([path, checksum]) => ({
    file: files.get(path),
    checksum: normalizeChecksum(checksum) ?? checksum,
  }));
  await files.loadAll();
  for (const { file, checksum } of expected) {
    if (file.problem || file.checksum === checksum) continue;
    file.problem = {
      code: "LMT-V-001",
      message: `${file.display} does not have the checksum the plan expects`,
      note: `expected ${checksum}\nactual   ${file.checksum}`,
    };
  }
  if (request.kind === "span" && request.expect) checkShortFormExpect(edits[0], request.expect);
  return await finish(workspace, files.sorted(), edits, "edit", options, executionId);
}

/** `--expect` of the span short form: the whole file's checksum, or the span's. */
function checkShortFormExpect(edit: PlannedEdit, expect: string): void {
  const file = edit.file;
  if (!file.bytes || file.checksum === expect) return;
  const length = file.bytes.length;
  const spanFits = edit.byte_start <= edit.byte_end && edit.byte_end <= length;
  const spanChecksum = spanFits
    ? sha256(file.bytes.subarray(edit.byte_start, edit.byte_end))
    : undefined;
  if (spanChecksum === expect) return;
  file.problem = {
    code: "LMT-V-001",
    message: `${file.display} does not have the checksum --expect gives (nor does the span)`,
    note: `expected ${expect}\nfile     ${file.checksum}` +
      (spanChecksum ? `\nspan     ${spanChecksum}` : ""),
  };
}

async function replace(
  workspace: Workspace,
  request: ReplaceRequest,
  options: TransformOptions,
): Promise<TransformReport> {
  const files = new FileSet(workspace);
  const file = files.get(request.file);
  await files.loadAll();
  if (!file.problem && request.expect && file.checksum !== request.expect) {
    file.problem = {
      code: "LMT-V-001",
      message: `${file.display} does not have the checksum --expect gives`,
      note: `expected ${request.expect}\nactual   ${file.checksum}`,
    };
  }
  if (file.problem || !file.bytes) {
    return await finish(workspace, [file], [], "replace", options, options.executionId);
  }
  const needle = new TextEncoder().encode(request.old);
  const starts = findOccurrences(file.bytes, needle);
  const wanted = request.count;
  if (starts.length === 0 || (wanted !== undefined && starts.length !== wanted)) {
    return await countMismatch(workspace, file, starts, needle.length, request, options);
  }
  const edits = starts.map((start, index): PlannedEdit => ({
    index,
    file,
    byte_start: start,
    byte_end: start + needle.length,
    new_text: request.new,
  }));
  file.edits.push(...edits);
  return await finish(workspace, [file], edits, "replace", options, options.executionId);
}

/** The failure of a replacement whose text occurs a number of times other than allowed. */
async function countMismatch(
  workspace: Workspace,
  file: FileState,
  starts: number[],
  length: number,
  request: ReplaceRequest,
  options: TransformOptions,
): Promise<TransformReport> {
  const bytes = file.bytes!;
  const index = new LineIndex(bytes);
  const candidates = starts.map((start) => makeSpan(file.display, index, start, start + length));
  let error: Diagnostic;
  if (starts.length === 0) {
    const miss = missNote(bytes, request.old);
    error = diagnostic("LMT-V-007", `the text to replace does not occur in ${file.display}`, {
      file: file.display,
      note: miss.note,
      ...(miss.line ? { line: miss.line } : {}),
    });
  } else {
    const wanted = request.count ?? 1;
    const code = starts.length > wanted ? "LMT-V-008" : "LMT-V-011";
    error = diagnostic(
      code,
      `the text to replace occurs ${starts.length} times in ${file.display}, ` +
        `${starts.length > wanted ? "more" : "fewer"} than the ${wanted} allowed`,
      {
        file: file.display,
        span: candidates[0],
        note: describeOccurrences(index, starts, length),
        ...(code === "LMT-V-008"
          ? {
            remediation: "Add surrounding lines to --old to make it unique, or pass " +
              `--count ${starts.length} or --all.`,
          }
          : {}),
      },
    );
  }
  const result: TransformResult = {
    dry_run: options.dryRun,
    applied_count: 0,
    pending_count: 0,
    skipped_count: 0,
    error_count: 1,
    files: [{
      file_path: file.display,
      status: "error",
      edit_count: 0,
      file_checksum_before: file.checksum,
      total_byte_shift: 0,
    }],
    edits: [],
    candidates,
  };
  const warnings = await interruptedWarnings(workspace);
  return {
    operation_type: "replace",
    execution_id: options.executionId,
    status: "error",
    message: `${error.message}; nothing was changed`,
    workspace: workspace.given,
    result,
    error,
    diagnostics: [error, ...warnings],
    exitCode: exitOf(error.code),
  };
}

/** Spans of an edit in the old file, when its offsets are valid there. */
function oldSpanOf(edit: PlannedEdit, index: LineIndex | undefined): Span | undefined {
  if (!index) return undefined;
  try {
    return makeSpan(edit.file.display, index, edit.byte_start, edit.byte_end);
  } catch {
    // Offsets outside the file or inside a character have no span; the edit's problem says why.
    return undefined;
  }
}

/** What applying the edits in memory gave: the problems found, and each file's old lines. */
interface InMemory {
  /** The errors of unreadable files and of edits that do not apply. */
  diagnostics: Diagnostic[];
  /** The line index of each file read. */
  oldIndexes: Map<FileState, LineIndex>;
  /** The problem of each edit that does not apply. */
  editProblems: Map<PlannedEdit, Problem>;
}

/** Applies each readable file's edits in memory (into `file.applied`), gathering the problems. */
function applyInMemory(files: FileState[]): InMemory {
  const applied: InMemory = { diagnostics: [], oldIndexes: new Map(), editProblems: new Map() };
  for (const file of files) {
    if (file.bytes) applied.oldIndexes.set(file, new LineIndex(file.bytes));
    if (file.problem) {
      applied.diagnostics.push(diagnostic(file.problem.code, file.problem.message, {
        file: file.display,
        ...(file.problem.note ? { note: file.problem.note } : {}),
      }));
      continue;
    }
    file.applied = applySpanEdits(file.bytes!, file.edits);
    const byIndex = new Map(file.edits.map((edit) => [edit.index, edit]));
    for (const problem of file.applied.problems) {
      const edit = byIndex.get(problem.index)!;
      applied.editProblems.set(edit, problem);
      const span = oldSpanOf(edit, applied.oldIndexes.get(file));
      applied.diagnostics.push(diagnostic(problem.code, `edit ${edit.index}: ${problem.message}`, {
        file: file.display,
        ...(span ? { span } : {}),
        ...(problem.note ? { note: problem.note } : {}),
      }));
    }
  }
  return applied;
}

/** The bytes each file would hold once edited, and the changes of the files that differ. */
async function changesOf(files: FileState[]): Promise<{
  changes: FileChange[];
  newBytes: Map<FileState, Uint8Array>;
}> {
  const changes: FileChange[] = [];
  const newBytes = new Map<FileState, Uint8Array>();
  for (const file of files) {
    const after = file.applied!.bytes;
    newBytes.set(file, after);
    // Equal checksums mean equal bytes (the contract's premise); both are needed anyway.
    if (await checksumOfAsync(after) !== file.checksum) {
      changes.push({ file_path: file.display, path: file.path, before: file.bytes!, after });
    }
  }
  return { changes, newBytes };
}

/** What writing (or previewing) the changes gave. */
interface Written {
  /** The journal of the commit, as a workspace path. */
  journal?: string;
  /** The unified diff of a dry run. */
  diff?: string;
  /** Why the commit was refused (nothing was changed). */
  failure?: Diagnostic;
}

/** Writes the changes all or none through the transaction, or diffs them for a dry run. */
async function writeOrPreview(
  workspace: Workspace,
  files: FileState[],
  changes: FileChange[],
  operationType: "edit" | "replace",
  options: TransformOptions,
  executionId: string,
): Promise<Written> {
  if (options.dryRun) {
    const changedPaths = new Set(changes.map((change) => change.path));
    const diff = files.filter((file) => changedPaths.has(file.path)).map((file) =>
      unifiedDiff(file.display, file.bytes!, file.applied!.bytes, regionsOf(file.applied!))
    ).join("");
    return { diff };
  }
  try {
    const report = await commitChanges(changes, {
      root: workspace.real,
      executionId,
      tool: TOOL_NAME,
      operationType,
      prefix: "LMT",
      codes: transactionCodes("LMT"),
    });
    return { journal: workspace.display(report.journal) };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { failure: error.toDiagnostic(TOOL_NAME) };
  }
}

/** Where each applied edit landed in its file's new bytes. */
function placedEditsOf(files: FileState[]): Map<PlannedEdit, PlacedEdit> {
  const placedEdits = new Map<PlannedEdit, PlacedEdit>();
  for (const file of files) {
    const byIndex = new Map(file.edits.map((edit) => [edit.index, edit]));
    for (const placed of file.applied!.placed) {
      placedEdits.set(byIndex.get(placed.index)!, placed);
    }
  }
  return placedEdits;
}

/** How a run ended, as each file's outcome needs it. */
interface RunEnd {
  failure: Diagnostic | undefined;
  dryRun: boolean;
  editProblems: Map<PlannedEdit, Problem>;
  changedPaths: Set<string>;
  newBytes: Map<FileState, Uint8Array>;
}

/** A file's outcome: its status, its checksums before and after, and how far its bytes moved. */
function fileOutcomeOf(file: FileState, end: RunEnd): FileOutcome {
  const { failure } = end;
  const outcome: FileOutcome = {
    file_path: file.display,
    status: file.problem || file.edits.some((edit) => end.editProblems.has(edit))
      ? "error"
      : failure
      ? "skipped"
      : !end.changedPaths.has(file.path)
      ? "unchanged"
      : end.dryRun
      ? "pending"
      : "changed",
    edit_count: file.edits.length,
    total_byte_shift: 0,
  };
  if (file.checksum) outcome.file_checksum_before = file.checksum;
  const after = end.newBytes.get(file);
  if (after && !failure) {
    outcome.final_checksum = checksumOf(after);
    outcome.total_byte_shift = after.length - file.bytes!.length;
  }
  return outcome;
}

/** The result: the counts of the edits by status, and every file's and edit's outcome. */
function resultOf(
  fileOutcomes: FileOutcome[],
  editOutcomes: EditOutcome[],
  end: RunEnd,
  written: Written,
): TransformResult {
  const count = (status: EditOutcome["status"]) =>
    editOutcomes.filter((edit) => edit.status === status).length;
  const result: TransformResult = {
    dry_run: end.dryRun,
    applied_count: count("applied"),
    pending_count: count("pending"),
    skipped_count: count("skipped") + count("unchanged"),
    error_count: count("error") + (end.failure && editOutcomes.length === 0 ? 1 : 0),
    files: fileOutcomes,
    edits: editOutcomes,
  };
  if (written.diff !== undefined) result.diff = written.diff;
  if (written.journal !== undefined) result.journal = written.journal;
  return result;
}

/**
 * Validates and applies every file's edits, then writes them (or, for a dry run, diffs them),
 * and builds the report. `files` must be sorted by display path.
 */
async function finish(
  workspace: Workspace,
  files: FileState[],
  edits: PlannedEdit[],
  operationType: "edit" | "replace",
  options: TransformOptions,
  executionId: string,
): Promise<TransformReport> {
  const { diagnostics, oldIndexes, editProblems } = applyInMemory(files);
  let failure: Diagnostic | undefined = diagnostics[0];
  let { changes, newBytes } = failure
    ? { changes: [], newBytes: new Map<FileState, Uint8Array>() }
    : await changesOf(files);
  if (!failure && changes.length) {
    failure = await refuseInvalid(workspace, files, changes, options, diagnostics);
    if (failure) ({ changes, newBytes } = { changes: [], newBytes: new Map() });
  }
  const written: Written = !failure && changes.length
    ? await writeOrPreview(workspace, files, changes, operationType, options, executionId)
    : {};
  if (written.failure) {
    failure = written.failure;
    diagnostics.push(failure);
  }
  const state = failure ? "failed" : options.dryRun ? "dry" : "written";
  const newIndexes = new Map<FileState, LineIndex>();
  const placedEdits = failure ? new Map<PlannedEdit, PlacedEdit>() : placedEditsOf(files);
  if (!failure) {
    for (const [file, bytes] of newBytes) {
      newIndexes.set(file, new LineIndex(bytes));
    }
  }
  const editOutcomes = edits.map((edit) =>
    editOutcome(edit, oldIndexes, newIndexes, placedEdits, editProblems, failure, state)
  ).sort((a, b) =>
    compareText(a.file_path, b.file_path) || a.byte_start - b.byte_start || a.index - b.index
  );
  const end: RunEnd = {
    failure,
    dryRun: options.dryRun,
    editProblems,
    changedPaths: new Set(changes.map((change) => change.path)),
    newBytes,
  };
  const result = resultOf(
    files.map((file) => fileOutcomeOf(file, end)),
    editOutcomes,
    end,
    written,
  );
  diagnostics.push(...await interruptedWarnings(workspace));
  const report: TransformReport = {
    operation_type: operationType,
    execution_id: executionId,
    status: failure ? "error" : "ok",
    message: summary(result, changes.length, failure, diagnostics, executionId),
    workspace: workspace.given,
    result,
    diagnostics,
    exitCode: failure ? exitOf(failure.code) : options.dryRun && changes.length ? 1 : 0,
  };
  if (failure) report.error = failure;
  return report;
}

/**
 * Runs the validation gates on the changed files' new bytes: each refused file gets the
 * refusal as its problem (its edits report it), the refusals (without their gate errors) and
 * the gates' diagnostics join `diagnostics`, and the first refusal is returned, the run's error
 * (nothing is then written).
 */
async function refuseInvalid(
  workspace: Workspace,
  files: FileState[],
  changes: FileChange[],
  options: TransformOptions,
  diagnostics: Diagnostic[],
): Promise<GateRefusal | undefined> {
  const findings = await gateChanges(changes, {
    root: workspace.real,
    mode: options.validate ?? "none",
    allowBuildScripts: options.allowBuildScripts ?? false,
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const refusals = [...findings.refused.values()];
  diagnostics.push(...refusals.map(refusalDiagnostic), ...findings.diagnostics);
  for (const file of files) {
    const refusal = findings.refused.get(file.path);
    if (refusal) file.problem = { code: refusal.code, message: refusal.message };
  }
  return refusals[0];
}

/** The changed byte ranges of a file's applied edits, for a windowed diff. */
function regionsOf(applied: SpanEditResult): ChangedRegion[] {
  return applied.placed.map((placed) => ({
    old_start: placed.byte_start,
    old_end: placed.byte_end,
    new_start: placed.new_start,
    new_end: placed.new_end,
  }));
}

function editOutcome(
  edit: PlannedEdit,
  oldIndexes: Map<FileState, LineIndex>,
  newIndexes: Map<FileState, LineIndex>,
  placedEdits: Map<PlannedEdit, PlacedEdit>,
  editProblems: Map<PlannedEdit, Problem>,
  failure: Diagnostic | undefined,
  state: "failed" | "dry" | "written",
): EditOutcome {
  const file = edit.file;
  const outcome: EditOutcome = {
    index: edit.index,
    file_path: file.display,
    status: "error",
    byte_start: edit.byte_start,
    byte_end: edit.byte_end,
  };
  const oldSpan = oldSpanOf(edit, oldIndexes.get(file));
  const placed = placedEdits.get(edit);
  if (oldSpan) {
    outcome.old_span = oldSpan;
    outcome.checksum_before = placed?.checksum_before ??
      sha256(file.bytes!.subarray(edit.byte_start, edit.byte_end));
  }
  outcome.checksum_after = placed?.checksum_after ?? sha256(edit.new_text);
  const problem = file.problem ?? editProblems.get(edit);
  if (problem) return { ...outcome, code: problem.code, message: problem.message };
  if (state === "failed") {
    return {
      ...outcome,
      status: "skipped",
      code: failure!.code,
      message: `not applied: ${failure!.message}`,
    };
  }
  const newIndex = newIndexes.get(file)!;
  outcome.new_span = makeSpan(file.display, newIndex, placed!.new_start, placed!.new_end);
  outcome.status = placed!.unchanged ? "unchanged" : state === "dry" ? "pending" : "applied";
  return outcome;
}

function summary(
  result: TransformResult,
  changedFiles: number,
  failure: Diagnostic | undefined,
  diagnostics: Diagnostic[],
  executionId: string,
): string {
  if (failure) {
    const errors = diagnostics.filter((d) => d.level === "error").length;
    return `${failure.message}${errors > 1 ? ` (and ${errors - 1} more errors)` : ""}; ` +
      "nothing was changed";
  }
  const unchanged = result.skipped_count;
  const tail = unchanged ? `; ${unchanged} edit(s) already in place` : "";
  if (changedFiles === 0) return "nothing to change: the files already hold the new text";
  if (result.dry_run) {
    return `dry run: ${result.pending_count} edit(s) pending in ${changedFiles} file(s)${tail}; ` +
      "nothing was written";
  }
  return `applied ${result.applied_count} edit(s) to ${changedFiles} file(s)${tail}; ` +
    `undo with --undo ${executionId}`;
}
