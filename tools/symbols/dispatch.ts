/**
 * The full command line of `llm-symbols`, by the subcommands' definitions: the top-level help,
 * each subcommand through `runCli` (flags from its zod input schema), and the error of an
 * unknown subcommand (`core/subcommands.ts`). `main.ts` loads it when its fast path cannot
 * answer.
 *
 * @module
 */
import { runSubcommand, type SubcommandProgram, subcommandsHelp } from "../../core/subcommands.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { SYMBOLS_SUBCOMMANDS } from "./tool.ts";

/** `llm-symbols` as a program of subcommands. */
const SYMBOLS_PROGRAM: SubcommandProgram = {
  name: LLM_SYMBOLS,
  summary: "symbol index and code graph queries",
  subcommands: SYMBOLS_SUBCOMMANDS,
  column: 10,
  notes: [
    "The index is <root>/.llm/index.db (--db to choose); the root is the working directory.",
    "`index` needs --allow-read --allow-write=<root>/.llm; every query needs --allow-read only.",
  ],
  kind: "query",
  unknownCode: "MAG-ARG-001",
};

/**
 * The top-level `--help` of `llm-symbols`: its subcommands.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { symbolsHelp } from "./dispatch.ts";
 * assert.match(symbolsHelp(), /callers/);
 * ```
 */
export function symbolsHelp(): string {
  return subcommandsHelp(SYMBOLS_PROGRAM);
}

/**
 * Runs `llm-symbols` with `args`: the first names the subcommand. Returns the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSymbolsCommand } from "./dispatch.ts";
 * assert.equal(await runSymbolsCommand(["--version"]), 0); // prints "llm-symbols <version>"
 * ```
 */
export async function runSymbolsCommand(args: string[]): Promise<number> {
  return await runSubcommand(SYMBOLS_PROGRAM, args);
}
