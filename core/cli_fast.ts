/**
 * The fast path of a command line: flags parsed and checked by the command's flag table (written
 * by `deno task schema` into `flag_tables.json` from the zod input schema, `scripts/flag_tables.ts`)
 * instead of by zod, so that a query command starts without loading zod. What the table cannot
 * decide — `--help`, `--version`, `--explain`, a flag or value it refuses, a command missing
 * from the table — is left to the full path (`runCli`), which gives the same answer as always
 * (and the same diagnostics); a property test holds the two to the same parsed input.
 *
 * @module
 */
import TABLES from "./flag_tables.json" with { type: "json" };
import { type CliTool, type FlagSpec, parseCommandLineBy, runCommandLine } from "./cli_run.ts";
import type { ParsedCommandLine } from "./cli_run.ts";
import type { PositionalMapper, RunContext, ToolInfo, ToolOutcome } from "./tool.ts";
import type { Envelope } from "../schema/envelope_build.ts";

/**
 * What a field's schema accepts, as far as the fast path checks it (all bounds inclusive).
 * `deferred`: an optional field the table cannot check; a command line that gives it is left to
 * the full path.
 */
export interface FieldRule {
  /** The value's type. */
  type: "string" | "number" | "boolean" | "array" | "deferred";
  /** Numbers: whole and safe (`z.number().int()`). */
  integer?: boolean;
  /** Numbers: the least value. */
  minimum?: number;
  /** Numbers: the greatest value. */
  maximum?: number;
  /** Strings: the least length. */
  minLength?: number;
  /** Strings: the values taken (an enum). */
  enum?: readonly string[];
  /** Arrays: the rule of each item. */
  items?: FieldRule;
}

/** One field of a flag table: its flag, its rule, and what an absent value becomes. */
export interface TableField extends FlagSpec {
  /** What its value must be. */
  rule: FieldRule;
  /** The field must be given (no default, not optional). */
  required: boolean;
  /** The value an absent field takes (JSON). */
  default?: unknown;
}

/** A command as the fast path knows it: its definition's metadata and its flags' table. */
export interface FlagTable
  extends Pick<ToolInfo, "name" | "mcpName" | "prefix" | "kind" | "listKey" | "itemType"> {
  /** The command takes the common output flags (`--format`, …). */
  outputFlags: boolean;
  /** Its fields, in schema order. */
  fields: TableField[];
}

/** Every command whose input the fast path can check, by command name. */
export const FLAG_TABLES: Readonly<Record<string, FlagTable>> = TABLES as unknown as Record<
  string,
  FlagTable
>;

/** The code a fast command runs: its definition's own run, text and positional mapping. */
export interface FastCode<T> {
  /** The definition's `run` (its input already checked). */
  run: (input: T, context: RunContext) => Promise<ToolOutcome>;
  /** The definition's `text`. */
  text?: (envelope: Envelope) => string;
  /** The definition's `cli.positionals`. */
  positionals?: PositionalMapper;
}

/** A command the fast path can run: its table and its code. */
export interface FastCommand extends CliTool {
  /** Its flag table. */
  table: FlagTable;
}

function checkValue(rule: FieldRule, value: unknown): boolean {
  switch (rule.type) {
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value) &&
        (!rule.integer || Number.isSafeInteger(value)) &&
        (rule.minimum === undefined || value >= rule.minimum) &&
        (rule.maximum === undefined || value <= rule.maximum);
    case "string":
      return typeof value === "string" &&
        (rule.minLength === undefined || value.length >= rule.minLength) &&
        (rule.enum === undefined || rule.enum.includes(value));
    case "array":
      return Array.isArray(value) && rule.items !== undefined &&
        value.every((item) => checkValue(rule.items!, item));
    case "deferred":
      return false;
  }
}

/**
 * `raw` checked by the table and completed with its defaults, as the zod schema parses it; or
 * undefined when the table does not accept it (the full path then says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkInput } from "./cli_fast.ts";
 * const fields = [{
 *   field: "limit", flag: "limit", kind: "number" as const, aliases: [],
 *   rule: { type: "number" as const, integer: true, minimum: 0 }, required: false, default: 50,
 * }];
 * assert.deepEqual(checkInput(fields, {}), { limit: 50 });
 * assert.equal(checkInput(fields, { limit: -1 }), undefined);
 * ```
 */
