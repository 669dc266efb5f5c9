import assert from "node:assert/strict";
import { makeDiagnostic, ToolError } from "./diagnostic.ts";

Deno.test("ToolError keeps the error that caused it, and its code's exit status", () => {
  const cause = new Deno.errors.NotFound("no such file");
  const error = new ToolError("LMS-IO-001", "path not found: a/", { file: "a/" }, { cause });
  assert.equal(error.cause, cause);
  assert.equal(error.exitCode, 2);
  assert.equal(error.toDiagnostic("llm-search").file, "a/");
  assert.equal(new ToolError("LMS-IO-001", "x").cause, undefined);
});

Deno.test("an unknown code exits as an internal error; remediation comes from the registry", () => {
  assert.equal(new ToolError("not-a-code", "x").exitCode, 5);
  const diagnostic = makeDiagnostic("llm-search", "LMS-PERM-001", "no read permission");
  assert.match(diagnostic.remediation ?? "", /--allow-read/);
});
