/**
 * The tail of a mutating tool's `--format text`: one line per diagnostic (level, code, place,
 * message; its note indented below) and the status line. `llm-write` and `llm-refactor` end their
 * text with it.
 *
 * @module
 */
import type { MutationEnvelope } from "../schema/envelope_build.ts";

/**
 * The diagnostic lines and the status line of `envelope`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mutationTextTail } from "./mutation_text.ts";
 * assert.deepEqual(mutationTextTail({ status: "ok", message: "done", diagnostics: [] }), [
 *   "ok: done",
 * ]);
 * ```
 */
export function mutationTextTail(
  envelope: Pick<MutationEnvelope, "status" | "message" | "diagnostics">,
): string[] {
  const lines: string[] = [];
  for (const d of envelope.diagnostics) {
    const where = d.file ? `${d.file}${d.line ? `:${d.line}:${(d.column ?? 0) + 1}` : ""}: ` : "";
    lines.push(`${d.level} ${d.code}: ${where}${d.message}`);
    if (d.note) lines.push(...d.note.split("\n").map((line) => `  ${line}`));
  }
  lines.push(`${envelope.status}: ${envelope.message}`);
  return lines;
}
