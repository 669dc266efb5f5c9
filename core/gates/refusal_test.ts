import assert from "node:assert/strict";
import { makeDiagnostic, refusalDiagnostic } from "../../schema/diagnostic.ts";
import { gateFailureKind, gateRefusal, SYNTAX_TOOL } from "./refusal.ts";

const syntax = makeDiagnostic(SYNTAX_TOOL, "LFW-AST-101", "missing ;", { file: "a.c", line: 2 });
const gcc = makeDiagnostic("gcc", "LFW-V-101", "‘x’ undeclared", { file: "a.c", line: 3 });

Deno.test("the syntax gate names a refusal when it found any of its errors, else the compiler", () => {
  assert.equal(gateFailureKind([syntax]), "SyntaxGateFailed");
  assert.equal(gateFailureKind([gcc, syntax]), "SyntaxGateFailed");
  assert.equal(gateFailureKind([gcc]), "CompilerGateFailed");
});

Deno.test("a refusal carries its gate errors and its remediation as hint; its copy gives it back", () => {
  const plain = makeDiagnostic("llm-write", "LFW-V-001", "a.c fails validation", {
    file: "a.c",
    line: 2,
    column: 9,
  });
  const error = gateRefusal(plain, [syntax, gcc]);
  assert.deepEqual(Object.keys(error), [
    "kind",
    "tool",
    "level",
    "message",
    "code",
    "file",
    "line",
    "column",
    "hint",
    "diagnostics",
  ]);
  assert.equal(error.hint, plain.remediation);
  assert.deepEqual(error.diagnostics, [syntax, gcc]);
  assert.deepEqual(refusalDiagnostic(error), plain);
  assert.equal(JSON.stringify(refusalDiagnostic(error)), JSON.stringify(plain), "same key order");
});

Deno.test("a refusal without a remediation of its own takes the first gate error's as hint", () => {
  const { remediation: _, ...bare } = makeDiagnostic("llm-write", "LFW-V-001", "a.c fails");
  assert.equal(gateRefusal(bare, [gcc, syntax]).hint, gcc.remediation);
  assert.equal("hint" in gateRefusal(bare, [{ ...gcc, remediation: undefined }]), false);
});
