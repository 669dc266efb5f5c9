/**
 * The command-line adapter derived from a tool definition: flags from the input schema,
 * `--help`, `--explain CODE`, `--format json|jsonl|text`, and the contract's exit codes.
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
import { failureOutcome } from "./failure.ts";
import type { RunContext, Tool, ToolOutcome } from "./tool.ts";
import { VERSION } from "./version.ts";

/** Output formats every CLI accepts. */
export type OutputFormat = "json" | "jsonl" | "text";

type FlagKind = "boolean" | "string" | "number" | "strings" | "enum";

interface FlagSpec {
  field: string;
  flag: string;
  kind: FlagKind;
  short?: string;
  description: string;
  defaultValue?: unknown;
  choices?: readonly string[];
  /** A number flag whose schema takes whole numbers only. */
  integer?: boolean;
}

interface ParseOption {
  type: "boolean" | "string";
  multiple?: boolean;
  short?: string;
}

/** Strips optional/default/nullable wrappers to reach the type a flag parses into. */
function baseOf(schema: z.ZodType): { base: z.ZodType; defaultValue?: unknown } {
  let current: z.ZodType = schema;
  let defaultValue: unknown;
  for (;;) {
    if (current instanceof z.ZodDefault) {
      defaultValue = current.def.defaultValue;
      current = current.def.innerType as z.ZodType;
    } else if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.def.innerType as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.def.in as z.ZodType;
    } else return { base: current, defaultValue };
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

/** The flags a tool's input schema gives its CLI, in schema order. */
function flagSpecs(tool: Tool): FlagSpec[] {
  const short = tool.cli.short ?? {};
  return Object.entries(tool.input.shape).map(([field, schema]) => {
    const { base, defaultValue } = baseOf(schema as z.ZodType);
    const kind = kindOf(base);
    return {
      field,
      flag: flagName(field),
      kind,
      short: short[field],
      description: (schema as z.ZodType).description ?? base.description ?? "",
      defaultValue,
      choices: base instanceof z.ZodEnum ? (base.options as string[]) : undefined,
      integer: base instanceof z.ZodNumber && base.format === "safeint",
    };
  });
}

const COMMON_OPTIONS: Record<string, ParseOption> = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
  explain: { type: "string" },
  format: { type: "string" },
  debug: { type: "boolean" },
  "error-codes": { type: "boolean", short: "E" },
};

