/**
 * The `llm-validate` tool definition: its input schema (also its flag set), its output schema
 * and the run function that calls the engine.
 *
 * @module
 */
import type { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { type QueryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { type ValidateData, ValidateDataSchema } from "../../schema/gates.ts";
import { LLM_VALIDATE } from "../../schema/tool_names.ts";
import { ValidateInput } from "./input.ts";
import { VALIDATE_CODE } from "./run.ts";

export type { ValidateInput } from "./input.ts";

/** Output schema of `llm-validate`. */
export const ValidateEnvelopeSchema: z.ZodType<QueryEnvelope<ValidateData | { count: 0 }>> =
  queryEnvelopeSchema(ValidateDataSchema);

/**
 * The `llm-validate` tool.
 *
 * @example Check a snippet without writing it
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateTool } from "@llm/search";
 * const { envelope } = await validateTool.execute(
 *   { path: "a.json", content: '{"a": 1,}', gates: "syntax" },
 *   { executionId: crypto.randomUUID(), cwd: Deno.cwd() },
 * );
 * assert.equal(envelope.status, "error");
 * ```
 */
export const validateTool: Tool = defineTool({
  name: LLM_VALIDATE,
  mcpName: "validate",
  title: "Check code before writing it",
  description:
    "Check text meant for a file without writing anything: tree-sitter syntax errors with " +
    "exact spans, then the language's compiler (gcc, g++, python3, node, deno, javac, rustc, " +
    "bash; JSON, YAML and TOML parsers) in the file's folder. Answers approved or rejected with diagnostics " +
    "(line, column, the compiler's message and code); a gate that cannot run says why in a note.",
  example: { path: "src/util.py", content: "def f(x):\n    return x + 1\n" },
  mcp: {
    description: "Checks text meant for a file by its syntax and compiler, writing nothing: " +
      "approved, or rejected with exact diagnostics.",
    unlisted: ["stdin", "allow_build_scripts"],
  },
  prefix: "LMV",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: ValidateInput,
  output: ValidateEnvelopeSchema,
  text: VALIDATE_CODE.text,
  cli: {
    usage: "[FLAGS] PATH",
    positionals: VALIDATE_CODE.positionals,
    notes: "Compiler gates start the compiler: they need --allow-run (scoped to the compilers, " +
      "e.g. --allow-run=gcc,python3) and, for node, deno, javac and rustc, --allow-write on the " +
      "file's folder for a hidden copy removed at once. Without them only the syntax gate " +
      "decides, and a note says which gate was skipped. No gate runs code of the project: " +
      "cargo is skipped (a note) for a crate with build scripts or proc macros unless " +
      "--allow-build-scripts. Exit 3 when the text is rejected.",
    examples: [
      "llm-validate src/main.c",
      "llm-validate src/util.py --content 'def f(:\\n  pass'",
      "git show HEAD:src/app.ts | llm-validate src/app.ts --stdin",
      "deno run --allow-read=. --allow-run=gcc,g++,python3 jsr:@llm/search/validate src/main.c",
    ],
  },
  run: VALIDATE_CODE.run,
});
