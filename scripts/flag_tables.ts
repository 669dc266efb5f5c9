/**
 * The command tables (`core/tables/<program>.json`, which each entrypoint parses its command line
 * by, `core/cli_table.ts`), derived from the zod input schemas by `deno task schema`: for every
 * command — each tool and subcommand of the registry and of `llm-symbols`/`llm-refactor`,
 * `llm-log` and `llm-mcp`'s own options — its flags, its `--help` texts and each field's rule
 * (`commandTable` in `core/cli.ts`). A program's file holds the tables of its own commands only
 * (`symbols.json`: every `llm-symbols` subcommand), so an entrypoint reads no other's. A test
 * fails while a file is stale.
 *
 * @module
 */
import { commandTable } from "../core/cli.ts";
import type { CommandTable } from "../core/cli_table.ts";
import type { CommandSpec, Tool } from "../core/tool.ts";
import { logTool } from "../tools/log/tool.ts";
import { MCP_COMMAND } from "../tools/mcp/options.ts";
import { REFACTOR_SUBCOMMANDS } from "../tools/refactor/tool.ts";
import { TOOLS } from "../tools/registry.ts";
import { SYMBOLS_SUBCOMMANDS } from "../tools/symbols/tool.ts";

/**
 * Every command with a command line: the registry's tools, every subcommand of `llm-symbols` and
 * `llm-refactor`, `llm-log` and `llm-mcp`, each once, in that order.
 */
export function commands(): (CommandSpec | Tool)[] {
  const all = new Map<string, CommandSpec | Tool>();
  const extra = [
    ...Object.values(SYMBOLS_SUBCOMMANDS),
    ...Object.values(REFACTOR_SUBCOMMANDS),
    logTool,
    MCP_COMMAND,
  ];
  for (const command of [...TOOLS, ...extra]) {
    if (!all.has(command.name)) all.set(command.name, command);
  }
  return [...all.values()];
}

/** A table as text: a line per property, and a line per field. */
function tableText(table: CommandTable): string {
  const lines = Object.entries(table).map(([key, value]) => {
    if (key !== "fields") return `    ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    const fields = (value as unknown[]).map((field) => `      ${JSON.stringify(field)}`);
    return `    "fields": [\n${fields.join(",\n")}\n    ]`;
  });
  return `  ${JSON.stringify(table.name)}: {\n${lines.join(",\n")}\n  }`;
}

/** The file (from the repository root) that holds the table of `command`: its program's. */
export function tableFile(command: string): string {
  return `core/tables/${command.split(" ")[0].replace(/^llm-/, "")}.json`;
}

/**
 * The table files for `list` (default: every command): path from the repository root → text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tableFiles } from "./flag_tables.ts";
 * const files = tableFiles();
 * const symbols = JSON.parse(files.get("core/tables/symbols.json")!);
 * assert.equal(symbols["llm-symbols find"].fields[0].field, "name");
 * assert.equal(JSON.parse(files.get("core/tables/mcp.json")!)["llm-mcp"].fields[0].field, "root");
 * ```
 */
export function tableFiles(
  list: readonly (CommandSpec | Tool)[] = commands(),
): Map<string, string> {
  const byFolder = new Map<string, string[]>();
  for (const command of list) {
    const path = tableFile(command.name);
    byFolder.set(path, [...byFolder.get(path) ?? [], tableText(commandTable(command))]);
  }
  return new Map([...byFolder].map(([path, tables]) => [path, `{\n${tables.join(",\n")}\n}\n`]));
}
