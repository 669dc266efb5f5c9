/**
 * What `llm-context` runs once its input is checked, and how its command line maps
 * positionals: shared by the definition (`tool.ts`, which loads zod) and by the command line
 * (`main.ts`, which does not).
 *
 * @module
 */
import type { CommandCode } from "../../core/cli_table.ts";
import type { PositionalMapper, RunContext, ToolOutcome } from "../../core/tool.ts";
import { resolve } from "../../core/path_syntax.ts";
import { decodeText } from "../../core/utf8.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { queryEnvelope } from "../../schema/envelope_build.ts";
import { LLM_CONTEXT } from "../../schema/tool_names.ts";
import { context } from "./engine.ts";
import type { ContextInput } from "./input.ts";

/** Most bytes a task file may hold. */
const TASK_FILE_BYTES = 1 << 20;

/** The task text of an input: the argument, standard input (`-`), or the task file. */
async function taskOf(
  input: ContextInput,
  cwd: string,
  readStdin: (() => Promise<string>) | undefined,
): Promise<string> {
  if (input.task === "-" && readStdin) return await readStdin();
  if (input.task !== undefined) return input.task;
  if (input.task_file === undefined) return "";
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(resolve(cwd, input.task_file));
  } catch (error) {
    // A permission refusal is the framework's PERM code; a file that is not there, or a folder,
    // is the task file's fault.
    if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
      throw error;
    }
    throw new ToolError(
      "LMC-ARG-011",
      `${input.task_file} cannot be read as the task: ${(error as Error).message}`,
      { file: input.task_file },
    );
  }
  if (bytes.length > TASK_FILE_BYTES || bytes.subarray(0, 8192).includes(0)) {
    throw new ToolError(
      "LMC-ARG-011",
      `${input.task_file} is not a task text (${
        bytes.length > TASK_FILE_BYTES ? "over 1 MiB" : "binary"
      })`,
    );
  }
  return decodeText(bytes);
}

/**
 * The command line's positional: the task, quoted as one argument.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextPositionals } from "./run.ts";
 * assert.deepEqual(contextPositionals(["why does parse fail"], {}), { task: "why does parse fail" });
 * ```
 */
export const contextPositionals: PositionalMapper = (positionals) => {
  if (positionals.length > 1) {
    throw new ToolError(
      "LMC-ARG-010",
      `unexpected argument '${positionals[1]}': quote the task as one argument`,
    );
  }
  return positionals.length === 1 ? { task: positionals[0] } : {};
};

/** Runs `llm-context` on checked input. */
export async function runContext(
  input: ContextInput,
  runContext: RunContext,
): Promise<ToolOutcome> {
  const read = runContext.readStdinBytes;
  const task = await taskOf(
    input,
    runContext.cwd,
    read ? async () => decodeText(await read()) : undefined,
  );
  const outcome = await context({
    cwd: runContext.cwd,
    task,
    symbol: input.symbol,
    budget: input.budget,
    paths: input.paths,
    language: input.language,
    exclude: input.exclude,
    focus: input.focus,
    cache: runContext.cache,
    signal: runContext.signal,
    ...(runContext.deadline === undefined ? {} : { deadline: runContext.deadline }),
  });
  return {
    envelope: queryEnvelope(LLM_CONTEXT, outcome.data, outcome.diagnostics, {
      executionId: runContext.executionId,
      partial: outcome.partial,
    }),
  };
}

/** `llm-context` as its command line runs it (`main.ts`) and its definition declares it. */
export const CONTEXT_CODE: CommandCode<ContextInput> = {
  run: runContext,
  positionals: contextPositionals,
};
