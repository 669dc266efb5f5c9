/**
 * The command line of a tool without zod: parsing `args` by a table of flags, running, printing
 * one JSON document (or JSONL, or text) and the contract's exit codes. The flags are a command's
 * table (`cli_table.ts`): generated from its zod input schema by `deno task schema` for the
 * commands of this package, derived live by `cli.ts` for any other definition.
 *
 * @module
 */
import { ToolError } from "../schema/diagnostic.ts";
import { FlagError, type FlagOption, parseFlags } from "./flag_parse.ts";
import type { Envelope, QueryEnvelope } from "../schema/envelope_build.ts";
import { EXIT, explainCode } from "../schema/error_codes.ts";
import { newId } from "../schema/ids.ts";
import { logCliRun } from "./cli_log.ts";
import { failureOutcome } from "./failure.ts";
import type { CommandSpec, RunContext, Tool, ToolOutcome } from "./tool.ts";
import { VERSION } from "./version.ts";
import { utf8Input } from "./text_input.ts";

/** Output formats every CLI accepts (`compact`: the contract's compact form, as MCP answers). */
export type OutputFormat = "json" | "jsonl" | "text" | "compact";

const FORMATS: readonly OutputFormat[] = ["json", "jsonl", "text", "compact"];

/** How a flag takes its value. */
export type FlagKind = "boolean" | "string" | "number" | "strings" | "enum";

/** What parsing needs of one flag of a command: its field, names and kind. */
export interface FlagSpec {
  /** The input field it sets. */
  field: string;
  /** Its long name (`--max-count`). */
  flag: string;
  /** How it takes its value. */
  kind: FlagKind;
  /** Its single-letter name, if any. */
  short?: string;
  /** Other long flag names of the field (its aliases, kebab-cased). */
  aliases: string[];
  /** A number flag whose schema takes whole numbers only. */
  integer?: boolean;
  /** An enum flag that may be given alone (`--validate` = `--validate all`). */
  bare?: BareFlag;
}

/** What an enum flag given alone means (a field's `bare` metadata). */
export interface BareFlag {
  /** Its value when given alone. */
  value: string;
  /** The values it takes: the next argument is its value only when it is one of them. */
  values: readonly string[];
}

/** The flag name of a field: `max_count` → `max-count`. */
export function flagName(field: string): string {
  return field.replaceAll("_", "-");
}

const HELP_OPTIONS: Record<string, FlagOption> = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
};

const OUTPUT_OPTIONS: Record<string, FlagOption> = {
  explain: { type: "string" },
  format: { type: "string" },
  debug: { type: "boolean" },
  "error-codes": { type: "boolean", short: "E" },
  log: { type: "boolean" },
};

/** Whether the command takes the output flags (tools do; `llm-mcp` does not). */
export function hasOutputFlags(command: CommandHead): boolean {
  return command.cli.outputFlags ?? true;
}

/**
 * The flag options of a command (`parseFlags`). A name or letter given twice is a mistake in the
 * definition, reported as such rather than one flag silently shadowing another.
 */
