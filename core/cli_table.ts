/**
 * The command line of every command, by its table: the flags, the `--help` text and the checks
 * of its input, written by `deno task schema` into the `cli.json` of each tool's folder from the
 * zod input schema (`commandTable` in `cli.ts`, `scripts/flag_tables.ts`), so that a command
 * parses, checks and explains its flags without loading zod. Each field carries its rule — its type, inclusive and
 * exclusive bounds, lengths, patterns, choices, unions — with the message zod gives when the rule
 * fails, so a refusal reads as zod's would. What a rule cannot say (a refinement, an object
 * inside a JSON value, an object-level check) is marked `schema`: zod is loaded to check the
 * input only when such a field is given (or, for an object-level check, always), through the
 * command's `schema` loader.
 *
 * @module
 */
import {
  argError,
  type CliTool,
  type CommandHead,
  flagName,
  type FlagSpec,
  parseCommandLineBy,
  runCommandLine,
} from "./cli_run.ts";
import { inputError } from "./failure.ts";
import type {
  InputSchema,
  PositionalMapper,
  RunContext,
  SchemaIssue,
  ToolInfo,
  ToolOutcome,
} from "./tool.ts";
import type { CompactForm } from "../schema/compact.ts";
import type { CodePrefix } from "../schema/error_codes.ts";
import type { Envelope } from "../schema/envelope_build.ts";
import { VERSION } from "./version.ts";

/** One check of a number or string rule, with the message zod gives when it fails. */
export interface RuleCheck {
  /**
   * `integer`: a whole, safe number; `minimum`/`maximum`: a bound (`exclusive`: the bound itself
   * is refused, as `.positive()` or `.gt()`); `minLength`/`maxLength`: a string's length;
   * `pattern`: a regular expression the string must match.
   */
  check: "integer" | "minimum" | "maximum" | "minLength" | "maxLength" | "pattern";
  /** The bound or length. */
  value?: number;
  /** The bound itself is refused. */
  exclusive?: boolean;
  /** The pattern's source. */
  pattern?: string;
  /** The pattern's flags. */
  flags?: string;
  /** What zod says when the check fails. */
  message: string;
}

/** A JSON value's type, as a `schema` rule names what it may accept. */
export type JsonType = "string" | "number" | "boolean" | "array" | "object" | "null";

/** What a field's value must be. */
export type FieldRule =
  | { type: "boolean" }
  | { type: "number"; checks?: RuleCheck[] }
  | { type: "string"; checks?: RuleCheck[] }
  | { type: "enum"; values: string[]; message: string }
  | { type: "array"; items: FieldRule }
  | { type: "union"; options: FieldRule[] }
  | {
    type: "schema";
    /** The types of value the schema may accept (any when absent); another is refused. */
    accepts?: JsonType[];
  };

/** One field of a command's table: how its flag parses, how `--help` shows it, its rule. */
export interface TableField extends FlagSpec {
  /** Its description (the field's). */
  description: string;
  /** The value an absent field takes (JSON); also shown by `--help`. */
  default?: unknown;
  /** The values an enum flag takes, shown by `--help`. */
  choices?: string[];
  /** Its values name files or directories (`<PATH>` in `--help`). */
  path?: boolean;
  /** What its value must be. */
  rule: FieldRule;
  /** The field must be given (no default, not optional). */
  required?: boolean;
  /** What zod says of a required field left out. */
  missing?: string;
}

/** A command as its command line knows it: its definition's metadata, help and fields. */
export interface CommandTable
  extends Partial<Pick<ToolInfo, "mcpName" | "kind" | "operationType" | "listKey" | "itemType">> {
  /** Command name, e.g. `llm-search` or `llm-symbols find`. */
  name: string;
  /** Error-code prefix of its argument errors. */
  prefix: CodePrefix;
  /** Short human title (the head of `--help`). */
  title: string;
  /** What the command does. */
  description: string;
  /** Usage line after the name. */
  usage: string;
  /** Text between the description and the usage. */
  notes?: string;
  /** Worked examples. */
  examples: string[];
  /** Lines of the EXIT CODES section; default: the tools' exit codes. */
  exitCodes?: string;
  /** The command takes the common output flags (`--format`, …). */
  outputFlags: boolean;
  /**
   * The input schema says more than its fields do (an object-level check, or wrappers the table
   * cannot read): zod checks every input.
   */
  refined?: boolean;
  /** Its fields, in schema order. */
  fields: TableField[];
}

/** The tables of a program's `cli.json` (its command's, or each subcommand's), by command name. */
export type CommandTables = Readonly<Record<string, unknown>>;

