/**
 * A command's table derived from its zod input schema (`commandTable`): the one derivation of
 * flags, `--help` and input rules from a definition. `deno task schema` writes the tables of
 * every command into `core/tables/` (`scripts/flag_tables.ts`), by which each entrypoint
 * parses its command line without zod (`cli_table.ts`); {@linkcode runCli} runs any definition
 * by the table derived here, so a tool outside the registry runs the same way.
 *
 * @module
 */
import { z } from "zod";
import { fieldMeta, unwrapField } from "../schema/fields.ts";
import {
  type BareFlag,
  type FlagKind,
  flagName,
  parseCommandLineBy,
  type ParsedCommandLine,
} from "./cli_run.ts";
import {
  type CommandCode,
  type CommandTable,
  type FieldRule,
  type JsonType,
  type RuleCheck,
  runCommand,
  type TableField,
  tableHelp,
} from "./cli_table.ts";
import type { CommandSpec, Tool } from "./tool.ts";

export type { BareFlag, FlagSpec, OutputFormat, ParsedCommandLine } from "./cli_run.ts";

/** A part of a schema the table cannot state as zod checks it. */
class Unsupported extends Error {}

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

interface CheckDef {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
  pattern?: RegExp;
  abort?: boolean;
}

// deno-lint-ignore no-explicit-any
type Check = z.core.$ZodCheck<any>;

function checksOf(schema: z.ZodType): Check[] {
  return (schema.def.checks ?? []) as Check[];
}

function defOf(check: Check): CheckDef {
  const def = check._zod.def as unknown as CheckDef;
  // zod's own length checks hold a `when` (they apply to values with a length): not a condition
  // of the schema's author, which these checks do not take.
  if (def.abort) throw new Unsupported(`an aborting check ${def.check}`);
  return def;
}

/** What zod says when `value` fails `schema`, which must refuse it with exactly one issue. */
function messageOf(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value);
  const issues = parsed.success ? [] : parsed.error.issues;
  if (issues.length !== 1 || issues[0].path.length !== 0) {
    throw new Unsupported(`a probe of ${schema.def.type} that does not fail once`);
  }
  return issues[0].message;
}

function numberRule(schema: z.ZodNumber): FieldRule {
  const checks = checksOf(schema).map((check): RuleCheck => {
    const def = defOf(check);
    const alone = z.number().check(check);
    const bound = Number(def.value);
    if (def.check === "number_format" && def.format === "safeint") {
      return { check: "integer", message: messageOf(alone, 0.5) };
    }
    if (def.check === "greater_than" || def.check === "less_than") {
      const minimum = def.check === "greater_than";
      const violation = def.inclusive ? bound + (minimum ? -1 : 1) : bound;
      return {
        check: minimum ? "minimum" : "maximum",
        value: bound,
        ...(def.inclusive ? {} : { exclusive: true }),
        message: messageOf(alone, violation),
      };
    }
    throw new Unsupported(`number check ${def.check}`);
  });
  return checks.length ? { type: "number", checks } : { type: "number" };
}

/** Strings a pattern is tried against, to find one it refuses (and so the message). */
const PATTERN_PROBES = ["", "\u0000", " ", "x", "-", "0", "=", "a".repeat(300)];

function stringRule(schema: z.ZodString): FieldRule {
  const checks = checksOf(schema).map((check): RuleCheck => {
    const def = defOf(check);
    const alone = z.string().check(check);
    if (def.check === "min_length" && def.minimum !== undefined && def.minimum > 0) {
      const message = messageOf(alone, "x".repeat(def.minimum - 1));
      return { check: "minLength", value: def.minimum, message };
    }
    if (def.check === "max_length" && def.maximum !== undefined) {
      const message = messageOf(alone, "x".repeat(def.maximum + 1));
      return { check: "maxLength", value: def.maximum, message };
    }
    if (def.check === "string_format" && def.format === "regex" && def.pattern) {
      const refused = PATTERN_PROBES.find((probe) => !alone.safeParse(probe).success);
      if (refused === undefined) throw new Unsupported("a pattern no probe fails");
      const { source, flags } = def.pattern;
      return {
        check: "pattern",
        pattern: source,
        ...(flags ? { flags } : {}),
        message: messageOf(alone, refused),
      };
    }
    throw new Unsupported(`string check ${def.check}`);
  });
  return checks.length ? { type: "string", checks } : { type: "string" };
}

