/**
 * The command-line adapter derived from a tool definition: flags from the input schema,
 * `--help`, `--explain CODE`, `--format json|jsonl|text|compact`, and the contract's exit codes.
 * Stdout carries exactly one JSON document (or JSONL) whatever happens; help goes to stdout
 * only when asked for, messages to stderr.
 *
 * @module
 */
import { z } from "zod";
import { fieldMeta, unwrapField } from "../schema/fields.ts";
import {
  argError,
  type BareFlag,
  type FlagKind,
  flagName,
  type FlagSpec,
  hasOutputFlags,
  parseCommandLineBy,
  type ParsedCommandLine,
  runCommandLine,
} from "./cli_run.ts";
import { compactEnvelope } from "../schema/compact.ts";
import type { Envelope } from "../schema/envelope_build.ts";
import type { CommandSpec, Tool } from "./tool.ts";
import { VERSION } from "./version.ts";

export type { BareFlag, FlagSpec, OutputFormat, ParsedCommandLine } from "./cli_run.ts";

/** A flag as `--help` shows it: what parsing needs, and its text, default, choices. */
export interface FlagHelp extends FlagSpec {
  /** Its description (the field's). */
  description: string;
  /** The field's default. */
  defaultValue?: unknown;
  /** The values an enum flag takes. */
  choices?: readonly string[];
  /** Its values name files or directories. */
  path: boolean;
}

/** The default of a field, from the outermost `.default()` among its wrappers. */
function defaultOf(schema: z.ZodType): unknown {
  for (let current = schema;;) {
    if (current instanceof z.ZodDefault) return current.def.defaultValue;
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.def.innerType as z.ZodType;
    } else return undefined;
  }
}

function kindOf(base: z.ZodType): FlagKind {
  if (base instanceof z.ZodBoolean) return "boolean";
  if (base instanceof z.ZodNumber) return "number";
  if (base instanceof z.ZodEnum) return "enum";
  if (base instanceof z.ZodArray) return "strings";
  return "string";
}

/**
 * The flags a command's input schema gives it, in schema order: the one derivation of flags
 * from zod, used live here and written by `deno task schema` into the flag table of the fast
 * path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flagSpecs } from "./cli.ts";
 * import { searchTool } from "@llm/search";
 * assert.ok(flagSpecs(searchTool).some((spec) => spec.flag === "ignore-case"));
 * ```
 */
export function flagSpecs(command: Pick<CommandSpec, "input">): FlagHelp[] {
  return Object.entries(command.input.shape).map(([field, schema]) => {
    const base = unwrapField(schema as z.ZodType);
    const meta = fieldMeta(schema as z.ZodType);
    const choices = base instanceof z.ZodEnum ? (base.options as string[]) : undefined;
    const bare = bareFlag(field, meta.bare, choices);
    return {
      field,
      flag: flagName(field),
      kind: kindOf(base),
      short: meta.short,
      aliases: (meta.aliases ?? []).map(flagName),
      description: (schema as z.ZodType).description ?? base.description ?? "",
      defaultValue: defaultOf(schema as z.ZodType),
      choices,
      integer: base instanceof z.ZodNumber && base.format === "safeint",
      path: meta.path ?? false,
      ...(bare ? { bare } : {}),
    };
  });
}

/** What a field's flag means given alone: its `bare` value, which must be one of its choices. */
function bareFlag(
  field: string,
  value: string | undefined,
  choices: readonly string[] | undefined,
): BareFlag | undefined {
  if (value === undefined) return undefined;
  if (!choices?.includes(value)) {
    throw new Error(
      `field ${field}: a bare value must be one of the field's enum values, got '${value}'`,
    );
  }
  return { value, values: choices };
}

function describeDefault(spec: FlagHelp): string {
  const alone = spec.bare ? ` [alone: ${JSON.stringify(spec.bare.value)}]` : "";
  if (spec.defaultValue === undefined || spec.defaultValue === false) return alone;
  if (Array.isArray(spec.defaultValue) && spec.defaultValue.length === 0) return alone;
  return ` [default: ${JSON.stringify(spec.defaultValue)}]${alone}`;
}

function flagRow(spec: FlagHelp): [string, string] {
  const names = [
    spec.short ? `-${spec.short}` : undefined,
    `--${spec.flag}`,
    ...spec.aliases.map((alias) => `--${alias}`),
  ].filter(Boolean).join(", ");
  const value = spec.kind === "boolean"
    ? ""
    : spec.choices
    ? spec.bare ? ` [<${spec.choices.join("|")}>]` : ` <${spec.choices.join("|")}>`
    : spec.kind === "number"
    ? " <N>"
    : spec.kind === "strings"
    ? ` <${spec.path ? "PATH" : "VALUE"}>...`
    : ` <${spec.path ? "PATH" : "VALUE"}>`;
  return [`${names}${value}`, `${spec.description}${describeDefault(spec)}`];
}

const OUTPUT_ROWS: [string, string][] = [
  ["--format <json|jsonl|text|compact>", 'Output format [default: "json"]'],
  ["--explain <CODE>", "Print the registry entry of an error code and exit"],
  ["-E, --error-codes", "Accepted for compatibility: codes are always present"],
  ["--debug", "Add stack traces to internal errors"],
  ["--log", "Log this run in <root>/.llm/log (read-only tools need --allow-write=<root>/.llm)"],
];

