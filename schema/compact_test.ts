import assert from "node:assert/strict";
import { compactEnvelope, type CompactForm, compactMutation, compactQuery } from "./compact.ts";
import { makeDiagnostic } from "./diagnostic.ts";
import { mutationEnvelope, type QueryEnvelope, queryEnvelope } from "./envelope.ts";
import * as TOOL_NAMES from "./tool_names.ts";

Deno.test("envelopes without a compact form stay in full", () => {
  const mutation = mutationEnvelope("llm-symbols", {
    operation_type: "index",
    status: "ok",
    message: "1 edit",
  });
  assert.equal(compactEnvelope(mutation, undefined), mutation);
});

Deno.test("a form's compact answer: head, data or result, diagnostics summarised last", () => {
  const warning = makeDiagnostic("llm-echo", "LMS-IO-001", "skipped a.c", { level: "warning" });
  const full = queryEnvelope("llm-echo", { count: 1, words: ["hi"] }, [warning, warning], {
    partial: true,
  });
  const form: CompactForm<QueryEnvelope<{ count: number; words: string[] }>> = {
    compact: (envelope) => compactQuery(envelope, { rows: envelope.data.words }),
  };
  const compact = compactEnvelope(full, form);
  assert.deepEqual(Object.keys(compact), [
    "schema_version",
    "execution_id",
    "tool",
    "form",
    "status",
    "partial",
    "data",
    "diagnostics",
  ]);
  assert.deepEqual(compact.diagnostics, [{
    code: "LMS-IO-001",
    level: "warning",
    count: 2,
    examples: [{ message: "skipped a.c" }, { message: "skipped a.c" }],
  }]);
  const error = makeDiagnostic("llm-echo", "LMS-IO-002", "cannot write b.c", { file: "b.c" });
  const note = makeDiagnostic("llm-echo", "LMS-IO-003", "a.c is fine", { file: "a.c" });
  const failed = mutationEnvelope("llm-echo", {
    operation_type: "echo",
    status: "error",
    message: "nothing was changed",
    workspace: "/tmp/root",
    error,
    diagnostics: [error, note],
  });
  const answer = compactMutation(failed, { files: ["a.c"] }, ["a.c"]);
  assert.deepEqual(answer.error, error, "the stopping error in full");
  assert.deepEqual(answer.diagnostics, [], "neither the error's copy nor a listed file's");
  assert.ok(!("workspace" in answer));
});

Deno.test("the shared machinery names no tool: each tool's form is in its own declaration", async () => {
  const tools = Object.values(TOOL_NAMES).flatMap((name) =>
    typeof name === "string" && name.startsWith("llm-") ? [name] : []
  );
  assert.ok(tools.includes(TOOL_NAMES.LLM_SEARCH) && tools.includes(TOOL_NAMES.LLM_WRITE));
  for (const module of ["compact.ts", "compact_schema.ts"]) {
    // The code, not the doc comments (whose examples may call any tool).
    const text = (await Deno.readTextFile(new URL(module, import.meta.url)))
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    for (const tool of tools) {
      assert.ok(!text.includes(tool), `${module} names ${tool}`);
      // Nor imports its contract module (`llm-ast-search` → `ast_search.ts`).
      const contract = `./${tool.slice("llm-".length).replaceAll("-", "_")}.ts"`;
      assert.ok(!text.includes(contract), `${module} imports ${contract}`);
    }
  }
});
