/**
 * The `llm-write` tool definition: its input schema (also its flag set and its MCP arguments),
 * its output schema, and the run function that calls the engine.
 *
 * @module
 */
import type { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { type MutationEnvelope, mutationEnvelopeSchema } from "../../schema/envelope.ts";
import { LLM_WRITE } from "../../schema/tool_names.ts";
import {
  CompactWriteEnvelopeSchema,
  type WriteOutput,
  WriteOutputSchema,
} from "../../schema/write.ts";
import { writeCompact } from "./compact.ts";
import { WriteInput } from "./input.ts";
import { runWrite, WRITE_CODE } from "./run.ts";

/** Output schema of `llm-write`. */
export const WriteEnvelopeSchema: z.ZodType<MutationEnvelope<WriteOutput>> = mutationEnvelopeSchema(
  WriteOutputSchema,
);

/**
 * The `llm-write` tool.
 *
 * @example See what llm-write needs
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeTool } from "@llm/search";
 * assert.equal(writeTool.kind, "mutation");
 * assert.deepEqual(writeTool.permissions, ["read", "write"]);
 * ```
 */
export const writeTool: Tool = defineTool({
  name: LLM_WRITE,
  mcpName: "write",
  title: "Create files that parse and compile, all or nothing",
  description:
    "Create one file (path + content) or several (files: [{file_path, content}]) only if " +
    "each passes the validation gates: the syntax gate (tree-sitter) and, when the server may " +
    "run it, the language's compiler (gcc, node, python3, javac, …). The " +
    'answer is status "approved" with each file\'s sha256 checksum, or "rejected" with the ' +
    "gates' diagnostics (file, line, column, message) and nothing written. An existing file " +
    "is replaced only with overwrite and expected_checksum. validate_only checks without " +
    "writing; undo takes the execution_id of a write and removes what it created.",
  example: { path: "src/hello.py", content: 'print("hello")\n' },
  mcp: {
    description: "Creates files only if they pass the syntax and compiler gates, else writes " +
      "nothing and answers the diagnostics. Prefer it to the client's write for " +
      "code that must compile.",
    unlisted: ["root", "allow_build_scripts", "plan"],
  },
  prefix: "LFW",
  kind: "mutation",
  operationType: "write",
  permissions: ["read", "write"],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  input: WriteInput,
  output: WriteEnvelopeSchema,
  text: WRITE_CODE.text,
  compact: { form: writeCompact, output: CompactWriteEnvelopeSchema },
  cli: {
    usage: "--path P (--content TEXT | < FILE) [--overwrite --expected-checksum sha256:…]\n" +
      "  llm-write --plan FILE|- | --files JSON\n" +
      "  llm-write --undo EXECUTION_ID",
    notes: "Compiler gates run only with --allow-run (scope it to the compilers, e.g. " +
      "--allow-run=gcc,python3,node); without it they are skipped with a note and the syntax " +
      "gate decides.",
    examples: [
      "llm-write --path src/hello.c --content $'int main(void) { return 0; }\\n'",
      "llm-write --path src/app.py < app.py",
      "llm-write --plan files.json --validate-only",
      "llm-write --path a.py --content 'x = 2\\n' --overwrite --expected-checksum sha256:…",
      "llm-write --undo 0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11",
    ],
  },
  run: runWrite,
});