function parseOptions(
  command: CommandHead,
  specs: readonly FlagSpec[],
): Record<string, FlagOption> {
  const options: Record<string, FlagOption> = {
    ...HELP_OPTIONS,
    ...(hasOutputFlags(command) ? OUTPUT_OPTIONS : {}),
  };
  const letters = new Set(Object.values(options).map((option) => option.short));
  const add = (name: string, option: FlagOption) => {
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

/** The flags that may be given alone, by each name they are written with (`--x`, `-x`). */
function bareFlags(specs: readonly FlagSpec[]): Map<string, BareFlag> {
  const bare = new Map<string, BareFlag>();
  for (const spec of specs) {
    if (!spec.bare) continue;
    for (const name of [spec.flag, ...spec.aliases]) bare.set(`--${name}`, spec.bare);
    if (spec.short) bare.set(`-${spec.short}`, spec.bare);
  }
  return bare;
}

/**
 * Joins a value-taking flag with its value where `parseFlags` (as `parseArgs`) would not take
 * it: a next argument that begins with `-` (`-e -foo` → `--patterns=-foo`), which the flag
 * takes whatever it looks like, as in ripgrep, where `parseArgs` would call it ambiguous; and
 * the value of a flag given alone (`--validate --dry-run` → `--validate=all --dry-run`), as
 * clap's `default_missing_value`, when the next argument is not one of its values. A flag's
 * letter in a group (`-xv`) takes its value as any value-taking letter does. `loose` records
 * each argument that then stands after a flag given alone: if it is refused as a positional,
 * it was likely meant as a value the flag does not take.
 */
function joinValues(
  args: string[],
  options: Record<string, FlagOption>,
  bare: Map<string, BareFlag>,
  loose: Map<string, string>,
): string[] {
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
    const alone = bare.get(args[i]);
    if (name === undefined) joined.push(args[i]);
    else if (alone && !alone.values.includes(args[i + 1])) {
      joined.push(`--${name}=${alone.value}`);
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith("-")) {
        loose.set(
          next,
          `${args[i]} takes ${alone.values.join(", ")} (alone, it means ${alone.value}); ` +
            `'${next}' is none of them`,
        );
      }
    } else if (args[i + 1]?.startsWith("-")) joined.push(`--${name}=${args[++i]}`);
    else joined.push(args[i]);
  }
  return joined;
}

/** The `*-ARG-001` error of a command line the flags refuse. */
export function argError(command: CommandHead, message: string, note?: string): ToolError {
  return new ToolError(`${command.prefix}-ARG-001`, message, note ? { note } : {});
}

const WHOLE_NUMBER = /^[+-]?\d+$/;
const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The value of a number flag, parsed as strictly as ripgrep does: decimal digits only (no
 * `0x10`, `1e3` or blanks where a whole number is expected) and no value beyond what a number
 * holds exactly, so nothing is silently rounded or read as another value.
 */