export function checkInput(
  fields: readonly TableField[],
  raw: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const known = new Set(fields.map((field) => field.field));
  if (Object.keys(raw).some((key) => !known.has(key))) return undefined;
  const input: Record<string, unknown> = {};
  for (const field of fields) {
    const value = raw[field.field];
    if (value === undefined) {
      if (field.required) return undefined;
      if (field.default !== undefined) input[field.field] = structuredClone(field.default);
      continue;
    }
    if (!checkValue(field.rule, value)) return undefined;
    input[field.field] = value;
  }
  return input;
}

/** A command line the fast path answers: its parse and its checked input. */
export interface FastLine {
  /** The parsed command line. */
  line: ParsedCommandLine;
  /** The input, checked and with defaults, as the zod schema would give it. */
  input: Record<string, unknown>;
}

/**
 * The parse and input of `args` when the fast path can answer them; undefined when only the
 * full path can (help, version, `--explain`, `--format compact`, anything refused or unusual).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FLAG_TABLES, fastLine } from "./cli_fast.ts";
 * const table = FLAG_TABLES["llm-symbols status"];
 * assert.deepEqual(fastLine(table, undefined, ["--db", "x.db"])?.input, { db: "x.db" });
 * assert.equal(fastLine(table, undefined, ["--help"]), undefined);
 * ```
 */
export function fastLine(
  table: FlagTable,
  positionals: PositionalMapper | undefined,
  args: string[],
): FastLine | undefined {
  const command = {
    name: table.name,
    prefix: table.prefix,
    cli: { usage: "", examples: [], positionals, outputFlags: table.outputFlags },
  };
  try {
    const line = parseCommandLineBy(command, table.fields, args);
    // --format compact: the form is its definition's (`compact`), so the full path writes it.
    if (line.help || line.version || line.explain !== undefined || line.format === "compact") {
      return undefined;
    }
    const input = checkInput(table.fields, line.input());
    return input && { line, input };
  } catch {
    // A refused command line: the full path parses it again and reports it as it always has.
    return undefined;
  }
}

/**
 * The fast command of the table `name` with its definition's `code`; undefined when the table
 * has no such command (its input holds what the fast path cannot check).
 */
export function fastCommand<T>(name: string, code: FastCode<T>): FastCommand | undefined {
  const table = FLAG_TABLES[name];
  if (!table) return undefined;
  return {
    table,
    name: table.name,
    mcpName: table.mcpName,
    prefix: table.prefix,
    kind: table.kind,
    listKey: table.listKey,
    itemType: table.itemType,
    cli: { usage: "", examples: [], positionals: code.positionals, outputFlags: table.outputFlags },
    execute(raw, context) {
      const input = checkInput(table.fields, raw as Record<string, unknown>);
      if (!input) throw new TypeError(`${table.name}: input the fast path did not check`);
      // The table checked it as the input schema does, so it is the run's input type.
      return code.run(input as T, context);
    },
    renderText: (envelope) => code.text ? code.text(envelope) : JSON.stringify(envelope, null, 2),
  };
}

/**
 * Runs `command` on `args` by the fast path and returns the exit code, or undefined when the
 * full path must answer (nothing has been printed or logged then).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fastCommand, runFast } from "./cli_fast.ts";
 * const command = fastCommand("llm-discover", { run: () => Promise.reject(new Error("not run")) });
 * assert.ok(command);
 * assert.equal(await runFast(command, ["--help"]), undefined); // --help is the full path's
 * ```
 */
export async function runFast(
  command: FastCommand,
  args: string[],
  options: { log?: boolean } = {},
): Promise<number | undefined> {
  const fast = fastLine(command.table, command.cli.positionals, args);
  if (!fast) return undefined;
  const reader = {
    parse: () => fast.line,
    // Never asked: fastLine leaves --help to the full path.
    help: () => "",
  };
  return await runCommandLine(command, args, reader, options);
}
