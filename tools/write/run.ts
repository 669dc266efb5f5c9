/**
 * What `llm-write` runs once its input is checked, and how its answer reads as text: shared by
 * the definition (`tool.ts`, which loads zod) and by the command line (`main.ts`, which does
 * not).
 *
 * @module
 */
import type { CommandCode } from "../../core/cli_table.ts";
import { mutationTextTail } from "../../core/mutation_text.ts";
import type { RunContext, ToolOutcome } from "../../core/tool.ts";
import type { CompactForm } from "../../schema/compact.ts";
import {
  type Envelope,
  type MutationEnvelope,
  mutationEnvelope,
} from "../../schema/envelope_build.ts";
import { LLM_WRITE } from "../../schema/tool_names.ts";
import type { WriteOutput } from "../../schema/write.ts";
import { writeCompact } from "./compact.ts";
import { write } from "./engine.ts";
import type { WriteInput } from "./input.ts";
import { buildWriteRequest } from "./request.ts";

/**
 * The text form of an `llm-write` answer: each file's status, action, path and checksum, or the
 * files an undo removed, then the diagnostics and the status line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mutationEnvelope } from "@llm/search/schema";
 * import { renderWriteText } from "./run.ts";
 * const answer = mutationEnvelope("llm-write", {
 *   operation_type: "write", status: "ok", message: "nothing to do",
 * });
 * assert.equal(renderWriteText(answer), "ok: nothing to do\n");
 * ```
 */
export function renderWriteText(answer: Envelope): string {
  // llm-write answers with mutation envelopes of its own output only (runWrite).
  const envelope = answer as MutationEnvelope<WriteOutput>;
  const lines: string[] = [];
  const result = envelope.result;
  if (result && "validate_only" in result) {
    for (const file of result.files) {
      lines.push(
        `${file.status.padEnd(9)} ${file.action.padEnd(9)} ${file.file_path}  ` +
          file.checksum,
      );
    }
  }
  if (result && "undone_execution_id" in result) {
    lines.push(...result.files.map((file) => `undone    ${file.file_path}`));
  }
  lines.push(...mutationTextTail(envelope));
  return lines.join("\n") + "\n";
}

/**
 * Runs `llm-write` on a checked input. A refusal thrown before the report (bad input, a path
 * out of the root, no permission) becomes the failure envelope of the framework
 * (`core/failure.ts`), operation `write`.
 */
export async function runWrite(input: WriteInput, context: RunContext): Promise<ToolOutcome> {
  const request = await buildWriteRequest(input, {
    cwd: context.cwd,
    readStdin: context.readStdin,
    readStdinBytes: context.readStdinBytes,
  });
  const report = await write(request, {
    root: input.root ?? ".",
    cwd: context.cwd,
    executionId: context.executionId,
    validateOnly: input.validate_only,
    allowBuildScripts: input.allow_build_scripts,
    ...(context.cache ? { cache: context.cache } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  });
  const { exitCode, execution_id, ...parts } = report;
  const envelope = mutationEnvelope<WriteOutput>(LLM_WRITE, {
    ...parts,
    executionId: execution_id,
  });
  return { envelope, exitCode };
}

/** `llm-write` as its command line runs it (`main.ts`) and its definition declares it. */
export const WRITE_CODE: CommandCode<WriteInput> = {
  run: runWrite,
  text: renderWriteText,
  compact: writeCompact as CompactForm,
};