/**
 * The table of the command `name` among `tables` (a tool's `cli.json`, generated). Throws when
 * there is none: `deno task schema` writes one for every command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tableOf } from "./cli_table.ts";
 * const tables = { "llm-x": { name: "llm-x", prefix: "LMS", fields: [] } };
 * assert.equal(tableOf(tables, "llm-x").prefix, "LMS");
 * ```
 */
export function tableOf(tables: CommandTables, name: string): CommandTable {
  const table = Object.hasOwn(tables, name) ? tables[name] : undefined;
  if (!table) throw new Error(`${name}: no command table (run \`deno task schema\`)`);
  // Written by `deno task schema` from the command's definition (a test keeps it current).
  return table as CommandTable;
}

function jsonType(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "string" || type === "number" || type === "boolean" ? type : "object";
}

function failsCheck(check: RuleCheck, value: number | string): boolean {
  const bound = check.value ?? 0;
  switch (check.check) {
    case "integer":
      return !Number.isSafeInteger(value);
    case "minimum":
      return check.exclusive ? (value as number) <= bound : (value as number) < bound;
    case "maximum":
      return check.exclusive ? (value as number) >= bound : (value as number) > bound;
    case "minLength":
      return (value as string).length < bound;
    case "maxLength":
      return (value as string).length > bound;
    case "pattern":
      return !new RegExp(check.pattern ?? "", check.flags).test(value as string);
  }
}

/**
 * Checks `value` by `rule`, adding an issue (at `path`) for each failed check; false when the
 * table cannot decide and zod must: a `schema` rule that may accept the value, a value of
 * another type than the rule's (zod's message names the type), a union no option takes. Inside
 * a union (`option`), a value of another type only refuses that option.
 */
function checkValue(
  rule: FieldRule,
  value: unknown,
  path: PropertyKey[],
  issues: SchemaIssue[],
  option = false,
): boolean {
  const mismatch = () => {
    if (option) issues.push({ path, message: "" });
    return option;
  };
  switch (rule.type) {
    case "boolean":
      return typeof value === "boolean" || mismatch();
    case "number":
    case "string": {
      if (rule.type === "number" ? !Number.isFinite(value) : typeof value !== "string") {
        return mismatch();
      }
      for (const check of rule.checks ?? []) {
        if (!failsCheck(check, value as number | string)) continue;
        // A number that is not a safe integer: zod's message names the value's own kind.
        if (check.check === "integer") return mismatch();
        issues.push({ path, message: check.message });
      }
      return true;
    }
    case "enum":
      if (typeof value !== "string") return mismatch();
      if (!rule.values.includes(value)) issues.push({ path, message: rule.message });
      return true;
    case "array":
      if (!Array.isArray(value)) return mismatch();
      return value.every((item, index) =>
        checkValue(rule.items, item, [...path, index], issues, option)
      );
    case "union":
      // zod takes the first option that accepts the value: the table answers only when each
      // option before it surely refuses, and leaves a value no option takes to zod.
      for (const choice of rule.options) {
        const own: SchemaIssue[] = [];
        if (!checkValue(choice, value, path, own, true)) return false;
        if (own.length === 0) return true;
      }
      return false;
    case "schema":
      // Decided only where the value is of a type the schema never accepts.
      if (rule.accepts === undefined || rule.accepts.includes(jsonType(value))) return false;
      return mismatch();
  }
}

/** What the table says of an input: checked (defaults applied), refused, or zod's to check. */
export type CheckedInput =
  | { input: Record<string, unknown> }
  | { issues: SchemaIssue[] }
  | { schema: true };

/**
 * `raw` checked by the table and completed with its defaults, as the zod schema parses it; or
 * the issues zod would list, in its order and words; or `schema` when only zod can tell (a field
 * whose rule is `schema` was given, or the command is `refined`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkInput } from "./cli_table.ts";
 * const limit = {
 *   field: "limit", flag: "limit", kind: "number" as const, aliases: [], description: "",
 *   rule: {
 *     type: "number" as const,
 *     checks: [{ check: "minimum" as const, value: 0, message: "Too small: expected number to be >=0" }],
 *   },
 *   default: 50,
 * };
 * assert.deepEqual(checkInput({ fields: [limit] }, {}), { input: { limit: 50 } });
 * assert.deepEqual(checkInput({ fields: [limit] }, { limit: -1 }), {
 *   issues: [{ path: ["limit"], message: "Too small: expected number to be >=0" }],
 * });
 * ```
 */
