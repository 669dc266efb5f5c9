/**
 * The command-line adapter derived from a tool definition: flags from the input schema,
 * `--help`, `--explain CODE`, `--format json|jsonl|text|compact`, and the contract's exit codes.
 * Stdout carries exactly one JSON document (or JSONL) whatever happens; help goes to stdout
 * only when asked for, messages to stderr.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { ToolError } from "../schema/diagnostic.ts";
import type { Envelope, QueryEnvelope } from "../schema/envelope.ts";
import { EXIT, explainCode } from "../schema/error_codes.ts";
import { newId } from "../schema/ids.ts";
import { logCliRun } from "./cli_log.ts";
import { failureOutcome } from "./failure.ts";
import { fieldMeta, unwrapField } from "../schema/fields.ts";
import type { CommandSpec, RunContext, Tool, ToolOutcome } from "./tool.ts";
import { VERSION } from "./version.ts";

/** Output formats every CLI accepts (`compact`: the contract's compact form, as MCP answers). */
export type OutputFormat = "json" | "jsonl" | "text" | "compact";

const FORMATS: readonly OutputFormat[] = ["json", "jsonl", "text", "compact"];

type FlagKind = "boolean" | "string" | "number" | "strings" | "enum";

interface FlagSpec {
  field: string;
  flag: string;
  kind: FlagKind;
  short?: string;
  /** Other long flag names of the field (its aliases, kebab-cased). */
  aliases: string[];
  description: string;
  defaultValue?: unknown;
  choices?: readonly string[];
  /** A number flag whose schema takes whole numbers only. */
  integer?: boolean;
  /** Its values name files or directories. */
  path: boolean;
}

interface ParseOption {
  type: "boolean" | "string";
  multiple?: boolean;
  short?: string;
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

function flagName(field: string): string {
  return field.replaceAll("_", "-");
}

/** The flags a command's input schema gives it, in schema order. */
function flagSpecs(command: CommandSpec): FlagSpec[] {
  return Object.entries(command.input.shape).map(([field, schema]) => {
    const base = unwrapField(schema as z.ZodType);
    const meta = fieldMeta(schema as z.ZodType);
    return {
      field,
      flag: flagName(field),
      kind: kindOf(base),
      short: meta.short,
      aliases: (meta.aliases ?? []).map(flagName),
      description: (schema as z.ZodType).description ?? base.description ?? "",
      defaultValue: defaultOf(schema as z.ZodType),
      choices: base instanceof z.ZodEnum ? (base.options as string[]) : undefined,
      integer: base instanceof z.ZodNumber && base.format === "safeint",
      path: meta.path ?? false,
    };
  });
}

const HELP_OPTIONS: Record<string, ParseOption> = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
};

const OUTPUT_OPTIONS: Record<string, ParseOption> = {
  explain: { type: "string" },
  format: { type: "string" },
  debug: { type: "boolean" },
  "error-codes": { type: "boolean", short: "E" },
  log: { type: "boolean" },
};

/** Whether the command takes the output flags (tools do; `llm-mcp` does not). */
function hasOutputFlags(command: CommandSpec): boolean {
  return command.cli.outputFlags ?? true;
}

/**
 * The `parseArgs` options of a command. A name or letter given twice is a mistake in the
 * definition, reported as such rather than one flag silently shadowing another.
 */
function parseOptions(command: CommandSpec, specs: FlagSpec[]): Record<string, ParseOption> {
  const options: Record<string, ParseOption> = {
    ...HELP_OPTIONS,
    ...(hasOutputFlags(command) ? OUTPUT_OPTIONS : {}),
  };
  const letters = new Set(Object.values(options).map((option) => option.short));
  const add = (name: string, option: ParseOption) => {
    if (name in options) throw new Error(`${command.name}: flag --${name} is defined twice`);
    if (option.short !== undefined) {
      if (letters.has(option.short)) {
        throw new Error(`${command.name}: flag -${option.short} is defined twice`);
      }
      letters.add(option.short);
    }
    options[name] = option;
  };
  for (const spec of specs) {
    const type = spec.kind === "boolean" ? "boolean" : "string";
    const multiple = spec.kind === "strings";
    add(spec.flag, spec.short ? { type, multiple, short: spec.short } : { type, multiple });
    for (const alias of spec.aliases) add(alias, { type, multiple });
  }
  return options;
}

