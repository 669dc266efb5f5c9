/**
 * The engine of `llm-write`: checks every file of a run (inside the root, not there yet or
 * overwritten with its checksum), runs the validation gates on each new content, and writes
 * them all or none through the shared transaction module, journaled so that an undo (its own
 * or `llm-transform --undo`) removes the files created and restores those overwritten.
 *
 * @module
 */
import {
  type Diagnostic,
  type GateRefusal,
  makeDiagnostic,
  type MutationError,
  ToolError,
} from "../../schema/diagnostic.ts";
import type { MutationStatus } from "../../schema/envelope.ts";
import { EXIT, explainCode } from "../../schema/error_codes.ts";
import { LLM_WRITE } from "../../schema/tool_names.ts";
import type {
  WriteFile,
  WriteOutput,
  WritePlan,
  WriteResult,
  WrittenFile,
} from "../../schema/write.ts";
import { isPermissionRefusal } from "../../core/permissions.ts";
import {
  checksumOf,
  commitChanges,
  compareText,
  contentsAt,
  failureReport,
  type FileChange,
  type JournalWording,
  transactionCodes,
  undoReport,
  Workspace,
} from "../../core/transaction/mod.ts";
import type { RunCache } from "../../core/cache.ts";
import { validateFile } from "../../core/gates/mod.ts";
import { gateRefusal } from "../../core/gates/refusal.ts";
import type { WriteRequest } from "./request.ts";

/** The words of `llm-write`'s `--undo` report. */
export const WRITE_WORDING: JournalWording = {
  undo: {
    done: "undid {id}: {count} file(s) removed or restored; undo this with --undo {execution_id}",
  },
};

/** How to run a write. */
export interface WriteOptions {
  /** Workspace root, relative to `cwd` or absolute. */
  root: string;
  /** Directory the root is relative to. */
  cwd: string;
  /** Execution id of the run (a plan's own `execution_id` takes precedence). */
  executionId: string;
  /** Run the gates and write nothing. */
  validateOnly: boolean;
  /** Let a compiler gate run the project's build scripts and proc macros (cargo). */
  allowBuildScripts?: boolean;
  /** Cache of a long-lived host: gate results by content hash. */
  cache?: RunCache;
  /** Stops the gates (and a running compiler). */
  signal?: AbortSignal;
}

/** What a run produced: the parts of the mutation envelope, and the exit code. */
export interface WriteReport {
  /** `write` or `undo`. */
  operation_type: string;
  /** The execution id used. */
  execution_id: string;
  /** `approved`, `rejected`, or `ok` for an undo. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** Absolute workspace root. */
  workspace: string;
  /** The result (none when an undo was refused). */
  result?: WriteOutput;
  /** The error that refused the run: a gate's refusal (contract §7), or another error. */
  error?: MutationError;
  /** Every error, warning and note, the gates' included. */
  diagnostics: Diagnostic[];
  /** Exit code per the contract: 0 approved, 2/3/4 refused. */
  exitCode: number;
}

/** One file of the run as the engine tracks it. */
interface Target {
  request: WriteFile;
  display: string;
  path: string;
  bytes: Uint8Array;
  before: Uint8Array | null;
  language?: string;
  /** Why the file is refused (the envelope's diagnostics list it). */
  refusal?: Diagnostic;
  /** The same refusal as the envelope's `error`, when a gate refused the file. */
  gateRefusal?: GateRefusal;
}

/** A diagnostic of `llm-write`, remediation from the registry. */
function writeDiagnostic(
  code: string,
  message: string,
  extra: Partial<Diagnostic> = {},
): Diagnostic {
  return makeDiagnostic(LLM_WRITE, code, message, extra);
}

/**
 * Runs one request against the files of a workspace.
 *
 * @example Create a file, validated first
 * ```ts
 * import assert from "node:assert/strict";
 * import { write } from "./engine.ts";
 * const root = await Deno.makeTempDir();
 * const report = await write(
 *   { kind: "write", plan: { files: [{ file_path: "a.py", content: "x = 1\n" }] } },
 *   { root, cwd: root, executionId: crypto.randomUUID(), validateOnly: false },
 * );
 * assert.equal(report.status, "approved");
 * assert.equal(await Deno.readTextFile(`${root}/a.py`), "x = 1\n");
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function write(request: WriteRequest, options: WriteOptions): Promise<WriteReport> {
  const workspace = await Workspace.open(options.root, options.cwd, "LFW");
  if (request.kind === "undo") return await undo(workspace, request.id, options);
  return await writePlan(workspace, request.plan, request.bytes, options);
}

/** Resolves a path to write, a folder on its way that is a file refused as `LFW-IO-010`. */
function resolveTarget(workspace: Workspace, file: WriteFile): { display: string; path: string } {
  try {
    return workspace.resolveTarget(file.file_path);
  } catch (error) {
    if (error instanceof ToolError || isPermissionRefusal(error)) throw error;
    throw new ToolError(
      "LFW-IO-010",
      `cannot write ${file.file_path}: a folder on its way is not a directory`,
      { file: file.file_path, note: error instanceof Error ? error.message : String(error) },
      { cause: error },
    );
  }
}

