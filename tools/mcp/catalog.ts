/**
 * How a tool definition looks to an MCP client: its `tools/list` entry (input and output JSON
 * Schemas derived from the zod schemas, annotations from the definition, plus the paging
 * argument the server adds to list tools) and the preparation of a call's arguments.
 *
 * @module
 */
import { z } from "zod";
import { FIELD_ALIASES, normalizeAliases } from "../../schema/aliases.ts";
import { type Detail, DETAILS } from "../../schema/compact.ts";
import { fieldMeta, unwrapField } from "../../schema/fields.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { type JsonSchema, toJsonSchema } from "../../schema/json_schema.ts";
import { inputError, type Tool, zodSchemas } from "../../core/tool.ts";

/** A `tools/list` entry. */
export interface McpToolDescriptor {
  /** MCP tool name. */
  name: string;
  /** Human title. */
  title: string;
  /** What the tool does. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: JsonSchema & { type: "object" };
  /**
   * JSON Schema of `structuredContent` (the tool's envelope, or its compact form): only when the
   * server was started with `--output-schemas` (most clients read it and never use it).
   */
  outputSchema?: JsonSchema & { type: "object" };
  /** Behaviour hints, stated by the tool definition. */
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** A tool as the server offers it. */
export interface CatalogEntry {
  /** The definition. */
  tool: Tool;
  /** Its `tools/list` entry. */
  descriptor: McpToolDescriptor;
  /** Argument the server adds for paging through `data[listKey]`, when the tool has a list. */
  offsetArgument?: string;
  /** Whether the server adds the `detail` argument (tools with a list or a compact form). */
  takesDetail: boolean;
}

/**
 * The argument the server adds to every tool with a result list or a compact form (a transform's
 * answer leaves its checksums out unless asked): how much of each result to show. It is the server's, like the offset, because it shapes the
 * answer, not the run: the engines never see it, and the CLI says the same with `--format`.
 */
export const DETAIL_ARGUMENT = "detail";

const DETAIL_SCHEMA = {
  type: "string",
  enum: [...DETAILS],
  description: '"full" adds ids and whole text',
};

/** What the server's offset argument says (the instructions say how paging works). */
const OFFSET_DESCRIPTION = "Results to skip";

/** How the server lists its tools. */
export interface CatalogOptions {
  /** Put each tool's outputSchema in its entry (`--output-schemas`); default: left out. */
  outputSchemas?: boolean;
}

/** The tool's envelope schema, or, when it declares a compact form, either form. */
function answerSchema(tool: Tool): z.ZodType {
  const { output, compact } = zodSchemas(tool);
  return compact ? z.union([compact, output]) : output;
}

/**
 * JSON Schema for MCP: the 2020-12 dialect MCP assumes by default, without `$schema`, and
 * without what says nothing more to a client (see {@linkcode withoutRedundancy}).
 */
function mcpSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema & { type: "object" } {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, io);
  const slim = withoutRedundancy(rest) as JsonSchema;
  return { ...slim, type: "object" };
}

/**
 * What a field's description says only of the command line (positional arguments, JSON text,
 * repetition, standard input, exit codes), left out of what the model reads.
 */
const COMMAND_LINE_ONLY: readonly [RegExp, string][] = [
  [/[.;] On the command line, [^.;(]*/gi, ""],
  [/;? ?\(?on the command line,? [^);]*\)?/gi, ""],
  [/ ?\(the first positional argument\)/g, ""],
  [/ ?\(first positional\)/g, ""],
  [/\(the first positional argument; ([^)]*)\)/g, "($1)"],
  [/ ?\(repeatable\)/g, ""],
  [/ ?\(exit 1 when changes are pending\)/g, ""],
  [/ ?\[default: false on the command line, true for MCP clients\]/g, " [default: true]"],
];

/** Trailing notes a merged tool adds to a field: its defaults and the values that take it. */
const MERGE_NOTES = /(\s*(\[default: [^\]]*\]|\((not )?(relation|algorithm|op): [^)]*\)))+$/;

/** A field's description longer than this is cut to its first clause for the model. */
const FIELD_TEXT_BYTES = 48;

/**
 * A field's description as the model reads it: without what says only of the command line
 * (see {@linkcode COMMAND_LINE_ONLY}), and, when long, cut to its first clause (up to `;` or a
 * sentence's end), a merged tool's notes kept. `--help` and the JSON Schema files keep it whole.
 */