/** The types of value `schema` may accept: a superset, or undefined for any. */
function acceptsOf(schema: z.ZodType): JsonType[] | undefined {
  if ((schema.def as { coerce?: boolean }).coerce) return undefined;
  if (schema instanceof z.ZodString || schema instanceof z.ZodEnum) return ["string"];
  if (schema instanceof z.ZodNumber) return ["number"];
  if (schema instanceof z.ZodBoolean) return ["boolean"];
  if (schema instanceof z.ZodArray || schema instanceof z.ZodTuple) return ["array"];
  if (schema instanceof z.ZodObject || schema instanceof z.ZodRecord) return ["object"];
  if (schema instanceof z.ZodNull) return ["null"];
  if (schema instanceof z.ZodPipe) return acceptsOf(schema.def.in as z.ZodType);
  if (schema instanceof z.ZodUnion) {
    const all = (schema.options as z.ZodType[]).map(acceptsOf);
    return all.some((types) => types === undefined)
      ? undefined
      : [...new Set(all.flat())] as JsonType[];
  }
  return undefined;
}

/** The rule of a schema (wrappers removed); a part the table cannot state becomes `schema`. */
function ruleOf(schema: z.ZodType): FieldRule {
  try {
    return ownRule(schema);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    const accepts = acceptsOf(schema);
    return accepts ? { type: "schema", accepts } : { type: "schema" };
  }
}

function ownRule(schema: z.ZodType): FieldRule {
  if ((schema.def as { coerce?: boolean }).coerce) throw new Unsupported("coercion");
  if (schema instanceof z.ZodBoolean && checksOf(schema).length === 0) return { type: "boolean" };
  if (schema instanceof z.ZodNumber) return numberRule(schema);
  if (schema instanceof z.ZodString) return stringRule(schema);
  if (schema instanceof z.ZodEnum && checksOf(schema).length === 0) {
    const values = Object.values(schema.def.entries);
    if (!values.every((value) => typeof value === "string")) throw new Unsupported("enum");
    return { type: "enum", values: values as string[], message: messageOf(schema, "\u0000") };
  }
  if (schema instanceof z.ZodArray && checksOf(schema).length === 0) {
    return { type: "array", items: ruleOf(schema.element as z.ZodType) };
  }
  if (
    schema instanceof z.ZodUnion && checksOf(schema).length === 0 &&
    !("discriminator" in schema.def) && (schema.def as { inclusive?: boolean }).inclusive !== false
  ) {
    return { type: "union", options: (schema.options as z.ZodType[]).map(ruleOf) };
  }
  throw new Unsupported(schema.def.type);
}

/**
 * A field's rule, whether it is required (and zod's message when it is left out) and its
 * default, through `.optional()` and `.default()`; undefined for wrappers the table cannot
 * follow (the command is then `refined`: zod checks every input).
 */
function fieldRule(
  field: string,
  schema: z.ZodType,
): Pick<TableField, "rule" | "required" | "missing"> | undefined {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) {
    const inner = schema.def.innerType as z.ZodType;
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) return undefined;
    if (inner instanceof z.ZodNullable) return undefined;
    return { rule: ruleOf(inner) };
  }
  if (schema instanceof z.ZodNullable) return undefined;
  const probe = z.object({ [field]: schema }).safeParse({});
  if (probe.success || probe.error.issues.length !== 1) return undefined;
  return { rule: ruleOf(schema), required: true, missing: probe.error.issues[0].message };
}

/** Whether JSON holds `value` exactly (a default the table can carry). */
function isJson(value: unknown): boolean {
  if (value === undefined) return true;
  return JSON.stringify(JSON.parse(JSON.stringify(value) ?? "null")) === JSON.stringify(value);
}

/**
 * The table of a command, from its definition (a tool's, or a program's own options): each
 * field's flag, `--help` row and rule, and the command's help texts. The one derivation of flags
 * from zod: `deno task schema` writes it for every command into `core/tables/`, which the
 * entrypoints parse by, and {@linkcode runCli} runs any definition by it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandTable } from "./cli.ts";
 * import { searchTool } from "@llm/search";
 * const table = commandTable(searchTool);
 * const threads = table.fields.find((field) => field.flag === "threads");
 * assert.deepEqual(threads?.rule, {
 *   type: "number",
 *   checks: [
 *     { check: "integer", message: "Invalid input: expected int, received number" },
 *     { check: "minimum", value: 0, exclusive: true, message: "Too small: expected number to be >0" },
 *     { check: "maximum", value: 1024, message: "Too big: expected number to be <=1024" },
 *   ],
 * });
 * ```
 */