function parseOptions(tool: Tool, specs: FlagSpec[]): Record<string, ParseOption> {
  const options: Record<string, ParseOption> = { ...COMMON_OPTIONS };
  for (const spec of specs) {
    const option: ParseOption = spec.kind === "boolean"
      ? { type: "boolean" }
      : { type: "string", multiple: spec.kind === "strings" };
    if (spec.short) option.short = spec.short;
    options[spec.flag] = option;
  }
  for (const [alias, field] of Object.entries(tool.cli.aliases ?? {})) {
    const target = options[flagName(field)];
    if (target) options[alias] = { type: target.type, multiple: target.multiple };
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

function argError(tool: Tool, message: string, note?: string): ToolError {
  return new ToolError(`${tool.prefix}-ARG-001`, message, note ? { note } : {});
}

const WHOLE_NUMBER = /^[+-]?\d+$/;
const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The value of a number flag, parsed as strictly as ripgrep does: decimal digits only (no
 * `0x10`, `1e3` or blanks where a whole number is expected) and no value beyond what a number
 * holds exactly, so nothing is silently rounded or read as another value.
 */
function numberFlag(tool: Tool, flag: string, value: string, spec: FlagSpec): number {
  const integer = spec.integer ?? false;
  if (!(integer ? WHOLE_NUMBER : DECIMAL_NUMBER).test(value)) {
    throw argError(
      tool,
      `--${flag} takes ${
        integer ? "a whole number in decimal digits" : "a number"
      }, got '${value}'`,
    );
  }
  const number = Number(value);
  if (integer ? !Number.isSafeInteger(number) : !Number.isFinite(number)) {
    throw argError(
      tool,
      `--${flag} ${value} is out of range`,
      `the largest value is ${Number.MAX_SAFE_INTEGER}`,
    );
  }
  return number;
}

/** Turns parsed flag values into the raw input object, coercing numbers. */
function inputFromFlags(
  tool: Tool,
  specs: FlagSpec[],
  values: Record<string, unknown>,
  positionals: string[],
): Record<string, unknown> {
  const byFlag = new Map(specs.map((spec) => [spec.flag, spec]));
  for (const [alias, field] of Object.entries(tool.cli.aliases ?? {})) {
    const spec = specs.find((candidate) => candidate.field === field);
    if (spec) byFlag.set(alias, spec);
  }
  const input: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(values)) {
    const spec = byFlag.get(flag);
    if (!spec || value === undefined) continue;
    if (spec.kind === "number") {
      input[spec.field] = numberFlag(tool, flag, String(value), spec);
    } else if (spec.kind === "strings") {
      const previous = (input[spec.field] as string[] | undefined) ?? [];
      input[spec.field] = [...previous, ...(value as string[])];
    } else input[spec.field] = value;
  }
  if (tool.cli.positionals) return { ...input, ...tool.cli.positionals(positionals, input) };
  if (positionals.length) throw argError(tool, `unexpected argument '${positionals[0]}'`);
  return input;
}

function describeDefault(spec: FlagSpec): string {
  if (spec.defaultValue === undefined || spec.defaultValue === false) return "";
  if (Array.isArray(spec.defaultValue) && spec.defaultValue.length === 0) return "";
  return ` [default: ${JSON.stringify(spec.defaultValue)}]`;
}

/**
 * The `--help` text of a tool, derived from its definition.
 *
 * @example
 * ```ts
 * import { helpText } from "./cli.ts";
 * import { searchTool } from "@llm/search/search";
 * helpText(searchTool).startsWith("llm-search"); // true
 * ```
 */
export function helpText(tool: Tool): string {
  const specs = flagSpecs(tool);
  const aliasesOf = (field: string) =>
    Object.entries(tool.cli.aliases ?? {}).filter(([, target]) => target === field).map(([a]) =>
      `--${a}`
    );
  const rows = specs.map((spec) => {
    const names = [
      spec.short ? `-${spec.short}` : undefined,
      `--${spec.flag}`,
      ...aliasesOf(spec.field),
    ].filter(Boolean).join(", ");
    const value = spec.kind === "boolean"
      ? ""
      : spec.choices
      ? ` <${spec.choices.join("|")}>`
      : spec.kind === "number"
      ? " <N>"
      : spec.kind === "strings"
      ? " <VALUE>..."
      : " <VALUE>";
    return [`${names}${value}`, `${spec.description}${describeDefault(spec)}`];
  });
  const common: [string, string][] = [
    ["--format <json|jsonl|text>", 'Output format [default: "json"]'],
    ["--explain <CODE>", "Print the registry entry of an error code and exit"],
    ["-E, --error-codes", "Accepted for compatibility: codes are always present"],
    ["--debug", "Add stack traces to internal errors"],
    ["-h, --help", "Print this help"],
    ["-V, --version", "Print the version"],
  ];
  const width = Math.min(36, Math.max(...[...rows, ...common].map(([names]) => names.length)) + 2);
  const table = (entries: string[][]) =>
    entries.map(([names, text]) =>
      names.length + 2 > width
        ? `  ${names}\n  ${" ".repeat(width)}${text}`
        : `  ${names.padEnd(width)}${text}`
    ).join("\n");
  return [
    `${tool.name} ${VERSION} — ${tool.title}`,
    "",
    tool.description,
    "",
    `USAGE:\n  ${tool.name} ${tool.cli.usage}`,
    "",
    `FLAGS:\n${table(rows)}`,
    "",
    `COMMON FLAGS:\n${table(common)}`,
    "",
    `EXAMPLES:\n${tool.cli.examples.map((example) => `  ${example}`).join("\n")}`,
    "",
    "EXIT CODES:\n  0 ran (also with no results)  1 pending changes or drift  2 bad arguments or input\n" +
    "  3 a precondition refused the work  4 missing permission  5 internal error",
    "",
  ].join("\n");
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

function writeOutcome(tool: Tool, format: OutputFormat, outcome: ToolOutcome): void {
  if (format === "jsonl") writeJsonl(tool, outcome.envelope);
  else if (format === "text") writeStdout(tool.renderText(outcome.envelope));
  else writeStdout(JSON.stringify(outcome.envelope) + "\n");
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
 * on stdout and returns the exit code. Never throws.
 *
 * @example Make a tool a command
 * ```ts
 * import { runCli } from "@llm/search";
 * import { searchTool } from "@llm/search/search";
 * if (import.meta.main) Deno.exit(await runCli(searchTool, Deno.args));
 * ```
 */
export async function runCli(tool: Tool, args: string[]): Promise<number> {
  const executionId = newId();
  const debug = args.includes("--debug");
  let format: OutputFormat = "json";
  try {
    const specs = flagSpecs(tool);
    let parsed;
    try {
      const options = parseOptions(tool, specs);
      parsed = parseArgs({
        args: joinDashValues(args, options),
        options,
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw argError(tool, error instanceof Error ? error.message : String(error));
    }
    const { values, positionals } = parsed;
    const requested = values.format ?? "json";
    if (requested !== "json" && requested !== "jsonl" && requested !== "text") {
      throw argError(tool, `--format takes json, jsonl or text, got '${requested}'`);
    }
    format = requested;
    if (values.help) {
      writeStdout(helpText(tool));
      return EXIT.ok;
    }
    if (values.version) {
      writeStdout(`${tool.name} ${VERSION}\n`);
      return EXIT.ok;
    }
    if (typeof values.explain === "string") {
      const entry = explainCode(values.explain);
      if (!entry) {
        throw new ToolError(`${tool.prefix}-ARG-002`, `unknown error code '${values.explain}'`, {
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
    const input = inputFromFlags(tool, specs, values as Record<string, unknown>, positionals);
    const stream = format === "jsonl" && tool.listKey ? jsonlEmitter(tool) : undefined;
    const context: RunContext = {
      executionId,
      cwd: Deno.cwd(),
      emit: stream?.emit,
      readStdin: () => new Response(Deno.stdin.readable).text(),
    };
    const outcome = await tool.execute(input, context);
    stream?.flush();
    writeOutcome(tool, format, outcome);
    reportErrors(tool, outcome);
    return exitCodeOf(outcome);
  } catch (thrown) {
    const outcome = failureOutcome(tool, thrown, executionId, debug);
    if (debug && thrown instanceof Error && thrown.stack) console.error(thrown.stack);
    writeOutcome(tool, format === "text" ? "json" : format, outcome);
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
