import assert from "node:assert/strict";
import { compactEnvelope } from "../../schema/compact.ts";
import { makeDiagnostic } from "../../schema/diagnostic.ts";
import { mutationEnvelope } from "../../schema/envelope.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan } from "../../schema/span.ts";
import { CompactTransformEnvelopeSchema, type TransformResult } from "../../schema/transform.ts";
import { transformCompact } from "./compact.ts";

const TEXT = "int main(void)\n{\n\treturn FOO_SUSPEND;\n}\n" + "x".repeat(300) + "\n";
const index = LineIndex.fromText(TEXT);

const suspend = TEXT.indexOf("FOO_SUSPEND");

const CHECKSUM = "sha256:" + "0".repeat(64);

Deno.test("compact transform: status, new spans and error codes by file; no checksums", () => {
  const oldSpan = makeSpan("a.c", index, suspend, suspend + 11);
  const failed = makeSpan("a.c", index, 0, 3);
  const result: TransformResult = {
    dry_run: false,
    applied_count: 0,
    pending_count: 0,
    skipped_count: 1,
    error_count: 1,
    files: [{
      file_path: "a.c",
      status: "error",
      edit_count: 2,
      file_checksum_before: CHECKSUM,
      total_byte_shift: 0,
    }],
    edits: [
      {
        index: 1,
        file_path: "a.c",
        status: "error",
        byte_start: 0,
        byte_end: 3,
        old_span: failed,
        checksum_before: CHECKSUM,
        code: "LMT-V-002",
        message: "bad checksum",
      },
      {
        index: 0,
        file_path: "a.c",
        status: "skipped",
        byte_start: suspend,
        byte_end: suspend + 11,
        old_span: oldSpan,
        new_span: makeSpan("a.c", index, suspend, suspend + 5),
        code: "LMT-V-002",
      },
    ],
    candidates: [oldSpan],
    journal: ".llm/journal/x",
  };
  const error = makeDiagnostic("llm-transform", "LMT-V-002", "bad checksum", { level: "error" });
  const note = makeDiagnostic("llm-transform", "LMT-V-009", "a note", { level: "note" });
  const full = mutationEnvelope("llm-transform", {
    operation_type: "edit",
    status: "error",
    message: "nothing was changed",
    workspace: "/tmp/root",
    result,
    error,
    diagnostics: [error, note],
  });
  const compact = compactEnvelope(full, transformCompact);
  const parsed = CompactTransformEnvelopeSchema.safeParse(compact);
  assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
  const text = JSON.stringify(compact);
  for (const gone of ["sha256:", "span_id", "journal", "/tmp/root", "timestamp"]) {
    assert.ok(!text.includes(gone), gone);
  }
  const shown = (compact as { result: Record<string, unknown> }).result;
  assert.deepEqual(shown.by_file, [{
    file_path: "a.c",
    status: "error",
    total_byte_shift: 0,
    rows: [
      ["error", 1, 1, 0, 3, "LMT-V-002"],
      // Not applied: the bytes it aimed at, not where its text would have gone.
      ["skipped", 3, 3, suspend, suspend + 11, "LMT-V-002"],
    ],
  }]);
  assert.deepEqual(shown.candidates, [{
    file_path: "a.c",
    rows: [[3, 8, suspend, suspend + 11]],
  }]);
  assert.deepEqual((compact as { error: unknown }).error, error, "the stopping error in full");
  assert.deepEqual(
    (compact as { diagnostics: { code: string }[] }).diagnostics.map((entry) => entry.code),
    ["LMT-V-009"],
    "the error is not repeated among the diagnostics",
  );
});

Deno.test("compact transform: an applied edit's row is where its new text lies", () => {
  const newSpan = makeSpan("b.c", index, 16, 30);
  const full = mutationEnvelope("llm-transform", {
    operation_type: "replace",
    status: "ok",
    message: "applied",
    result: {
      dry_run: false,
      applied_count: 1,
      pending_count: 0,
      skipped_count: 0,
      error_count: 0,
      files: [{ file_path: "b.c", status: "changed", edit_count: 1, total_byte_shift: 3 }],
      edits: [{
        index: 0,
        file_path: "b.c",
        status: "applied",
        byte_start: 16,
        byte_end: 27,
        old_span: makeSpan("b.c", index, 16, 27),
        new_span: newSpan,
      }],
    } satisfies TransformResult,
  });
  const rows =
    (compactEnvelope(full, transformCompact) as { result: { by_file: { rows: unknown[][] }[] } })
      .result
      .by_file[0].rows;
  assert.deepEqual(rows, [["applied", newSpan.start_line, newSpan.end_line, 16, 30, null]]);
});
