/**
 * What an input field's zod schema cannot say by itself, said once beside it: its short flag,
 * the other names agents and users type for it, whether its values name files, and the value
 * its flag means when given alone. The CLI (flags, `--help`), the MCP server (alias acceptance,
 * path scoping) and the JSON Schema files all read it from here, so a field added to a tool's
 * input schema is complete where it is written.
 *
 * @module
 */
import { z } from "zod";

/** Metadata of one input field. */
export interface FieldMeta {
  /** Single-letter command-line flag, e.g. `e` for `-e`. */
  short?: string;
  /**
   * Other names accepted for the field: as `--long-flags` on the command line and as argument
   * names in MCP calls (e.g. `pattern` and `regexp` for `patterns`).
   */
  aliases?: readonly string[];
  /** The field's string values (or those of its list) name files or directories. */
  path?: boolean;
  /**
   * For an enum field: the value its flag means when given alone (`--validate` is
   * `--validate all`). The flag then takes the next argument as its value only when that is one
   * of the enum's values, so a command line that gave it a value parses as before.
   */
  bare?: string;
}

/**
 * The registry of field metadata. A schema derived from a registered one (by `.describe()`,
 * `.optional()`…) inherits its entry.
 */
export const fieldRegistry: z.core.$ZodRegistry<FieldMeta> = z.registry<FieldMeta>();

/**
 * Registers `meta` for `schema` and returns the schema itself, to wrap a field where it is
 * declared.
 *
 * @example Declare a path field with an alias and a short flag
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { field, fieldMeta } from "@llm/search/schema";
 * const paths = field(z.array(z.string()).default([]), { short: "p", aliases: ["path"], path: true });
 * assert.deepEqual(fieldMeta(paths).aliases, ["path"]);
 * ```
 */
export function field<T extends z.ZodType>(schema: T, meta: FieldMeta): T {
  fieldRegistry.add(schema, meta);
  return schema;
}

/**
 * The metadata of a field (empty when it has none), merged through its wrappers (`.optional()`,
 * `.default()`…), the outermost winning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { fieldMeta } from "@llm/search/schema";
 * assert.deepEqual(fieldMeta(z.string()), {});
 * ```
 */
export function fieldMeta(schema: z.ZodType): FieldMeta {
  const levels: FieldMeta[] = [];
  for (let current: z.ZodType | undefined = schema; current; current = innerOf(current)) {
    const meta = fieldRegistry.get(current);
    if (meta) levels.unshift(meta);
  }
  return Object.assign({}, ...levels);
}

/** The schema one wrapper (optional, nullable, default, pipe input) down, if `schema` is one. */
function innerOf(schema: z.ZodType): z.ZodType | undefined {
  if (
    schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable
  ) {
    return schema.def.innerType as z.ZodType;
  }
  if (schema instanceof z.ZodPipe) return schema.def.in as z.ZodType;
  return undefined;
}

/**
 * The schema under optional, nullable, default and pipe-input wrappers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { unwrapField } from "@llm/search/schema";
 * assert.ok(unwrapField(z.string().optional()) instanceof z.ZodString);
 * ```
 */
export function unwrapField(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let inner = innerOf(current); inner; inner = innerOf(current)) current = inner;
  return current;
}

function strings(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const item of value) strings(item, out); }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The values of `value` that name files, by the `path` metadata of `schema`'s fields at any
 * depth (objects, lists and unions of them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { field, pathValues } from "@llm/search/schema";
 * const input = z.object({ paths: field(z.array(z.string()), { path: true }), query: z.string() });
 * assert.deepEqual(pathValues(input, { paths: ["src", "lib"], query: "x" }), ["src", "lib"]);
 * ```
 */
export function pathValues(schema: z.ZodType, value: unknown): string[] {
  const out: string[] = [];
  collectPaths(schema, value, out);
  return [...new Set(out)];
}

function collectPaths(schema: z.ZodType, value: unknown, out: string[]): void {
  if (fieldMeta(schema).path) return strings(value, out);
  const base = unwrapField(schema);
  if (base instanceof z.ZodObject && isRecord(value)) {
    for (const [key, child] of Object.entries(base.shape)) {
      if (key in value) collectPaths(child as z.ZodType, value[key], out);
    }
  } else if (base instanceof z.ZodArray && Array.isArray(value)) {
    for (const item of value) collectPaths(base.element as z.ZodType, item, out);
  } else if (base instanceof z.ZodUnion) {
    for (const option of base.options) collectPaths(option as z.ZodType, value, out);
  }
}