export function commandTable(command: CommandSpec | Tool): CommandTable {
  const input = command.input as unknown as z.ZodObject;
  if (!(input instanceof z.ZodObject)) {
    throw new TypeError(`${command.name}: the input schema is not a zod object schema`);
  }
  let refined = checksOf(input).length > 0 || input.def.catchall !== undefined;
  const fields = Object.entries(input.shape).map(([field, value]): TableField => {
    const schema = value as z.ZodType;
    const base = unwrapField(schema);
    const meta = fieldMeta(schema);
    const choices = base instanceof z.ZodEnum ? (base.options as string[]) : undefined;
    const bare = bareFlag(field, meta.bare, choices);
    const defaultValue = defaultOf(schema);
    const rule = fieldRule(field, schema);
    if (!rule || !isJson(defaultValue)) refined = true;
    const integer = base instanceof z.ZodNumber && base.format === "safeint";
    return {
      field,
      flag: flagName(field),
      kind: kindOf(base),
      ...(meta.short ? { short: meta.short } : {}),
      aliases: (meta.aliases ?? []).map(flagName),
      ...(integer ? { integer } : {}),
      ...(bare ? { bare } : {}),
      description: schema.description ?? base.description ?? "",
      ...(defaultValue === undefined ? {} : { default: defaultValue }),
      ...(choices ? { choices } : {}),
      ...(meta.path ? { path: true } : {}),
      ...(rule ?? { rule: { type: "schema" } }),
    };
  });
  const tool = command as Partial<Tool>;
  const cli = command.cli;
  return {
    name: command.name,
    ...(tool.mcpName ? { mcpName: tool.mcpName } : {}),
    prefix: command.prefix,
    ...(tool.kind ? { kind: tool.kind } : {}),
    ...(tool.operationType ? { operationType: tool.operationType } : {}),
    ...(tool.listKey ? { listKey: tool.listKey } : {}),
    ...(tool.itemType ? { itemType: tool.itemType } : {}),
    title: command.title,
    description: command.description,
    usage: cli.usage,
    ...(cli.notes ? { notes: cli.notes } : {}),
    examples: cli.examples,
    ...(cli.exitCodes ? { exitCodes: cli.exitCodes } : {}),
    outputFlags: cli.outputFlags ?? true,
    ...(refined ? { refined } : {}),
    fields,
  };
}

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
export function helpText(command: CommandSpec | Tool): string {
  return tableHelp(commandTable(command));
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
export function parseCommandLine(command: CommandSpec | Tool, args: string[]): ParsedCommandLine {
  return parseCommandLineBy(command, commandTable(command).fields, args);
}

/**
 * Runs a tool as a command: parses `args` by the table derived from its definition, runs,
 * prints one JSON document (or JSONL, or text) on stdout and returns the exit code. Never
 * throws. The run is also appended to the execution log of its root (see `core/cli_log.ts`)
 * unless `options.log` is false. The commands of this package run the same way by their
 * generated tables (`runCommand`), without loading zod.
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
  return await runCommand(commandTable(tool), definitionCode(tool), args, options);
}

/**
 * The code of a command by its loaded definition: its `execute` (which checks the input by its
 * schema again), text, positionals and compact form, and its schema for what the table leaves to
 * zod. For a command whose definitions its entrypoint loads anyway (`llm-refactor`'s, exported).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { definitionCode } from "./cli.ts";
 * import { searchTool } from "@llm/search";
 * assert.equal(definitionCode(searchTool).positionals, searchTool.cli.positionals);
 * ```
 */
export function definitionCode(tool: Tool): CommandCode<Record<string, unknown>> {
  return {
    run: (input, context) => tool.execute(input, context),
    text: (envelope) => tool.renderText(envelope),
    positionals: tool.cli.positionals,
    compact: tool.compact?.form,
    schema: () => Promise.resolve(tool.input),
  };
}