/**
 * Joins a value-taking flag with a next argument that begins with `-` (`-e -foo` →
 * `--patterns=-foo`): the flag takes it whatever it looks like, as in ripgrep, where
 * `parseArgs` would call it ambiguous.
 */
function joinDashValues(args: string[], options: Record<string, ParseOption>): string[] {
  const takesValue = new Map<string, string>();
  for (const [name, option] of Object.entries(options)) {
    if (option.type !== "string") continue;
    takesValue.set(`--${name}`, name);
    if (option.short) takesValue.set(`-${option.short}`, name);
  }
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") return [...joined, ...args.slice(i)];
    const name = takesValue.get(args[i]);
    if (name !== undefined && args[i + 1]?.startsWith("-")) joined.push(`--${name}=${args[++i]}`);
    else joined.push(args[i]);
  }
  return joined;
}

function argError(command: CommandSpec, message: string, note?: string): ToolError {
  return new ToolError(`${command.prefix}-ARG-001`, message, note ? { note } : {});
}

const WHOLE_NUMBER = /^[+-]?\d+$/;
const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The value of a number flag, parsed as strictly as ripgrep does: decimal digits only (no
 * `0x10`, `1e3` or blanks where a whole number is expected) and no value beyond what a number
 * holds exactly, so nothing is silently rounded or read as another value.
 */
function numberFlag(command: CommandSpec, flag: string, value: string, spec: FlagSpec): number {
  const integer = spec.integer ?? false;
  if (!(integer ? WHOLE_NUMBER : DECIMAL_NUMBER).test(value)) {
    throw argError(
      command,
      `--${flag} takes ${
        integer ? "a whole number in decimal digits" : "a number"
      }, got '${value}'`,
    );
  }
  const number = Number(value);
  if (integer ? !Number.isSafeInteger(number) : !Number.isFinite(number)) {
    throw argError(
      command,
      `--${flag} ${value} is out of range`,
      `the largest value is ${Number.MAX_SAFE_INTEGER}`,
    );
  }
  return number;
}

/** Turns parsed flag values into the raw input object, coercing numbers. */
function inputFromFlags(
  command: CommandSpec,
  specs: FlagSpec[],
  values: Record<string, unknown>,
  positionals: string[],
): Record<string, unknown> {
  const byFlag = new Map<string, FlagSpec>();
  for (const spec of specs) {
    for (const name of [spec.flag, ...spec.aliases]) byFlag.set(name, spec);
  }
  const input: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(values)) {
    const spec = byFlag.get(flag);
    if (!spec || value === undefined) continue;
    if (spec.kind === "number") {
      input[spec.field] = numberFlag(command, flag, String(value), spec);
    } else if (spec.kind === "strings") {
      const previous = (input[spec.field] as string[] | undefined) ?? [];
      input[spec.field] = [...previous, ...(value as string[])];
    } else input[spec.field] = value;
  }
  if (command.cli.positionals) return { ...input, ...command.cli.positionals(positionals, input) };
  if (positionals.length) throw argError(command, `unexpected argument '${positionals[0]}'`);
  return input;
}

function describeDefault(spec: FlagSpec): string {
  if (spec.defaultValue === undefined || spec.defaultValue === false) return "";
  if (Array.isArray(spec.defaultValue) && spec.defaultValue.length === 0) return "";
  return ` [default: ${JSON.stringify(spec.defaultValue)}]`;
}

