/**
 * `llm-context`: from a task to the code it needs, ranked and fitted to a token budget, with no
 * model.
 *
 * ```sh
 * deno run --allow-read=. jsr:@llm/search/context --task-file issue.md --budget 4000
 * ```
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokensOf } from "@llm/search/context";
 * assert.equal(tokensOf("12345"), 2);
 * ```
 *
 * @module
 */
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/context.json" with { type: "json" };
import { LLM_CONTEXT } from "../../schema/tool_names.ts";
import { CONTEXT_CODE } from "./run.ts";

export { context, type ContextOptions, type ContextResult, tokensOf } from "./engine.ts";
export type { Evidence } from "./rank.ts";
export type {
  ContextBlock,
  ContextData,
  ContextFile,
  ContextMember,
  ContextNext,
  ContextOmitted,
} from "../../schema/context.ts";

/**
 * Runs `llm-context` with `args` and returns the exit code. The command line is parsed, checked
 * and explained by the command's generated table, so no run loads zod.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runContextCli } from "@llm/search/context";
 * assert.equal(await runContextCli(["--version"]), 0); // prints "llm-context <version>"
 * ```
 */
export async function runContextCli(args: string[]): Promise<number> {
  return await runCommand(tableOf(TABLES, LLM_CONTEXT), CONTEXT_CODE, args);
}

if (import.meta.main) Deno.exit(await runContextCli(Deno.args));