function numberFlag(command: CommandHead, flag: string, value: string, spec: FlagSpec): number {
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

/**
 * Turns parsed flag values into the raw input object, coercing numbers. `loose`: the notes of
 * arguments that stood after a flag given alone (see `joinValues`).
 */
function inputFromFlags(
  command: CommandHead,
  specs: readonly FlagSpec[],
  values: Record<string, unknown>,
  positionals: string[],
  loose: ReadonlyMap<string, string>,
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
  if (positionals.length) {
    throw argError(command, `unexpected argument '${positionals[0]}'`, loose.get(positionals[0]));
  }
  return input;
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

/** What parsing a command line needs of a command: its name, error prefix and CLI details. */
export type CommandHead = Pick<CommandSpec, "name" | "prefix" | "cli">;

/**
 * Parses `args` by the flags `specs` of `command`. Throws a `*-ARG-001` {@linkcode ToolError}
 * for an unknown flag, a flag's missing or malformed value, or an unexpected argument.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommandLineBy } from "./cli_run.ts";
 * const command = { name: "llm-demo", prefix: "LMS" as const, cli: { usage: "", examples: [] } };
 * const specs = [{
 *   field: "max_count", flag: "max-count", kind: "number" as const, aliases: [], description: "",
 *   path: false,
 * }];
 * assert.deepEqual(parseCommandLineBy(command, specs, ["--max-count", "3"]).input(), {
 *   max_count: 3,
 * });
 * ```
 */
export function parseCommandLineBy(
  command: CommandHead,
  specs: readonly FlagSpec[],
  args: string[],
): ParsedCommandLine {
  const options = parseOptions(command, specs);
  const loose = new Map<string, string>();
  let parsed;
  try {
    parsed = parseFlags(joinValues(args, options, bareFlags(specs), loose), options);
  } catch (error) {
    if (error instanceof FlagError) throw argError(command, error.message);
    throw error;
  }
  const values: Record<string, unknown> = parsed.values;
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
    input: () => inputFromFlags(command, specs, values, parsed.positionals, loose),
  };
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
function itemLine(tool: CliTool, item: unknown): string {
  return JSON.stringify({ type: tool.itemType ?? "item", ...item as object }) + "\n";
}

/** Writes the envelope's list items one per line, then the summary object. */
function writeJsonl(tool: CliTool, envelope: Envelope): void {
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

function writeOutcome(
  tool: CliTool,
  format: OutputFormat,
  outcome: ToolOutcome,
  reader: CommandLineReader,
) {
  if (format === "jsonl") writeJsonl(tool, outcome.envelope);
  else if (format === "text") writeStdout(tool.renderText(outcome.envelope));
  else if (format === "compact") {
    if (!reader.compact) throw new Error(`${tool.name}: --format compact without its writer`);
    writeStdout(JSON.stringify(reader.compact(outcome.envelope)) + "\n");
  } else writeStdout(JSON.stringify(outcome.envelope) + "\n");
}

/** Streaming line writer for JSONL items, flushing in blocks to keep syscalls few. */
function jsonlEmitter(tool: CliTool): { emit: (item: unknown) => void; flush: () => void } {
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

/** What running a command line needs of a tool (a definition is one; so is a command's table and code). */
export type CliTool = Pick<
  Tool,
  | "name"
  | "mcpName"
  | "prefix"
  | "kind"
  | "operationType"
  | "listKey"
  | "itemType"
  | "cli"
  | "execute"
  | "renderText"
>;

/** How a command line is read: its parse and its `--help` text, and the compact form. */
export interface CommandLineReader {
  /** Parses the arguments (throws a `*-ARG-001` {@linkcode ToolError} when they are wrong). */
  parse(): ParsedCommandLine;
  /** The `--help` text. */
  help(): string;
  /**
   * The contract's compact form of an envelope, for `--format compact`, by the form the tool's
   * definition declares (a tool without one answers in full).
   */
  compact?(envelope: Envelope): unknown;
}

/**
 * Runs `tool` on a command line read by `reader`: runs, prints one JSON document (or JSONL, or
 * text) on stdout and returns the exit code. Never throws. The run is also appended to the
 * execution log of its root (see `core/cli_log.ts`) unless `options.log` is false.
 *
 * @example Run a definition by its own flags (what `runCli` does)
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommandLineBy, runCommandLine } from "./cli_run.ts";
 * import { commandTable } from "./cli.ts";
 * import { tableHelp } from "./cli_table.ts";
 * import { discoverTool } from "@llm/search";
 * const args = ["--version"];
 * const table = commandTable(discoverTool);
 * const reader = {
 *   parse: () => parseCommandLineBy(discoverTool, table.fields, args),
 *   help: () => tableHelp(table),
 * };
 * assert.equal(await runCommandLine(discoverTool, args, reader), 0); // prints "llm-discover 0.1.0"
 * ```
 */
export async function runCommandLine(
  tool: CliTool,
  args: string[],
  reader: CommandLineReader,
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
    const line = reader.parse();
    format = line.format;
    logRequested = line.log;
    if (line.help) {
      writeStdout(reader.help());
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
      readStdin: async () =>
        utf8Input(tool.prefix, await new Response(Deno.stdin.readable).bytes(), "standard input"),
      readStdinBytes: () => new Response(Deno.stdin.readable).bytes(),
    };
    const outcome = await tool.execute(input, context);
    stream?.flush();
    log(outcome);
    writeOutcome(tool, format, outcome, reader);
    reportErrors(tool, outcome);
    return exitCodeOf(outcome);
  } catch (thrown) {
    const outcome = failureOutcome(tool, thrown, executionId, debug);
    if (debug && thrown instanceof Error && thrown.stack) console.error(thrown.stack);
    log(outcome);
    writeOutcome(tool, format === "text" ? "json" : format, outcome, reader);
    reportErrors(tool, outcome);
    return exitCodeOf(outcome);
  }
}

/** Repeats a run's errors on stderr for people watching the terminal (stdout stays JSON). */
function reportErrors(tool: CliTool, outcome: ToolOutcome): void {
  const envelope = outcome.envelope;
  const errors = [
    ...("error" in envelope && envelope.error ? [envelope.error] : []),
    ...envelope.diagnostics.filter((d) => d.level === "error"),
  ];
  // The error is usually also among the diagnostics (a gate's refusal as a copy without its
  // gate errors): each line is said once.
  const lines = new Set(errors.map((error) => `${tool.name}: ${error.code}: ${error.message}`));
  for (const line of lines) console.error(line);
}