function flagRow(spec: FlagSpec): [string, string] {
  const names = [
    spec.short ? `-${spec.short}` : undefined,
    `--${spec.flag}`,
    ...spec.aliases.map((alias) => `--${alias}`),
  ].filter(Boolean).join(", ");
  const value = spec.kind === "boolean"
    ? ""
    : spec.choices
    ? ` <${spec.choices.join("|")}>`
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
 * import { helpText } from "./cli.ts";
 * import { searchTool } from "@llm/search/search";
 * helpText(searchTool).startsWith("llm-search"); // true
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

/** A command line taken apart: the common flags, and the raw input of the command's fields. */
export interface ParsedCommandLine {
  /** `-h`/`--help` was given. */
  help: boolean;
  /** `-V`/`--version` was given. */
  version: boolean;
  /** The code of `--explain CODE`. */
  explain?: string;
  /** The `--format` asked for. */
  format: OutputFormat;
  /** `--debug` was given. */
  debug: boolean;
  /** `--log` was given: the run asks to be logged. */
  log: boolean;
  /**
   * The fields' values as the flags and positionals give them, not yet schema-checked. Throws a
   * `*-ARG-001` {@linkcode ToolError} for a malformed number or an unexpected argument.
   */
  input(): Record<string, unknown>;
}

/**
 * Parses `args` by the flags a command's definition derives. Throws a `*-ARG-001`
 * {@linkcode ToolError} for an unknown flag, a flag's missing or malformed value, or an
 * unexpected argument.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from "./cli.ts";
 * import { searchTool } from "@llm/search/search";
 * parseCommandLine(searchTool, ["-i", "TODO", "src"]).input();
 * // { ignore_case: true, patterns: ["TODO"], paths: ["src"] }
 * ```
 */
export function parseCommandLine(command: CommandSpec, args: string[]): ParsedCommandLine {
  const specs = flagSpecs(command);
  const options = parseOptions(command, specs);
  let parsed;
  try {
    parsed = parseArgs({
      args: joinDashValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw argError(command, error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Record<string, unknown>;
  const requested = values.format ?? "json";
  if (!FORMATS.includes(requested as OutputFormat)) {
    throw argError(command, `--format takes ${FORMATS.join(", ")}, got '${requested}'`);
  }
  return {
    help: values.help === true,
    version: values.version === true,
    explain: typeof values.explain === "string" ? values.explain : undefined,
    format: requested as OutputFormat,
    debug: values.debug === true,
    log: values.log === true,
    input: () => inputFromFlags(command, specs, values, parsed.positionals),
  };
}

/**
 * Parses a program's own options (`llm-mcp`'s) by its definition and checks them against its
 * schema: the options after defaults, or `help`/`version` when those were asked for. A value
 * the schema refuses is a `*-ARG-001` {@linkcode ToolError} naming the flag: `--flag message,
 * got 'value'`, so the schema's messages are written to follow a flag name.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { parseProgramOptions } from "./cli.ts";
 * const program = {
 *   name: "llm-demo", title: "Demo", description: "Demo.", prefix: "MCP" as const,
 *   input: z.object({ port: z.number().int().min(1, "takes a port number").default(80) }),
 *   cli: { usage: "[FLAGS]", examples: [], outputFlags: false },
 * };
 * parseProgramOptions(program, ["--port", "8080"]); // { kind: "options", options: { port: 8080 } }
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

const encoder = new TextEncoder();

function writeStdout(text: string): void {
  const bytes = encoder.encode(text);
  let written = 0;
  try {
    while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
  } catch (error) {
    // The reader went away (`| head`): nobody wants the rest, so stop quietly, as ripgrep does.
    if (error instanceof Deno.errors.BrokenPipe) Deno.exit(EXIT.ok);
    throw error;
  }
}

function exitCodeOf(outcome: ToolOutcome): number {
  if (outcome.exitCode !== undefined) return outcome.exitCode;
  const envelope = outcome.envelope;
  if (envelope.status !== "error" && envelope.status !== "rejected") return EXIT.ok;
  const error = "error" in envelope && envelope.error
    ? envelope.error
    : envelope.diagnostics.find((d) => d.level === "error");
  return error ? explainCode(error.code)?.exit ?? EXIT.internal : EXIT.refused;
}

/** One JSONL result line: the tool's item type first, which an item may override (`file`, `count`). */
function itemLine(tool: Tool, item: unknown): string {
  return JSON.stringify({ type: tool.itemType ?? "item", ...item as object }) + "\n";
}

/** Writes the envelope's list items one per line, then the summary object. */
function writeJsonl(tool: Tool, envelope: Envelope): void {
  const key = tool.listKey;
  if (tool.kind !== "query" || !key) {
    writeStdout(JSON.stringify({ type: "summary", ...envelope }) + "\n");
    return;
  }
  const query = envelope as QueryEnvelope;
  const data = { ...(query.data as unknown as Record<string, unknown>) };
  const items = Array.isArray(data[key]) ? data[key] as unknown[] : [];
  delete data[key];
  let text = "";
  for (const item of items) {
    text += itemLine(tool, item);
  }
  writeStdout(text + JSON.stringify({ type: "summary", ...query, data }) + "\n");
}

async function writeOutcome(tool: Tool, format: OutputFormat, outcome: ToolOutcome) {
  if (format === "jsonl") writeJsonl(tool, outcome.envelope);
  else if (format === "text") writeStdout(tool.renderText(outcome.envelope));
  else if (format === "compact") {
    // Loaded only when asked for: it builds every tool's result schemas, which a run's start-up
    // should not pay for (each CLI builds only its own).
    const { compactEnvelope } = await import("../schema/compact.ts");
    writeStdout(JSON.stringify(compactEnvelope(outcome.envelope)) + "\n");
  } else writeStdout(JSON.stringify(outcome.envelope) + "\n");
}

/** Streaming line writer for JSONL items, flushing in blocks to keep syscalls few. */
function jsonlEmitter(tool: Tool): { emit: (item: unknown) => void; flush: () => void } {
  let buffer = "";
  const flush = () => {
    if (buffer) writeStdout(buffer);
    buffer = "";
  };
  return {
    emit(item) {
      buffer += itemLine(tool, item);
      if (buffer.length > 1 << 16) flush();
    },
    flush,
  };
}

/**
 * Runs a tool as a command: parses `args`, runs, prints one JSON document (or JSONL, or text)
 * on stdout and returns the exit code. Never throws. The run is also appended to the execution
 * log of its root (see `core/cli_log.ts`) unless `options.log` is false.
 *
 * @example Make a tool a command
 * ```ts
 * import { runCli } from "@llm/search";
 * import { searchTool } from "@llm/search/search";
 * if (import.meta.main) Deno.exit(await runCli(searchTool, Deno.args));
 * ```
 */
export async function runCli(
  tool: Tool,
  args: string[],
  options: { log?: boolean } = {},
): Promise<number> {
  const executionId = newId();
  const debug = args.includes("--debug");
  let format: OutputFormat = "json";
  const startedAt = new Date();
  let input: Record<string, unknown> = {};
  const streamed: unknown[] = [];
  let logRequested = false;
  // Logged before the output is written: a reader that goes away (`| head`) ends the process.
  const log = (outcome: ToolOutcome) => {
    if (options.log === false) return;
    const run = { tool, argv: args, input, outcome, startedAt, streamed, cwd: Deno.cwd() };
    logCliRun({ ...run, requested: logRequested });
  };
  try {
    const line = parseCommandLine(tool, args);
    format = line.format;
    logRequested = line.log;
    if (line.help) {
      writeStdout(helpText(tool));
      return EXIT.ok;
    }
    if (line.version) {
      writeStdout(`${tool.name} ${VERSION}\n`);
      return EXIT.ok;
    }
    if (line.explain !== undefined) {
      const entry = explainCode(line.explain);
      if (!entry) {
        throw new ToolError(`${tool.prefix}-ARG-002`, `unknown error code '${line.explain}'`, {
          remediation: "Codes read PREFIX-CATEGORY-NNN, e.g. LMS-QRY-001.",
        });
      }
      writeStdout(
        format === "text"
          ? `${entry.code}: ${entry.meaning}\ncause: ${entry.cause}\nremediation: ${entry.remediation}\nexit: ${entry.exit}\n`
          : JSON.stringify(entry) + "\n",
      );
      return EXIT.ok;
    }
    input = line.input();
    const stream = format === "jsonl" && tool.listKey ? jsonlEmitter(tool) : undefined;
    const context: RunContext = {
      executionId,
      cwd: Deno.cwd(),
      emit: stream && ((item) => {
        streamed.push(item);
        stream.emit(item);
      }),
      readStdin: () => new Response(Deno.stdin.readable).text(),
    };
    const outcome = await tool.execute(input, context);
    stream?.flush();
    log(outcome);
    await writeOutcome(tool, format, outcome);
    reportErrors(tool, outcome);
    return exitCodeOf(outcome);
  } catch (thrown) {
    const outcome = failureOutcome(tool, thrown, executionId, debug);
    if (debug && thrown instanceof Error && thrown.stack) console.error(thrown.stack);
    log(outcome);
    await writeOutcome(tool, format === "text" ? "json" : format, outcome);
    reportErrors(tool, outcome);
    return exitCodeOf(outcome);
  }
}

/** Repeats a run's errors on stderr for people watching the terminal (stdout stays JSON). */
function reportErrors(tool: Tool, outcome: ToolOutcome): void {
  const envelope = outcome.envelope;
  const errors = [
    ...("error" in envelope && envelope.error ? [envelope.error] : []),
    ...envelope.diagnostics.filter((d) => d.level === "error"),
  ];
  for (const error of new Set(errors)) {
    console.error(`${tool.name}: ${error.code}: ${error.message}`);
  }
}
