/**
 * What `llm-transform` runs once its input is checked, and how its answer reads as text: shared
 * by the definition (`tool.ts`, which loads zod) and by the command line (`main.ts`, which does
 * not).
 *
 * @module
 */
import { isPermissionRefusal, permissionError } from "../../core/permissions.ts";
import type { CommandCode } from "../../core/cli_table.ts";
import type { RunContext, ToolOutcome } from "../../core/tool.ts";
import type { CompactForm } from "../../schema/compact.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import {
  type Envelope,
  type MutationEnvelope,
  mutationEnvelope,
} from "../../schema/envelope_build.ts";
import type { RecoverResult, UndoResult } from "../../schema/journal.ts";
import type { TransformOutput, TransformResult } from "../../schema/transform.ts";
import { LLM_TRANSFORM } from "../../schema/tool_names.ts";
import { transform } from "./engine.ts";
import type { TransformInput } from "./input.ts";
import { buildRequest } from "./request.ts";
import { transformCompact } from "./compact.ts";

function operationOf(input: TransformInput): string {
  if (input.recover) return "recover";
  if (input.undo !== undefined) return "undo";
  if (input.old !== undefined) return "replace";
  return "edit";
}

/**
 * The text form of an `llm-transform` answer (`--format text`): the diff or the edits, the
 * diagnostics, and the status line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mutationEnvelope } from "@llm/search/schema";
 * import { renderText } from "./run.ts";
 * const answer = mutationEnvelope("llm-transform", {
 *   operation_type: "replace", status: "ok", message: "nothing to do",
 * });
 * assert.equal(renderText(answer), "ok: nothing to do\n");
 * ```
 */
export function renderText(answer: Envelope): string {
  // llm-transform answers with mutation envelopes of its own output only (runTransform).
  const envelope = answer as MutationEnvelope<TransformOutput>;
  const lines: string[] = [];
  const result = envelope.result;
  if (result && "diff" in result && result.diff) lines.push(result.diff.trimEnd());
  if (result && "edits" in result) lines.push(...editLines(result));
  if (result && "journals" in result) lines.push(...recoverLines(result));
  if (result && "undone_execution_id" in result) lines.push(...undoLines(result));
  for (const d of envelope.diagnostics) {
    lines.push(`${d.level} ${d.code}: ${d.message}`);
    if (d.note) lines.push(...d.note.split("\n").map((line) => `  ${line}`));
  }
  lines.push(`${envelope.status}: ${envelope.message}`);
  return lines.join("\n") + "\n";
}

function editLines(result: TransformResult): string[] {
  return result.files.map((file) => {
    const shift = file.total_byte_shift >= 0 ? `+${file.total_byte_shift}` : file.total_byte_shift;
    const checksums = file.final_checksum
      ? `  ${file.file_checksum_before} -> ${file.final_checksum}`
      : "";
    return `${
      file.status.padEnd(9)
    } ${file.file_path} (${file.edit_count} edit(s), ${shift} bytes)${checksums}`;
  });
}

function recoverLines(result: RecoverResult): string[] {
  return result.journals.flatMap((journal) => [
    `${journal.outcome} ${journal.execution_id} (${journal.tool} ${journal.operation_type})`,
    ...journal.files.map((file) => `  ${file.action.padEnd(9)} ${file.file_path}`),
  ]);
}

function undoLines(result: UndoResult): string[] {
  return result.files.map((file) => `restored  ${file.file_path}`);
}

/**
 * Runs `llm-transform` on a checked input: builds the request, transforms, and wraps the report
 * in the mutation envelope; a coded refusal becomes an error envelope.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TransformInput } from "./input.ts";
 * import { runTransform } from "./run.ts";
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/a.txt`, "hello world\n");
 * const input = TransformInput.parse({ file: "a.txt", old: "world", new: "there" });
 * const { envelope } = await runTransform(input, { executionId: crypto.randomUUID(), cwd });
 * assert.equal(envelope.status, "ok");
 * assert.equal(Deno.readTextFileSync(`${cwd}/a.txt`), "hello there\n");
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export async function runTransform(
  input: TransformInput,
  context: RunContext,
): Promise<ToolOutcome> {
  const operationType = operationOf(input);
  try {
    const request = await buildRequest(input, {
      cwd: context.cwd,
      readStdin: context.readStdin,
    });
    const report = await transform(request, {
      root: input.root ?? ".",
      cwd: context.cwd,
      executionId: context.executionId,
      dryRun: input.dry_run,
      validate: input.validate,
      allowBuildScripts: input.allow_build_scripts,
      ...(context.cache ? { cache: context.cache } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
    });
    const envelope = mutationEnvelope<TransformOutput>(LLM_TRANSFORM, {
      operation_type: report.operation_type,
      status: report.status,
      message: report.message,
      workspace: report.workspace,
      result: report.result,
      error: report.error,
      diagnostics: report.diagnostics,
      executionId: report.execution_id,
    });
    if (!report.error) delete envelope.error;
    return { envelope, exitCode: report.exitCode };
  } catch (thrown) {
    if (!(thrown instanceof ToolError) && !isPermissionRefusal(thrown)) throw thrown;
    const error = thrown instanceof ToolError ? thrown : permissionError("LMT", thrown);
    const diagnostic = error.toDiagnostic(LLM_TRANSFORM);
    const envelope = mutationEnvelope<TransformOutput>(LLM_TRANSFORM, {
      operation_type: operationType,
      status: "error",
      message: error.message,
      error: diagnostic,
      diagnostics: [diagnostic],
      executionId: context.executionId,
    });
    return { envelope, exitCode: error.exitCode };
  }
}

/** `llm-transform` as its command line runs it (`main.ts`) and its definition declares it. */
export const TRANSFORM_CODE: CommandCode<TransformInput> = {
  run: runTransform,
  text: renderText,
  compact: transformCompact as CompactForm,
};
