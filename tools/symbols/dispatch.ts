/**
 * The full command line of `llm-symbols`, by the subcommands' definitions: the top-level help,
 * each subcommand through `runCli` (flags from its zod input schema), and the error of an
 * unknown subcommand. `main.ts` loads it when its fast path cannot answer.
 *
 * @module
 */
import { runCli } from "../../core/cli.ts";
import { failureEnvelope } from "../../core/failure.ts";
import { VERSION } from "../../core/version.ts";
import { closestNames } from "../../grammars/closest_names.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { newId } from "../../schema/ids.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import { SYMBOLS_SUBCOMMANDS } from "./tool.ts";

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
  const rows = Object.entries(SYMBOLS_SUBCOMMANDS).map(([name, tool]) =>
    `  ${name.padEnd(10)} ${tool.title}`
  );
  return [
    `${LLM_SYMBOLS} ${VERSION} — symbol index and code graph queries`,
    "",
    "USAGE:",
    `  ${LLM_SYMBOLS} SUBCOMMAND [FLAGS] [ARGS]`,
    `  ${LLM_SYMBOLS} SUBCOMMAND --help`,
    "",
    "SUBCOMMANDS:",
    ...rows,
    "",
    "The index is <root>/.llm/index.db (--db to choose); the root is the working directory.",
    "`index` needs --allow-read --allow-write=<root>/.llm; every query needs --allow-read only.",
    "",
  ].join("\n");
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
  const [first, ...rest] = args;
  const tool = first === undefined ? undefined : SYMBOLS_SUBCOMMANDS[first];
  if (tool) return await runCli(tool, rest);
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    await Deno.stdout.write(new TextEncoder().encode(symbolsHelp()));
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-V") {
    await Deno.stdout.write(new TextEncoder().encode(`${LLM_SYMBOLS} ${VERSION}\n`));
    return 0;
  }
  return unknownSubcommand(first);
}

/** Prints the `MAG-ARG-001` envelope of an unknown subcommand and returns its exit code. */
async function unknownSubcommand(name: string): Promise<number> {
  const names = Object.keys(SYMBOLS_SUBCOMMANDS);
  const close = closestNames(name, names, 1);
  const error = new ToolError(
    "MAG-ARG-001",
    `unknown subcommand '${name}'${close.length ? `; did you mean '${close[0]}'?` : ""}`,
    { note: `subcommands: ${names.join(", ")}` },
  );
  const info = { name: LLM_SYMBOLS, kind: "query" as const, mcpName: LLM_SYMBOLS };
  const envelope = failureEnvelope(info, error, newId());
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(envelope) + "\n"));
  console.error(`${LLM_SYMBOLS}: ${error.code}: ${error.message}`);
  return error.exitCode;
}
