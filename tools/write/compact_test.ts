import assert from "node:assert/strict";
import { compactEnvelope, type CompactMutationEnvelope } from "../../schema/compact.ts";
import { makeDiagnostic } from "../../schema/diagnostic.ts";
import { mutationEnvelope } from "../../schema/envelope.ts";
import {
  CompactWriteEnvelopeSchema,
  type CompactWriteResult,
  type WriteResult,
} from "../../schema/write.ts";
import { writeCompact } from "./compact.ts";

const CHECKSUM = "sha256:" + "0".repeat(64);

Deno.test("compact write: per file its status, checksum and diagnostic rows; nothing twice", () => {
  const refusal = makeDiagnostic("llm-write", "LFW-V-001", "b.c fails validation", {
    file: "b.c",
    line: 2,
    column: 9,
  });
  const gcc = makeDiagnostic("gcc", "LFW-V-101", "‘x’ undeclared", {
    file: "b.c",
    line: 2,
    column: 9,
    native_code: "-Wx",
    note: "reported once",
  });
  const exists = makeDiagnostic("llm-write", "LFW-V-002", "a.c already exists", {
    file: "a.c",
    note: `current checksum: ${CHECKSUM}`,
  });
  const envelope = mutationEnvelope<WriteResult>("llm-write", {
    operation_type: "write",
    status: "rejected",
    message: "b.c fails validation",
    result: {
      validate_only: false,
      approved_count: 0,
      rejected_count: 2,
      files: ["a.c", "b.c"].map((file_path) => ({
        file_path,
        status: "rejected" as const,
        action: "create" as const,
        checksum: CHECKSUM,
        bytes: 3,
        written: false,
      })),
    },
    error: refusal,
    diagnostics: [refusal, exists, gcc],
  });
  const compact = compactEnvelope(envelope, writeCompact) as CompactMutationEnvelope<
    CompactWriteResult
  >;
  assert.ok(CompactWriteEnvelopeSchema.safeParse(compact).success);
  assert.equal(compact.error, undefined, "the gate's rows explain the refusal");
  assert.deepEqual(compact.diagnostics, []);
  assert.deepEqual(compact.result?.files.map((file) => [file.file_path, file.diagnostics]), [
    ["a.c", [[
      "error",
      "LFW-V-002",
      null,
      null,
      "llm-write",
      null,
      "a.c already exists",
      exists.note,
    ]]],
    ["b.c", [["error", "LFW-V-101", 2, 9, "gcc", "-Wx", "‘x’ undeclared", "reported once"]]],
  ]);
});
