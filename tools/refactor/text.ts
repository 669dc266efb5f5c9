/**
 * `--format text` of `llm-refactor`: the diff of a preview, one line per file changed and per
 * edit, the diagnostics, and the summary line.
 *
 * @module
 */
import type { MutationEnvelope } from "../../schema/envelope.ts";
import type { RefactorOutput } from "../../schema/refactor.ts";
import { mutationTextTail } from "../../core/mutation_text.ts";

/** The text of an `llm-refactor` envelope. */
export function renderText(envelope: MutationEnvelope<RefactorOutput>): string {
  const lines: string[] = [];
  const result = envelope.result;
  if (result && "operation" in result) {
    if (result.diff) lines.push(result.diff.trimEnd());
    for (const file of result.files) {
      lines.push(`${file.file_path}: ${file.edits} edit(s)  ${file.checksum_after}`);
    }
  } else if (result && "undone_execution_id" in result) {
    lines.push(...result.files.map((file) => `restored  ${file.file_path}`));
  } else if (result && "journals" in result) {
    lines.push(...result.journals.map((journal) => `${journal.outcome}  ${journal.execution_id}`));
  }
  lines.push(...mutationTextTail(envelope));
  return lines.join("\n") + "\n";
}
