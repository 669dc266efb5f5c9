import assert from "node:assert/strict";
import { ToolError } from "../schema/diagnostic.ts";
import { classifyError, describeCauses, failureOutcome } from "./failure.ts";

const INFO = { name: "llm-search", kind: "query", mcpName: "search", prefix: "LMS" } as const;

Deno.test("an unexpected error becomes INT-001 with the original as its cause", () => {
  const thrown = new TypeError("boom");
  const error = classifyError("LMS", thrown, false);
  assert.equal(error.code, "LMS-INT-001");
  assert.equal(error.cause, thrown);
  assert.equal(error.details.note, undefined);
});

Deno.test("a coded error passes through unchanged, cause included", () => {
  const cause = new Error("inner");
  const coded = new ToolError("LMS-IO-002", "cannot read a.txt", { file: "a.txt" }, { cause });
  assert.equal(classifyError("LMS", coded, false), coded);
  assert.equal(coded.cause, cause);
});

Deno.test("with debug, the note holds every cause's stack, outermost first", () => {
  const root = new RangeError("root");
  const coded = new ToolError("LMS-IO-002", "cannot read", { file: "a" }, {
    cause: new Error("middle", { cause: root }),
  });
  const error = classifyError("LMS", coded, true);
  assert.equal(error.code, "LMS-IO-002");
  assert.equal(error.details.file, "a");
  assert.equal(error.cause, coded.cause);
  const note = error.details.note ?? "";
  assert.ok(note.indexOf("caused by: Error: middle") < note.indexOf("caused by: RangeError: root"));
  assert.match(note, /caused by: RangeError: root\n\s+at /);
  const outcome = failureOutcome(INFO, new TypeError("boom"), "id", true);
  assert.match(outcome.envelope.diagnostics[0].note ?? "", /caused by: TypeError: boom\n\s+at /);
});

Deno.test("describeCauses: empty without a cause, non-errors as text, cycles cut", () => {
  assert.equal(describeCauses(new Error("alone")), "");
  assert.equal(describeCauses(new Error("outer", { cause: "a string" })), "caused by: a string");
  const first = new Error("first");
  const second = new Error("second", { cause: first });
  (first as { cause?: unknown }).cause = second;
  assert.equal(describeCauses(first).split("caused by:").length, 2);
});