export function checkInput(
  table: Pick<CommandTable, "fields" | "refined">,
  raw: Record<string, unknown>,
): CheckedInput {
  if (table.refined) return { schema: true };
  const known = new Set(table.fields.map((field) => field.field));
  if (Object.keys(raw).some((key) => !known.has(key))) return { schema: true };
  const input: Record<string, unknown> = {};
  const issues: SchemaIssue[] = [];
  for (const field of table.fields) {
    const value = raw[field.field];
    if (value === undefined) {
      if (field.required) issues.push({ path: [field.field], message: field.missing ?? "" });
      else if (field.default !== undefined) input[field.field] = structuredClone(field.default);
      continue;
    }
    if (field.rule.type === "schema") return { schema: true };
    if (!checkValue(field.rule, value, [field.field], issues)) return { schema: true };
    input[field.field] = value;
  }
  return issues.length ? { issues } : { input };
}

/** The code of a command: what runs once its input is checked, and how its answer prints. */
export interface CommandCode<T = never> {
  /** The run (its input checked as the input schema checks it). */
  run: (input: T, context: RunContext) => Promise<ToolOutcome>;
  /** `--format text`; without it, indented JSON. */
  text?: (envelope: Envelope) => string;
  /** How positional arguments map onto fields. */
  positionals?: PositionalMapper;
  /** The compact form (`--format compact`); without it, the full envelope. */
  compact?: CompactForm;
  /**
   * Loads the input schema, for what the table leaves to zod (a `schema` field given, a
   * `refined` command); a command whose table has none needs no loader.
   */
  schema?: () => Promise<Pick<InputSchema, "safeParse">>;
}

/**
 * The input of `raw` for a run: checked by `table`, and by zod (loaded by `code.schema`) where
 * the table leaves it to zod. Throws the `*-ARG-002` {@linkcode ToolError} of a refused input.
 */
export async function validInput(
  table: Pick<CommandTable, "name" | "prefix" | "fields" | "refined">,
  code: Pick<CommandCode, "schema">,
  raw: unknown,
): Promise<Record<string, unknown>> {
  const checked = checkInput(table, raw as Record<string, unknown>);
  if ("input" in checked) return checked.input;
  if ("issues" in checked) throw inputError(table.prefix, checked);
  if (!code.schema) throw new Error(`${table.name}: its input needs its schema, and none is given`);
  const parsed = (await code.schema()).safeParse(raw);
  if (!parsed.success) throw inputError(table.prefix, parsed.error);
  return parsed.data as Record<string, unknown>;
}

/** What parsing a command line needs of the command `table`. */
function commandHead(table: CommandTable, positionals?: PositionalMapper): CommandHead {
  return {
    name: table.name,
    prefix: table.prefix,
    cli: {
      usage: table.usage,
      examples: table.examples,
      positionals,
      outputFlags: table.outputFlags,
    },
  };
}

/** The command `table` running `code`, as the command-line machinery runs a tool. */
export function tableTool<T>(table: CommandTable, code: CommandCode<T>): CliTool {
  return {
    ...commandHead(table, code.positionals),
    mcpName: table.mcpName ?? table.name,
    kind: table.kind ?? "query",
    operationType: table.operationType,
    listKey: table.listKey,
    itemType: table.itemType,
    async execute(raw, context) {
      // The table (and zod where it says so) checked it as the input schema does: it is `T`.
      return await code.run(await validInput(table, code, raw) as T, context);
    },
    renderText: (envelope) => code.text ? code.text(envelope) : JSON.stringify(envelope, null, 2),
  };
}

/**
 * Runs the command `table` with `code` on `args`: parses by the table, answers `--help`,
 * `--version` and `--explain`, checks the input, runs, prints one JSON document (or JSONL, text,
 * the compact form) and returns the exit code. Never throws. The run is also appended to the
 * execution log of its root (see `core/cli_log.ts`) unless `options.log` is false.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runCommand } from "./cli_table.ts";
 * const table = {
 *   name: "llm-x", prefix: "LMS" as const, title: "X", description: "X.", usage: "[FLAGS]",
 *   examples: [], outputFlags: true, fields: [],
 * };
 * const code = { run: () => Promise.reject(new Error("not run")) };
 * assert.equal(await runCommand(table, code, ["--version"]), 0); // prints "llm-x <version>"
 * ```
 */
export async function runCommand<T>(
  table: CommandTable,
  code: CommandCode<T>,
  args: string[],
  options: { log?: boolean } = {},
): Promise<number> {
  const tool = tableTool(table, code);
  const reader = {
    parse: () => parseCommandLineBy(tool, table.fields, args),
    help: () => tableHelp(table),
    // `compactEnvelope` of schema/compact.ts, which a command need not load for it.
    compact: (envelope: Envelope) => code.compact?.compact(envelope) ?? envelope,
  };
  return await runCommandLine(tool, args, reader, options);
}