function modelText(description: string): string {
  let text = description;
  for (const [pattern, replacement] of COMMAND_LINE_ONLY) text = text.replace(pattern, replacement);
  const notes = MERGE_NOTES.exec(text)?.[0] ?? "";
  let head = text.slice(0, text.length - notes.length).trim();
  if (head.length > FIELD_TEXT_BYTES) {
    const cut = [/; /g, /(?<!e\.g|i\.e)\. /g, / \((?!e\.g)/g].map((pattern) => {
      pattern.lastIndex = 20;
      return pattern.exec(head)?.index ?? -1;
    }).filter((index) => index > 0);
    if (cut.length) head = head.slice(0, Math.min(...cut));
  }
  return `${head}${notes}`.trim();
}

/** Whether `value` is `{}` (the schema that allows anything). */
function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length === 0;
}

/** Whether `option` is a bare string schema, beside a list or an object: its JSON as text. */
function isJsonText(option: unknown): boolean {
  return JSON.stringify(option) === '{"type":"string"}';
}

/** Whether `value` is the empty value of its type: an argument left out means the same. */
function isEmptyDefault(value: unknown): boolean {
  return value === false || (Array.isArray(value) && value.length === 0);
}

/**
 * An input schema as the model reads it: each field's description without what says only of the
 * command line, and no descriptions inside a field's items (the field's own says their shape).
 */
function modelSchema(schema: JsonSchema): void {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    const description = typeof property.description === "string"
      ? { description: modelText(property.description) }
      : {};
    properties[name] = { ...withoutDescriptions(property) as JsonSchema, ...description };
  }
}

/** `value` with no `description` at any depth. */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "description") continue;
    out[key] = key === "properties"
      ? Object.fromEntries(
        Object.entries(child as Record<string, unknown>).map(([name, property]) => [
          name,
          withoutDescriptions(property),
        ]),
      )
      : withoutDescriptions(child);
  }
  return out;
}

/**
 * A schema without what says nothing more to a client (`tools/list` is read whole by every
 * client): zod's bounds of a safe integer (every count and offset has them; JSON numbers past
 * them never occur), the long patterns zod adds beside `format: "uuid"` and
 * `format: "date-time"` (the format says it), a default of `false` or `[]` (an argument left
 * out means that), a `minLength` of 1, an `additionalProperties` that allows anything, and the
 * text form of a JSON value beside it in an `anyOf` (the command line's; an MCP client sends the
 * value). The full JSON Schemas of the contract, in `schema/json/`, keep them.
 */
function withoutRedundancy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRedundancy);
  if (typeof value !== "object" || value === null) return value;
  const schema = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(schema)) {
    if (key === "maximum" && child === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && child === Number.MIN_SAFE_INTEGER) continue;
    if (key === "pattern" && typeof schema.format === "string") continue;
    if (key === "default" && isEmptyDefault(child)) continue;
    if (key === "minLength" && child === 1) continue;
    if (key === "additionalProperties" && isEmptyObject(child)) continue;
    if (key === "anyOf" && Array.isArray(child)) {
      // A JSON value the command line also takes as text: the client sends the value.
      const values = child.filter((option) => !isJsonText(option));
      if (values.length === 1 && child.length === 2) {
        Object.assign(out, withoutRedundancy(values[0]));
        continue;
      }
    }
    out[key] = key === "properties" || key === "$defs"
      ? Object.fromEntries(
        Object.entries(child as Record<string, unknown>).map(([name, property]) => [
          name,
          withoutRedundancy(property),
        ]),
      )
      : withoutRedundancy(child);
  }
  return out;
}

/** The paging argument's name: `offset`, or `page_offset` when the tool has its own `offset`. */
function offsetName(tool: Tool): string {
  return "offset" in tool.input.shape ? "page_offset" : "offset";
}

/**
 * The catalog entry of `tool`. `pageable` adds the offset argument (tools with a `listKey`, and
 * `get_execution`, whose pages are those of the result it returns). The arguments the tool marks
 * `unlisted` are left out of its inputSchema (they are still accepted, as the server's
 * instructions say); the outputSchema is there only when `options.outputSchemas` asks for it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { catalogEntry } from "./catalog.ts";
 * import { getExecutionTool } from "./execution_tool.ts";
 * const entry = catalogEntry(getExecutionTool(() => undefined), true);
 * const properties = entry.descriptor.inputSchema.properties ?? {};
 * assert.deepEqual(Object.keys(properties), ["execution_id", "limit", "offset", "detail"]);
 * assert.equal(entry.descriptor.outputSchema, undefined);
 * ```
 */
