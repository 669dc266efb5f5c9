import assert from "node:assert/strict";
import { mutationTextTail } from "./mutation_text.ts";

Deno.test("a mutation's text tail: each diagnostic with its place and indented note, then the status", () => {
  const lines = mutationTextTail({
    status: "rejected",
    message: "1 file rejected; nothing was written",
    diagnostics: [
      {
        tool: "llm-write",
        level: "error",
        code: "LFW-AST-101",
        message: "syntax error",
        file: "a.py",
        line: 3,
        column: 4,
        note: "first\nsecond",
      },
      { tool: "llm-write", level: "note", code: "LFW-V-001", message: "gcc skipped", file: "b.c" },
      { tool: "llm-write", level: "warning", code: "LFW-IO-021", message: "log cut" },
    ],
  });
  assert.deepEqual(lines, [
    "error LFW-AST-101: a.py:3:5: syntax error",
    "  first",
    "  second",
    "note LFW-V-001: b.c: gcc skipped",
    "warning LFW-IO-021: log cut",
    "rejected: 1 file rejected; nothing was written",
  ]);
});