/**
 * Resolves every file of the plan (each once), reading what each path holds now. `exact` is the
 * content of the plan's one file as bytes, when it came as bytes (standard input).
 */
async function targetsOf(
  workspace: Workspace,
  plan: WritePlan,
  exact: Uint8Array | undefined,
): Promise<Target[]> {
  const targets: Target[] = [];
  const seen = new Map<string, string>();
  for (const file of plan.files) {
    const resolved = resolveTarget(workspace, file);
    const twice = seen.get(resolved.path);
    if (twice !== undefined) {
      throw new ToolError(
        "LFW-V-007",
        `${file.file_path} and ${twice} name the same file; nothing was written`,
        { file: resolved.display },
      );
    }
    seen.set(resolved.path, file.file_path);
    const target: Target = {
      request: file,
      display: resolved.display,
      path: resolved.path,
      bytes: exact ?? new TextEncoder().encode(file.content),
      before: null,
    };
    await checkExisting(target);
    targets.push(target);
  }
  return targets.sort((a, b) => compareText(a.display, b.display));
}

/** Refuses a path that holds something else than a regular file, or a file not to overwrite. */
async function checkExisting(target: Target): Promise<void> {
  const now = await contentsAt(target.path);
  const { request, display } = target;
  const refuse = (code: string, message: string, note?: string) => {
    target.refusal = writeDiagnostic(code, message, { file: display, ...(note ? { note } : {}) });
  };
  if (!now) return refuse("LFW-IO-010", `${display} exists and is not a regular file`);
  target.before = now.bytes;
  const current = now.checksum ? `current checksum: ${now.checksum}` : undefined;
  if (!now.bytes) {
    if (request.expected_checksum !== undefined) {
      refuse("LFW-V-004", `${display} does not exist, so it cannot have expected_checksum`);
    }
    return;
  }
  if (!request.overwrite) {
    return refuse("LFW-V-002", `${display} already exists; nothing was written`, current);
  }
  if (request.expected_checksum === undefined) {
    return refuse("LFW-V-003", `overwriting ${display} needs expected_checksum`, current);
  }
  if (request.expected_checksum !== now.checksum) {
    refuse(
      "LFW-V-004",
      `${display} does not have the expected checksum; nothing was written`,
      `expected ${request.expected_checksum}\nactual   ${now.checksum}`,
    );
  }
}