const HELP_ROWS: [string, string][] = [
  ["-h, --help", "Print this help"],
  ["-V, --version", "Print the version"],
];

const TOOL_EXIT_CODES =
  "  0 ran (also with no results)  1 pending changes or drift  2 bad arguments or input\n" +
  "  3 a precondition refused the work  4 missing permission  5 internal error";

/**
 * The `--help` text of a command, derived from its definition.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { helpText } from "./cli.ts";
 * import { searchTool } from "@llm/search";
 * assert.ok(helpText(searchTool).startsWith("llm-search"));
 * ```
 */
export function helpText(command: CommandSpec): string {
  const rows = flagSpecs(command).map(flagRow);
  const common = [...(hasOutputFlags(command) ? OUTPUT_ROWS : []), ...HELP_ROWS];
  const width = Math.min(36, Math.max(...[...rows, ...common].map(([names]) => names.length)) + 2);
  const table = (entries: string[][]) =>
    entries.map(([names, text]) =>
      names.length + 2 > width
        ? `  ${names}\n  ${" ".repeat(width)}${text}`
        : `  ${names.padEnd(width)}${text}`
    ).join("\n");
  const cli = command.cli;
  return [
    `${command.name} ${VERSION} — ${command.title}`,
    "",
    command.description,
    "",
    ...(cli.notes ? [cli.notes, ""] : []),
    `USAGE:\n  ${command.name} ${cli.usage}`,
    "",
    `FLAGS:\n${table(rows)}`,
    "",
    `COMMON FLAGS:\n${table(common)}`,
    "",
    `EXAMPLES:\n${cli.examples.map((example) => `  ${example}`).join("\n")}`,
    "",
    `EXIT CODES:\n${cli.exitCodes ?? TOOL_EXIT_CODES}`,
    "",
  ].join("\n");
}

/**
 * Parses `args` by the flags a command's definition derives. Throws a `*-ARG-001`
 * {@linkcode ToolError} for an unknown flag, a flag's missing or malformed value, or an
 * unexpected argument.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommandLine } from "./cli.ts";
 * import { searchTool } from "@llm/search";
 * assert.deepEqual(parseCommandLine(searchTool, ["-i", "TODO", "src"]).input(), {
 *   ignore_case: true, patterns: ["TODO"], paths: ["src"],
 * });
 * ```
 */
export function parseCommandLine(command: CommandSpec, args: string[]): ParsedCommandLine {
  return parseCommandLineBy(command, flagSpecs(command), args);
}

/**
 * Parses a program's own options (`llm-mcp`'s) by its definition and checks them against its
 * schema: the options after defaults, or `help`/`version` when those were asked for. A value
 * the schema refuses is a `*-ARG-001` {@linkcode ToolError} naming the flag: `--flag message,
 * got 'value'`, so the schema's messages are written to follow a flag name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { parseProgramOptions } from "./cli.ts";
 * const program = {
 *   name: "llm-demo", title: "Demo", description: "Demo.", prefix: "MCP" as const,
 *   input: z.object({ port: z.number().int().min(1, "takes a port number").default(80) }),
 *   cli: { usage: "[FLAGS]", examples: [], outputFlags: false },
 * };
 * assert.deepEqual(parseProgramOptions(program, ["--port", "8080"]), {
 *   kind: "options", options: { port: 8080 },
 * });
 * ```
 */
export function parseProgramOptions<T extends z.ZodObject>(
  command: CommandSpec & { input: T },
  args: string[],
): { kind: "help" } | { kind: "version" } | { kind: "options"; options: z.output<T> } {
  const line = parseCommandLine(command, args);
  if (line.help) return { kind: "help" };
  if (line.version) return { kind: "version" };
  const input = line.input();
  const parsed = command.input.safeParse(input);
  if (parsed.success) return { kind: "options", options: parsed.data as z.output<T> };
  const issue = parsed.error.issues[0];
  const field = String(issue.path[0] ?? "");
  const given = input[field];
  throw argError(
    command,
    `--${flagName(field)} ${issue.message}${given === undefined ? "" : `, got '${given}'`}`,
  );
}

/**
 * Runs a tool as a command: parses `args`, runs, prints one JSON document (or JSONL, or text)
 * on stdout and returns the exit code. Never throws. The run is also appended to the execution
 * log of its root (see `core/cli_log.ts`) unless `options.log` is false.
 *
 * @example Make a tool a command
 * ```ts
 * import assert from "node:assert/strict";
 * import { runCli, searchTool } from "@llm/search";
 * if (import.meta.main) Deno.exit(await runCli(searchTool, Deno.args));
 * assert.equal(await runCli(searchTool, ["--version"]), 0); // prints "llm-search 0.1.0"
 * ```
 */
export async function runCli(
  tool: Tool,
  args: string[],
  options: { log?: boolean } = {},
): Promise<number> {
  const reader = {
    parse: () => parseCommandLine(tool, args),
    help: () => helpText(tool),
    compact: (envelope: Envelope) => compactEnvelope(envelope, tool.compact?.form),
  };
  return await runCommandLine(tool, args, reader, options);
}
