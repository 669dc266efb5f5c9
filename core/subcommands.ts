/**
 * The command line of a program of subcommands (`llm-symbols`, `llm-refactor`): the first
 * argument names a subcommand, whose command table (`<program> <subcommand>`) and code
 * `runCommand` runs with the rest; none, `--help`,
 * `-h` or `help` prints the program's help (exit 2 when nothing was given, else 0),
 * `--version`/`-V` its version, and an unknown name is the program's `*-ARG-001` envelope,
 * suggesting the closest subcommand.
 *
 * @module
 */
import { type CommandCode, type CommandTables, runCommand, tableOf } from "./cli_table.ts";
import { failureEnvelope } from "./failure.ts";
import type { ToolInfo } from "./tool.ts";
import { VERSION } from "./version.ts";
import { ToolError } from "../schema/diagnostic.ts";
import { newId } from "../schema/ids.ts";

/** A program of subcommands, as its command line and help show it. */
export interface SubcommandProgram {
  /** The program's name, e.g. `llm-symbols` (also its MCP name in an error's envelope). */
  name: string;
  /** What the program does, after its name and version on the help's first line. */
  summary: string;
  /**
   * The subcommands' code by name, in the help's order; each has the command table
   * `<program> <subcommand>`.
   */
  subcommands: Readonly<Record<string, CommandCode>>;
  /** The subcommands' tables (the program's `cli.json`), by command name. */
  tables: CommandTables;
  /** Width the help pads subcommand names to. */
  column: number;
  /** The help's lines after the subcommands. */
  notes: readonly string[];
  /** Kind of the envelope of an unknown subcommand. */
  kind: ToolInfo["kind"];
  /** Code of an unknown subcommand (`MAG-ARG-001`, `SPL-ARG-001`). */
  unknownCode: string;
}

/**
 * The `--help` of `program` without a subcommand: usage, and each subcommand with its title.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { subcommandsHelp } from "./subcommands.ts";
 * const help = subcommandsHelp({
 *   name: "llm-x", summary: "an example", subcommands: {}, tables: {}, column: 8, notes: ["Notes."],
 *   kind: "query", unknownCode: "LMS-ARG-001",
 * });
 * assert.match(help, /^llm-x \S+ — an example\n/);
 * assert.ok(help.endsWith("SUBCOMMANDS:\n\nNotes.\n"));
 * ```
 */
export function subcommandsHelp(program: SubcommandProgram): string {
  const rows = Object.keys(program.subcommands).map((name) =>
    `  ${name.padEnd(program.column)} ${tableOf(program.tables, `${program.name} ${name}`).title}`
  );
  return [
    `${program.name} ${VERSION} — ${program.summary}`,
    "",
    "USAGE:",
    `  ${program.name} SUBCOMMAND [FLAGS] [ARGS]`,
    `  ${program.name} SUBCOMMAND --help`,
    "",
    "SUBCOMMANDS:",
    ...rows,
    "",
    ...program.notes,
    "",
  ].join("\n");
}

/**
 * Runs `program` with `args` (the subcommand first) and returns the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSubcommand } from "./subcommands.ts";
 * const program = {
 *   name: "llm-x", summary: "an example", subcommands: {}, tables: {}, column: 8, notes: [],
 *   kind: "query" as const, unknownCode: "LMS-ARG-001",
 * };
 * assert.equal(await runSubcommand(program, ["--version"]), 0); // prints "llm-x <version>"
 * ```
 */
export async function runSubcommand(program: SubcommandProgram, args: string[]): Promise<number> {
  const [first, ...rest] = args;
  // Own names only: `constructor` or `toString` is no subcommand.
  const code = first === undefined || !Object.hasOwn(program.subcommands, first)
    ? undefined
    : program.subcommands[first];
  if (code) {
    return await runCommand(tableOf(program.tables, `${program.name} ${first}`), code, rest);
  }
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    await Deno.stdout.write(new TextEncoder().encode(subcommandsHelp(program)));
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-V") {
    await Deno.stdout.write(new TextEncoder().encode(`${program.name} ${VERSION}\n`));
    return 0;
  }
  return await unknownSubcommand(program, first);
}

/** Prints the envelope of an unknown subcommand and returns its exit code. */
async function unknownSubcommand(program: SubcommandProgram, name: string): Promise<number> {
  const names = Object.keys(program.subcommands);
  // Loaded here only: a known subcommand's run never needs it.
  const { closestNames } = await import("../grammars/closest_names.ts");
  const close = closestNames(name, names, 1);
  const error = new ToolError(
    program.unknownCode,
    `unknown subcommand '${name}'${close.length ? `; did you mean '${close[0]}'?` : ""}`,
    { note: `subcommands: ${names.join(", ")}` },
  );
  const info = { name: program.name, kind: program.kind, mcpName: program.name };
  const envelope = failureEnvelope(info, error, newId());
  await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(envelope) + "\n"));
  console.error(`${program.name}: ${error.code}: ${error.message}`);
  return error.exitCode;
}
