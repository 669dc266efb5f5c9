/**
 * The `llm-transform` tool definition: its input schema (also its flag set and its MCP
 * arguments), its output schema, and the run function that calls the engine.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { isPermissionRefusal, permissionError } from "../../core/permissions.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import {
  type MutationEnvelope,
  mutationEnvelope,
  mutationEnvelopeSchema,
} from "../../schema/envelope.ts";
import type { RecoverResult, UndoResult } from "../../schema/journal.ts";
import {
  type TransformOutput,
  TransformOutputSchema,
  type TransformResult,
} from "../../schema/transform.ts";
import { transform } from "./engine.ts";
import { TransformInput } from "./input.ts";
import { buildRequest } from "./request.ts";
import { LLM_TRANSFORM } from "../../schema/tool_names.ts";

/** Output schema of `llm-transform`. */
export const TransformEnvelopeSchema: z.ZodType<MutationEnvelope<TransformOutput>> =
  mutationEnvelopeSchema(TransformOutputSchema);

function operationOf(input: TransformInput): string {
  if (input.recover) return "recover";
  if (input.undo !== undefined) return "undo";
  if (input.old !== undefined) return "replace";
  return "edit";
}

function renderText(envelope: MutationEnvelope<TransformOutput>): string {
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
 * The `llm-transform` tool.
 *
 * @example See what llm-transform needs
 * ```ts
 * import { transformTool } from "@llm/search";
 * transformTool.kind; // "mutation"
 * transformTool.permissions; // ["read", "write"]
 * ```
 */
export const transformTool: Tool = defineTool({
  name: LLM_TRANSFORM,
  mcpName: "transform",
  title: "Checksummed span edits and guarded replacements",
  description:
    "Change files safely: apply byte-span edits (from llm-search / llm-ast-search spans) or " +
    "replace an exact text that must occur exactly once (str_replace), verified against " +
    "sha256 checksums, all or nothing across files, with a journal for undo and recover. " +
    "Every result reports each edit's status and its new span in the new file (the full " +
    'form, detail: "full", adds the old spans and the checksums); its execution_id is what ' +
    "undo takes. Use dry_run to preview a unified diff.",
  example: { file: "src/main.ts", old: "let x = 1;", new: "const x = 1;", dry_run: true },
  prefix: "LMT",
  kind: "mutation",
  operationType: "edit",
  permissions: ["read", "write"],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  input: TransformInput,
  output: TransformEnvelopeSchema,
  text: (envelope) => renderText(envelope),
  cli: {
    usage: "--plan FILE|-\n" +
      "  llm-transform --file P --span START:END --with TEXT [--expect sha256:…]\n" +
      "  llm-transform --file P --old TEXT --new TEXT [--count N | --all] [--expect sha256:…]\n" +
      "  llm-transform --recover | --undo EXECUTION_ID",
    examples: [
      "llm-transform --plan edits.json --dry-run --format text",
      "llm-search -F --with-checksums 'oldName' --format json | my-agent > plan.json && " +
      "llm-transform --plan plan.json",
      "llm-transform --file src/main.ts --span 120:127 --with newName --expect sha256:…",
      "llm-transform --file src/main.ts --old 'let x = 1;' --new 'const x = 1;'",
      "llm-transform --file README.md --old 'colour' --new 'color' --all",
      "llm-transform --undo 0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11",
      "deno run --allow-read=. --allow-write=. jsr:@llm/search/transform --recover",
    ],
  },
  run: async (input, context) => {
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
  },
});