export function catalogEntry(
  tool: Tool,
  pageable: boolean = tool.listKey !== undefined,
  options: CatalogOptions = {},
): CatalogEntry {
  const schemas = zodSchemas(tool);
  const inputSchema = mcpSchema(schemas.input, "input");
  modelSchema(inputSchema);
  const unlisted = (tool.unlisted ?? []).filter((name) => name in tool.input.shape);
  const example = tool.example ? `\nExample: ${JSON.stringify(tool.example)}` : "";
  const entry: CatalogEntry = {
    tool,
    takesDetail: pageable || (tool.compact !== undefined && !tool.compact.generic),
    descriptor: {
      name: tool.mcpName,
      title: tool.title,
      description: `${tool.description}${example}`,
      inputSchema,
      ...(options.outputSchemas ? { outputSchema: mcpSchema(answerSchema(tool), "output") } : {}),
      annotations: {
        title: tool.title,
        ...tool.annotations,
        openWorldHint: false,
      },
    },
  };
  const properties: Record<string, JsonSchema> = {
    ...(inputSchema.properties as Record<string, JsonSchema> | undefined),
  };
  for (const name of unlisted) delete properties[name];
  if (pageable) {
    entry.offsetArgument = offsetName(tool);
    properties[entry.offsetArgument] = {
      type: "integer",
      minimum: 0,
      description: OFFSET_DESCRIPTION,
    };
  }
  if (entry.takesDetail) properties[DETAIL_ARGUMENT] = DETAIL_SCHEMA;
  inputSchema.properties = properties;
  if (Array.isArray(inputSchema.required)) {
    const required = inputSchema.required.filter((name) => !unlisted.includes(name as string));
    if (required.length) inputSchema.required = required;
    else delete inputSchema.required;
  }
  return entry;
}

