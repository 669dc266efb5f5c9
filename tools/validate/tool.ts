/**
 * The `llm-validate` tool definition: its input schema (also its flag set), its output schema
 * and the run function that calls the engine.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, type Tool } from "../../core/tool.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { type QueryEnvelope, queryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { field } from "../../schema/fields.ts";
import { type ValidateData, ValidateDataSchema } from "../../schema/gates.ts";
import { LLM_VALIDATE } from "../../schema/tool_names.ts";
import { VALIDATE_DEFAULTS } from "./defaults.ts";
import { validate } from "./engine.ts";

const ValidateInput = z.object({
  path: field(
    z.string().min(1).describe(
      "The file the text is for (the first positional argument); its name gives the language " +
        "and its folder the context of includes and imports; it need not exist",
    ),
    { path: true, aliases: ["file", "file_path"] },
  ),
  content: field(
    z.string().optional().describe("The text to check [default: the file's bytes on disk]"),
    { aliases: ["text", "new_content"] },
  ),
  stdin: z.boolean().default(false).describe(
    "Read the text to check from standard input (command line only)",
  ),
  language: field(
    z.string().optional().describe("Language name or alias [default: from the file name]"),
    { short: "l" },
  ),
  gates: z.enum(["syntax", "all"]).default(VALIDATE_DEFAULTS.gates).describe(
    "syntax: the tree-sitter gate only; all: also the language's compiler where it may run",
  ),
  timeout_ms: z.number().int().positive().default(VALIDATE_DEFAULTS.timeoutMs).describe(
    "Time limit of each gate in milliseconds",
  ),
  allow_build_scripts: z.boolean().default(false).describe(
    "Let the compiler gate run the project's own code where its full check needs it (Rust: " +
      "cargo check builds and runs build scripts and proc macros); without it that check is " +
      "skipped with a note and no gate runs code of the project or of the text",
  ),
});

/** Input of `llm-validate`, as the engine receives it after defaults. */
export type ValidateInput = z.output<typeof ValidateInput>;

/** Output schema of `llm-validate`. */
export const ValidateEnvelopeSchema: z.ZodType<QueryEnvelope<ValidateData | { count: 0 }>> =
  queryEnvelopeSchema(ValidateDataSchema);

function renderText(envelope: QueryEnvelope<ValidateData>): string {
  const lines = envelope.diagnostics.map((d) => {
    const where = `${d.file ?? ""}:${d.line ?? ""}:${d.column ?? ""}`;
    const native = d.native_code ? ` [${d.native_code}]` : "";
    return `${where}: ${d.level}: ${d.message}${native} (${d.tool}, ${d.code})`;
  });
  const data = envelope.data;
  if (data.status) lines.push(`${data.status}: ${data.file_path} (${data.language})`);
  return lines.join("\n") + "\n";
}

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
  prefix: "LMV",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: ValidateInput,
  output: ValidateEnvelopeSchema,
  text: (envelope) => renderText(envelope as QueryEnvelope<ValidateData>),
  cli: {
    usage: "[FLAGS] PATH",
    positionals: (positionals) => {
      const [path, ...rest] = positionals;
      if (rest.length > 0) {
        throw new ToolError("LMV-ARG-001", `unexpected argument '${rest[0]}': one PATH is checked`);
      }
      return path === undefined ? {} : { path };
    },
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
  run: async (input, context) => {
    // Standard input's exact bytes, as `llm-write` of standard input would write them.
    const content = input.stdin ? await readStdin(context.readStdinBytes) : input.content;
    const outcome = await validate({
      cwd: context.cwd,
      path: input.path,
      content,
      language: input.language,
      gates: input.gates,
      timeoutMs: input.timeout_ms,
      allowBuildScripts: input.allow_build_scripts,
      signal: context.signal,
      cache: context.cache,
    });
    return {
      envelope: queryEnvelope(LLM_VALIDATE, outcome.data, outcome.diagnostics, {
        executionId: context.executionId,
      }),
    };
  },
});

async function readStdin(
  read: (() => Promise<Uint8Array>) | undefined,
): Promise<Uint8Array> {
  if (!read) {
    throw new ToolError(
      "LMV-ARG-002",
      "stdin reads standard input, which this host does not offer",
      {
        remediation: "Pass the text as content instead.",
      },
    );
  }
  return await read();
}
