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
import { field } from "../../schema/fields.ts";
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
import { TOOL_NAME } from "./report.ts";
import { buildRequest } from "./request.ts";

// Offsets are checked (with the JSON path of each violation) by the plan parser, which also
// renames legacy fields; this schema only describes the fields to clients.
const offset = z.number().int();

const EditInput = z.looseObject({
  file_path: field(
    z.string().optional().describe("File to edit, relative to the root (alias: file)"),
    { path: true },
  ),
  byte_start: offset.optional().describe("UTF-8 byte offset where the replaced bytes start"),
  byte_end: offset.optional().describe("UTF-8 byte offset where they end (= start to insert)"),
  new_text: z.string().optional().describe(
    "Replacement text, empty to delete (aliases: replacement, new_content)",
  ),
  expected_checksum: z.string().optional().describe(
    "sha256: of the replaced bytes (alias: checksum_before)",
  ),
});

const TransformInput = z.object({
  plan: field(
    z.string().min(1).optional().describe(
      "Edit plan JSON file ({edits, file_checksums}), or - to read it from standard input",
    ),
    { path: true },
  ),
  edits: z.union([z.array(EditInput), z.string()]).optional().describe(
    "Edits inline: [{file_path, byte_start, byte_end, new_text, expected_checksum?}] " +
      "(on the command line, as JSON text)",
  ),
  file_checksums: z.union([z.record(z.string(), z.string()), z.string()]).optional().describe(
    "Whole-file sha256: checksums the files must have, by file_path (on the command line, JSON)",
  ),
  file: field(z.string().min(1).optional().describe("File of a span edit or a replacement"), {
    path: true,
    aliases: ["path", "file_path"],
  }),
  span: z.string().optional().describe("Byte range START:END to replace (with file, with)"),
  with: z.string().optional().describe("New text for span (empty deletes)"),
  old: field(z.string().optional().describe("Exact text to replace (with file, new)"), {
    aliases: ["old_string", "old_str"],
  }),
  new: field(z.string().optional().describe("Text to put in place of old (empty deletes)"), {
    aliases: ["new_string", "new_str"],
  }),
  count: z.number().int().positive().optional().describe(
    "old must occur exactly N times; all are replaced [default: exactly once]",
  ),
  all: z.boolean().default(false).describe("Replace every occurrence of old (at least one)"),
  expect: z.string().optional().describe(
    "sha256: checksum the file must have (with span, the span's checksum is accepted too)",
  ),
  dry_run: z.boolean().default(false).describe(
    "Write nothing; show the unified diff and the would-be result (exit 1 when changes are pending)",
  ),
  recover: z.boolean().default(false).describe(
    "Roll back (or finish) operations in the root that were killed midway",
  ),
  undo: z.string().optional().describe(
    "Restore the exact prior bytes of an earlier operation, given its execution_id",
  ),
  root: field(
    z.string().optional().describe(
      "Workspace root: relative paths start here and the journal lives in <root>/.llm/journal " +
        "[default: the current directory]",
    ),
    { path: true },
  ),
});

/** Input of `llm-transform`, as the engine receives it after defaults. */
export type TransformInput = z.output<typeof TransformInput>;

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
  name: TOOL_NAME,
  mcpName: "transform",
  title: "Checksummed span edits and guarded replacements",
  description:
    "Change files safely: apply byte-span edits (from llm-search / llm-ast-search spans) or " +
    "replace an exact text that must occur exactly once (str_replace), verified against " +
    "sha256 checksums, all or nothing across files, with a journal for undo and recover. " +
    "Every result reports each edit's old span and its new span in the new file, and the " +
    "files' final checksums. Use dry_run to preview a unified diff.",
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
      const envelope = mutationEnvelope<TransformOutput>(TOOL_NAME, {
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
      const diagnostic = error.toDiagnostic(TOOL_NAME);
      const envelope = mutationEnvelope<TransformOutput>(TOOL_NAME, {
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