/** Runs every gate on each file not refused yet; a failing gate refuses the file. */
async function runGates(
  workspace: Workspace,
  targets: Target[],
  options: WriteOptions,
  diagnostics: Diagnostic[],
): Promise<void> {
  for (const target of targets) {
    if (target.refusal) continue;
    const report = await validateFile({
      root: workspace.real,
      filePath: target.display,
      bytes: target.bytes,
      gates: "all",
      prefix: "LFW",
      allowBuildScripts: options.allowBuildScripts ?? false,
      ...(options.cache ? { cache: options.cache } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (report.language !== "unknown") target.language = report.language;
    diagnostics.push(...report.diagnostics);
    if (report.approved) continue;
    const errors = report.diagnostics.filter((d) => d.level === "error");
    const first = errors[0] ?? report.diagnostics[0];
    const where = first.line ? `:${first.line}:${(first.column ?? 0) + 1}` : "";
    target.refusal = writeDiagnostic(
      "LFW-V-001",
      `${target.display} fails validation (${errors.length} error(s), first at ` +
        `${target.display}${where}: ${first.message}); nothing was written`,
      {
        file: target.display,
        ...(first.line ? { line: first.line } : {}),
        ...(first.column !== undefined ? { column: first.column } : {}),
      },
    );
    target.gateRefusal = gateRefusal(target.refusal, errors);
  }
}

function outcomeOf(target: Target, status: WrittenFile["status"], written: boolean): WrittenFile {
  const outcome: WrittenFile = {
    file_path: target.display,
    status,
    action: target.before ? "overwrite" : "create",
    checksum: checksumOf(target.bytes),
    bytes: target.bytes.length,
    written,
  };
  if (target.before) outcome.checksum_before = checksumOf(target.before);
  if (target.language) outcome.language = target.language;
  return outcome;
}

function exitOf(code: string): number {
  return explainCode(code)?.exit ?? EXIT.internal;
}

async function writePlan(
  workspace: Workspace,
  plan: WritePlan,
  exact: Uint8Array | undefined,
  options: WriteOptions,
): Promise<WriteReport> {
  const executionId = plan.execution_id ?? options.executionId;
  const targets = await targetsOf(workspace, plan, exact);
  const gateDiagnostics: Diagnostic[] = [];
  await runGates(workspace, targets, options, gateDiagnostics);
  const refused = targets.filter((target) => target.refusal);
  const refusals = refused.map((target) => target.refusal!);
  const base = { operation_type: "write", execution_id: executionId, workspace: workspace.given };
  if (refusals.length) {
    const files = targets.map((target) =>
      outcomeOf(target, target.refusal ? "rejected" : "skipped", false)
    );
    return {
      ...base,
      status: "rejected",
      message: `${refusals[0].message}` +
        (refusals.length > 1 ? ` (and ${refusals.length - 1} more file(s) refused)` : "") +
        (targets.length > 1 ? "; no file of the run was written" : ""),
      result: resultOf(files, options.validateOnly),
      error: refused[0].gateRefusal ?? refusals[0],
      diagnostics: [...refusals, ...gateDiagnostics],
      exitCode: exitOf(refusals[0].code),
    };
  }
  if (options.validateOnly) {
    return {
      ...base,
      status: "approved",
      message: `${targets.length} file(s) pass validation; nothing was written (validate_only)`,
      result: resultOf(targets.map((target) => outcomeOf(target, "approved", false)), true),
      diagnostics: gateDiagnostics,
      exitCode: EXIT.ok,
    };
  }
  return await commit(workspace, targets, executionId, base, gateDiagnostics);
}

/** Writes every approved file through the transaction; a failed commit writes none. */
async function commit(
  workspace: Workspace,
  targets: Target[],
  executionId: string,
  base: Pick<WriteReport, "operation_type" | "execution_id" | "workspace">,
  gateDiagnostics: Diagnostic[],
): Promise<WriteReport> {
  const changes: FileChange[] = targets.map((target) => ({
    file_path: target.display,
    path: target.path,
    before: target.before,
    after: target.bytes,
  }));
  try {
    const report = await commitChanges(changes, {
      root: workspace.real,
      executionId,
      tool: LLM_WRITE,
      operationType: "write",
      prefix: "LFW",
      codes: transactionCodes("LFW"),
    });
    const files = targets.map((target) => outcomeOf(target, "approved", true));
    const result = resultOf(files, false);
    result.journal = workspace.display(report.journal);
    return {
      ...base,
      status: "approved",
      message: `wrote ${targets.length} file(s); undo with --undo ${executionId}`,
      result,
      diagnostics: gateDiagnostics,
      exitCode: EXIT.ok,
    };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const failure = error.toDiagnostic(LLM_WRITE);
    return {
      ...base,
      status: "error",
      message: failure.message,
      result: resultOf(targets.map((target) => outcomeOf(target, "approved", false)), false),
      error: failure,
      diagnostics: [failure, ...gateDiagnostics],
      exitCode: error.exitCode,
    };
  }
}

function resultOf(files: WrittenFile[], validateOnly: boolean): WriteResult {
  return {
    validate_only: validateOnly,
    approved_count: files.filter((file) => file.status === "approved").length,
    rejected_count: files.filter((file) => file.status === "rejected").length,
    files,
  };
}

/**
 * Undoes an earlier write (or any journaled operation of the root); a refusal (unknown id,
 * already undone, files changed since) is reported as the undo's failure.
 */
async function undo(workspace: Workspace, id: string, options: WriteOptions): Promise<WriteReport> {
  try {
    return await undoReport({
      workspace,
      tool: LLM_WRITE,
      executionId: options.executionId,
      dryRun: false,
      wording: WRITE_WORDING,
    }, id);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const head = { execution_id: options.executionId, workspace: workspace.given };
    return failureReport(LLM_WRITE, "undo", head, error);
  }
}