function describeDefault(field: TableField): string {
  const alone = field.bare ? ` [alone: ${JSON.stringify(field.bare.value)}]` : "";
  if (field.default === undefined || field.default === false) return alone;
  if (Array.isArray(field.default) && field.default.length === 0) return alone;
  return ` [default: ${JSON.stringify(field.default)}]${alone}`;
}

function flagRow(field: TableField): [string, string] {
  const names = [
    field.short ? `-${field.short}` : undefined,
    `--${field.flag}`,
    ...field.aliases.map((alias) => `--${alias}`),
  ].filter(Boolean).join(", ");
  const value = field.kind === "boolean"
    ? ""
    : field.choices
    ? field.bare ? ` [<${field.choices.join("|")}>]` : ` <${field.choices.join("|")}>`
    : field.kind === "number"
    ? " <N>"
    : field.kind === "strings"
    ? ` <${field.path ? "PATH" : "VALUE"}>...`
    : ` <${field.path ? "PATH" : "VALUE"}>`;
  return [`${names}${value}`, `${field.description}${describeDefault(field)}`];
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
 * The `--help` text of a command, from its table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tableHelp } from "./cli_table.ts";
 * const limit = {
 *   field: "limit", flag: "limit", kind: "number" as const, short: "n", aliases: [],
 *   description: "Results to list", default: 50, rule: { type: "number" as const },
 * };
 * const table = {
 *   name: "llm-x", prefix: "LMS" as const, title: "X", description: "Lists x.",
 *   usage: "[FLAGS]", examples: ["llm-x -n 5"], outputFlags: true, fields: [limit],
 * };
 * assert.match(tableHelp(table), /-n, --limit <N>\s+Results to list \[default: 50\]/);
 * ```
 */
export function tableHelp(table: CommandTable): string {
  const rows = table.fields.map(flagRow);
  const common = [...(table.outputFlags ? OUTPUT_ROWS : []), ...HELP_ROWS];
  const width = Math.min(36, Math.max(...[...rows, ...common].map(([names]) => names.length)) + 2);
  const list = (entries: string[][]) =>
    entries.map(([names, text]) =>
      names.length + 2 > width
        ? `  ${names}\n  ${" ".repeat(width)}${text}`
        : `  ${names.padEnd(width)}${text}`
    ).join("\n");
  return [
    `${table.name} ${VERSION} — ${table.title}`,
    "",
    table.description,
    "",
    ...(table.notes ? [table.notes, ""] : []),
    `USAGE:\n  ${table.name} ${table.usage}`,
    "",
    `FLAGS:\n${list(rows)}`,
    "",
    `COMMON FLAGS:\n${list(common)}`,
    "",
    `EXAMPLES:\n${table.examples.map((example) => `  ${example}`).join("\n")}`,
    "",
    `EXIT CODES:\n${table.exitCodes ?? TOOL_EXIT_CODES}`,
    "",
  ].join("\n");
}

/**
 * Parses a program's own options (`llm-mcp`'s) by its table: the options after defaults, or
 * `help`/`version` when those were asked for. A value the table refuses is a `*-ARG-001`
 * {@linkcode ToolError} naming the flag: `--flag message, got 'value'`, so the schema's messages
 * are written to follow a flag name. A program's options hold no field left to zod.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { programOptions } from "./cli_table.ts";
 * const port = {
 *   field: "port", flag: "port", kind: "number" as const, aliases: [], description: "Port",
 *   default: 80, rule: {
 *     type: "number" as const,
 *     checks: [{ check: "minimum" as const, value: 1, message: "takes a port number" }],
 *   },
 * };
 * const table = {
 *   name: "llm-x", prefix: "MCP" as const, title: "X", description: "X.", usage: "[FLAGS]",
 *   examples: [], outputFlags: false, fields: [port],
 * };
 * assert.deepEqual(programOptions(table, ["--port", "8080"]), {
 *   kind: "options", options: { port: 8080 },
 * });
 * assert.throws(() => programOptions(table, ["--port", "0"]), /--port takes a port number, got '0'/);
 * ```
 */
export function programOptions(
  table: CommandTable,
  args: string[],
): { kind: "help" } | { kind: "version" } | { kind: "options"; options: Record<string, unknown> } {
  const line = parseCommandLineBy(commandHead(table), table.fields, args);
  if (line.help) return { kind: "help" };
  if (line.version) return { kind: "version" };
  const input = line.input();
  const checked = checkInput(table, input);
  if ("input" in checked) return { kind: "options", options: checked.input };
  if ("schema" in checked) throw new Error(`${table.name}: an option only zod can check`);
  const issue = checked.issues[0];
  const field = String(issue.path[0] ?? "");
  const given = input[field];
  throw argError(
    commandHead(table),
    `--${flagName(field)} ${issue.message}${given === undefined ? "" : `, got '${given}'`}`,
  );
}
