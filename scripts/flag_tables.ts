/**
 * The flag tables of the fast path (`core/flag_tables.json`, read by `core/cli_fast.ts`),
 * derived from the tools' zod input schemas by `deno task schema`: each field's flag (the same
 * `flagSpecs` the full path uses), what its schema accepts, and its default. Only what the fast
 * path checks exactly as zod does is written: a tool whose input holds anything else (a
 * refinement, a transform, an exclusive bound, a union…) gets no table, and its command line
 * always takes the full path. A test fails while the file is stale.
 *
 * @module
 */
import { z } from "zod";
import { flagSpecs } from "../core/cli.ts";
import type { FieldRule, FlagTable, TableField } from "../core/cli_fast.ts";
import { type Tool, zodSchemas } from "../core/tool.ts";
import { TOOLS } from "../tools/registry.ts";

/** A schema the fast path cannot check as zod does. */
class Unsupported extends Error {}

interface Check {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
  minimum?: number;
}

function checksOf(schema: z.ZodType): Check[] {
  return (schema.def.checks ?? []).map((check) => check._zod.def as unknown as Check);
}

function numberRule(schema: z.ZodNumber): FieldRule {
  const rule: FieldRule = { type: "number" };
  for (const check of checksOf(schema)) {
    if (check.check === "number_format" && check.format === "safeint") rule.integer = true;
    else if (check.check === "greater_than" && check.inclusive) rule.minimum = Number(check.value);
    else if (check.check === "less_than" && check.inclusive) rule.maximum = Number(check.value);
    else throw new Unsupported(`number check ${check.check}`);
  }
  return rule;
}

function stringRule(schema: z.ZodString): FieldRule {
  const rule: FieldRule = { type: "string" };
  for (const check of checksOf(schema)) {
    if (check.check === "min_length") rule.minLength = check.minimum;
    else throw new Unsupported(`string check ${check.check}`);
  }
  return rule;
}

/** The rule of a schema with its wrappers removed. */
function ruleOf(schema: z.ZodType): FieldRule {
  if (schema instanceof z.ZodBoolean && checksOf(schema).length === 0) return { type: "boolean" };
  if (schema instanceof z.ZodNumber) return numberRule(schema);
  if (schema instanceof z.ZodString) return stringRule(schema);
  if (schema instanceof z.ZodEnum && checksOf(schema).length === 0) {
    const values = Object.values(schema.def.entries);
    if (!values.every((value) => typeof value === "string")) throw new Unsupported("enum");
    return { type: "string", enum: values as string[] };
  }
  if (schema instanceof z.ZodArray && checksOf(schema).length === 0) {
    const items = ruleOf(schema.element as z.ZodType);
    if (items.type === "array") throw new Unsupported("nested array");
    return { type: "array", items };
  }
  throw new Unsupported(schema.def.type);
}

/** A field's rule, whether it is required, and its default, through optional and default. */
function fieldRule(schema: z.ZodType): Pick<TableField, "rule" | "required" | "default"> {
  if (schema instanceof z.ZodDefault) {
    const inner = schema.def.innerType as z.ZodType;
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) {
      throw new Unsupported("nested wrappers");
    }
    const value: unknown = schema.def.defaultValue;
    if (JSON.stringify(JSON.parse(JSON.stringify(value) ?? "null")) !== JSON.stringify(value)) {
      throw new Unsupported("a default JSON cannot hold");
    }
    return { rule: ruleOf(inner), required: false, default: value };
  }
  if (schema instanceof z.ZodOptional) {
    const inner = schema.def.innerType as z.ZodType;
    if (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) {
      throw new Unsupported("nested wrappers");
    }
    return { rule: ruleOf(inner), required: false };
  }
  return { rule: ruleOf(schema), required: true };
}

/**
 * The table's rule of an input field: its own, or `deferred` for an optional field (no default)
 * whose schema
 * the fast path cannot check (a command line that gives it takes the full path).
 */
function tableRule(schema: z.ZodType): Pick<TableField, "rule" | "required" | "default"> {
  try {
    return fieldRule(schema);
  } catch (error) {
    // Only a field that is absent when not given: a default would have to be filled in.
    if (!(error instanceof Unsupported) || !(schema instanceof z.ZodOptional)) throw error;
    return { rule: { type: "deferred" }, required: false };
  }
}

/** The flag table of `tool`, or undefined when its input holds what the fast path cannot check. */
export function flagTable(tool: Tool): FlagTable | undefined {
  const { input } = zodSchemas(tool);
  if (checksOf(input).length > 0 || input.def.catchall !== undefined) return undefined;
  const specs = flagSpecs(tool);
  try {
    const fields = specs.map((spec): TableField => {
      const { field, flag, kind, short, aliases, integer, bare } = spec;
      const parse = {
        field,
        flag,
        kind,
        aliases,
        ...(short ? { short } : {}),
        ...(bare ? { bare } : {}),
      };
      return { ...parse, ...(integer ? { integer } : {}), ...tableRule(input.shape[field]) };
    });
    return {
      name: tool.name,
      mcpName: tool.mcpName,
      prefix: tool.prefix,
      kind: tool.kind,
      ...(tool.listKey ? { listKey: tool.listKey } : {}),
      ...(tool.itemType ? { itemType: tool.itemType } : {}),
      outputFlags: tool.cli.outputFlags ?? true,
      fields,
    };
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/**
 * The text of `core/flag_tables.json` for `tools` (default: the registry).
 *
 * @example
 * ```ts
 * import { flagTablesText } from "./flag_tables.ts";
 * JSON.parse(flagTablesText())["llm-symbols find"].fields[0].field; // "name"
 * ```
 */
export function flagTablesText(tools: readonly Tool[] = TOOLS): string {
  const tables: Record<string, FlagTable> = {};
  for (const tool of tools) {
    const table = flagTable(tool);
    if (table) tables[tool.name] = table;
  }
  return JSON.stringify(tables, null, 2) + "\n";
}