/** A call's arguments split into the tool's input and the server's own paging offset. */
export interface PreparedCall {
  /** Arguments for `tool.execute`, aliases renamed. */
  input: Record<string, unknown>;
  /** Items to skip in the result list. */
  offset: number;
  /** How much of the result to show. */
  detail: Detail;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Every name a tool's input field goes by in a call: its own, its declared aliases, and the
 * contract's legacy names (`file`, `operation_id`, …) of it.
 */
function argumentNames(tool: Tool): Map<string, string> {
  const names = new Map<string, string>();
  for (const [legacy, canonical] of Object.entries(FIELD_ALIASES)) {
    if (canonical in tool.input.shape) names.set(legacy, canonical);
  }
  for (const [name, schema] of Object.entries(tool.input.shape)) {
    for (const alias of fieldMeta(schema as z.ZodType).aliases ?? []) names.set(alias, name);
  }
  for (const name of Object.keys(tool.input.shape)) names.set(name, name);
  return names;
}

/**
 * The arguments under the tool's field names: aliases renamed (a canonical name given too
 * wins), a lone string given for a list field made a list of one (`path: "src"`), and legacy
 * names inside lists of objects (edits) renamed by the contract's rules.
 */
function canonicalArguments(
  tool: Tool,
  args: Record<string, unknown>,
  names: Map<string, string>,
): { input: Record<string, unknown>; unknown: string[] } {
  const input: Record<string, unknown> = {};
  const unknown: string[] = [];
  // Canonical names last, so that they win over an alias of the same field.
  const given = Object.entries(args).sort(([a], [b]) =>
    Number(names.get(a) === a) - Number(names.get(b) === b)
  );
  for (const [key, value] of given) {
    const name = names.get(key);
    if (name === undefined) {
      unknown.push(key);
      continue;
    }
    const isList = unwrapField(tool.input.shape[name] as z.ZodType) instanceof z.ZodArray;
    input[name] = isList && typeof value === "string"
      ? [value]
      : Array.isArray(value)
      ? normalizeAliases(value)
      : value;
  }
  return { input, unknown };
}

/** Edit distance of two short names, to suggest the argument a mistyped one meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, substitution));
    }
    previous = row;
  }
  return previous[b.length];
}

/** The `*-ARG-002` refusal of an argument the tool does not take, with the ones it does. */
function unknownArgument(entry: CatalogEntry, key: string, names: Map<string, string>): ToolError {
  const tool = entry.tool;
  const fields = [
    ...Object.keys(tool.input.shape),
    ...(entry.offsetArgument ? [entry.offsetArgument] : []),
    ...(entry.takesDetail ? [DETAIL_ARGUMENT] : []),
  ];
  const closest = [...names.keys()].map((name) => ({ name, far: distance(key, name) }))
    .filter(({ far }) => far <= Math.max(1, Math.floor(key.length / 3)))
    .sort((a, b) => a.far - b.far)[0];
  const hint = closest ? ` (did you mean '${names.get(closest.name)}'?)` : "";
  return new ToolError(
    `${tool.prefix}-ARG-002`,
    `invalid input: unknown argument '${key}'${hint}`,
    {
      note: `${tool.mcpName} takes: ${fields.join(", ")}`,
      ...exampleRemediation(tool),
    },
  );
}

/** A remediation showing the tool's example call, when it has one. */
function exampleRemediation(tool: Tool): { remediation?: string } {
  return tool.example ? { remediation: `Example: ${JSON.stringify(tool.example)}` } : {};
}

/**
 * Checks and prepares the arguments of a call: the paging offset is taken out, aliases and
 * legacy names (`pattern`, `path`, `file`, `operation_id`, …) become the canonical fields the
 * tool declares, unknown fields are refused, and the rest must satisfy the tool's input schema.
 * Throws a `*-ARG-002` {@linkcode ToolError} naming the argument at fault (the server answers
 * it as a tool result with `isError`, which the model sees).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { catalogEntry, prepareCall } from "./catalog.ts";
 * import { getExecutionTool } from "./execution_tool.ts";
 * const entry = catalogEntry(getExecutionTool(() => undefined), true);
 * assert.deepEqual(prepareCall(entry, { operation_id: "x", offset: 5 }), {
 *   input: { execution_id: "x" },
 *   offset: 5,
 *   detail: "compact",
 * });
 * ```
 */
export function prepareCall(entry: CatalogEntry, raw: unknown): PreparedCall {
  const tool = entry.tool;
  const prefix = tool.prefix;
  if (raw !== undefined && !isRecord(raw)) {
    throw new ToolError(`${prefix}-ARG-002`, "invalid input: $: arguments must be an object");
  }
  const args: Record<string, unknown> = { ...raw };
  let offset = 0;
  if (entry.offsetArgument !== undefined && entry.offsetArgument in args) {
    const value = args[entry.offsetArgument];
    delete args[entry.offsetArgument];
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      throw new ToolError(
        `${prefix}-ARG-002`,
        `invalid input: $.${entry.offsetArgument}: expected a non-negative integer`,
      );
    }
    offset = value as number;
  }
  let detail: Detail | undefined;
  if (entry.takesDetail && DETAIL_ARGUMENT in args) {
    const value = args[DETAIL_ARGUMENT];
    delete args[DETAIL_ARGUMENT];
    if (!DETAILS.includes(value as Detail)) {
      throw new ToolError(
        `${prefix}-ARG-002`,
        `invalid input: $.${DETAIL_ARGUMENT}: expected one of ${DETAILS.join(", ")}`,
      );
    }
    detail = value as Detail;
  }
  const names = argumentNames(tool);
  const { input, unknown } = canonicalArguments(tool, args, names);
  if (unknown.length) throw unknownArgument(entry, unknown[0], names);
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) {
    const error = inputError(prefix, parsed.error);
    throw new ToolError(error.code, error.message, {
      ...error.details,
      ...exampleRemediation(tool),
    });
  }
  return { input, offset, detail: detail ?? defaultDetail(input) };
}

/** Input flags asking for span extensions, which only the full form of a match carries. */
const EXTENSION_FLAGS = ["with_context", "with_checksums", "with_semantics"];

/**
 * The detail of a call that names none: compact, unless it asks for an extension (context,
 * checksums, semantics) that only the full form shows; asking for one is asking for that form.
 */
function defaultDetail(input: Record<string, unknown>): Detail {
  return EXTENSION_FLAGS.some((flag) => input[flag] === true) ? "full" : "compact";
}
