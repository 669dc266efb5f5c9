/**
 * What `llm-validate` runs once its input is checked, how its command line maps its one
 * positional, and how its answer reads as text: shared by the definition (`tool.ts`, which loads
 * zod) and by the command line (`main.ts`, which does not).
 *
 * @module
 */
import type { CommandCode } from "../../core/cli_table.ts";
import type { PositionalMapper, RunContext, ToolOutcome } from "../../core/tool.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { type Envelope, type QueryEnvelope, queryEnvelope } from "../../schema/envelope_build.ts";
import type { ValidateData } from "../../schema/gates.ts";
import { LLM_VALIDATE } from "../../schema/tool_names.ts";
import { validate } from "./engine.ts";
import type { ValidateInput } from "./input.ts";

/**
 * The text form of an `llm-validate` answer: a line per diagnostic, then the verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryEnvelope } from "@llm/search/schema";
 * import { renderValidateText } from "./run.ts";
 * const data = { count: 0, status: "approved", file_path: "a.py", language: "python" };
 * const answer = queryEnvelope("llm-validate", data, []);
 * assert.equal(renderValidateText(answer), "approved: a.py (python)\n");
 * ```
 */
export function renderValidateText(answer: Envelope): string {
  // llm-validate answers with query envelopes of its own data only (runValidate).
  const envelope = answer as QueryEnvelope<ValidateData>;
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
 * `llm-validate PATH`: one path, no more.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validatePositionals } from "./run.ts";
 * assert.deepEqual(validatePositionals(["src/a.c"], {}), { path: "src/a.c" });
 * ```
 */
export const validatePositionals: PositionalMapper = (positionals) => {
  const [path, ...rest] = positionals;
  if (rest.length > 0) {
    throw new ToolError("LMV-ARG-001", `unexpected argument '${rest[0]}': one PATH is checked`);
  }
  return path === undefined ? {} : { path };
};

/** Runs `llm-validate` on a checked input. */
export async function runValidate(input: ValidateInput, context: RunContext): Promise<ToolOutcome> {
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
}

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

/** `llm-validate` as its command line runs it (`main.ts`) and its definition declares it. */
export const VALIDATE_CODE: CommandCode<ValidateInput> = {
  run: runValidate,
  text: renderValidateText,
  positionals: validatePositionals,
};
