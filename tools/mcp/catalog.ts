/**
 * How a tool definition looks to an MCP client: its `tools/list` entry (input and output JSON
 * Schemas derived from the zod schemas, annotations from the definition, plus the paging
 * argument the server adds to list tools) and the preparation of a call's arguments.
 *
 * @module
 */
import type { z } from "zod";
import { FIELD_ALIASES } from "../../schema/aliases.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { type JsonSchema, toJsonSchema } from "../../schema/json_schema.ts";
import { inputError, type Tool } from "../../core/tool.ts";

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
  /** JSON Schema of `structuredContent` (the tool's envelope). */
  outputSchema: JsonSchema & { type: "object" };
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
}

/** JSON Schema for MCP: the 2020-12 dialect MCP assumes by default, without `$schema`. */
function mcpSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema & { type: "object" } {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, io);
  return { ...rest, type: "object" };
}

/** The paging argument's name: `offset`, or `page_offset` when the tool has its own `offset`. */
function offsetName(tool: Tool): string {
  return "offset" in tool.input.shape ? "page_offset" : "offset";
}

/**
 * The catalog entry of `tool`. `pageable` adds the offset argument (tools with a `listKey`, and
 * `get_execution`, whose pages are those of the result it returns).
 *
 * @example
 * ```ts
 * import { catalogEntry, getExecutionTool } from "@llm/search/mcp";
 * const entry = catalogEntry(getExecutionTool(() => undefined), true);
 * entry.descriptor.inputSchema.properties; // { execution_id: …, offset: … }
 * ```
 */
export function catalogEntry(
  tool: Tool,
  pageable: boolean = tool.listKey !== undefined,
): CatalogEntry {
  const inputSchema = mcpSchema(tool.input, "input");
  const entry: CatalogEntry = {
    tool,
    descriptor: {
      name: tool.mcpName,
      title: tool.title,
      description: tool.description,
      inputSchema,
      outputSchema: mcpSchema(tool.output, "output"),
      annotations: {
        title: tool.title,
        ...tool.annotations,
        openWorldHint: false,
      },
    },
  };
  if (pageable) {
    const name = offsetName(tool);
    const properties = (inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    inputSchema.properties = {
      ...properties,
      [name]: {
        type: "integer",
        minimum: 0,
        default: 0,
        description: "Paging by the MCP server: skip this many result items. A result cut to " +
          "fit the output budget names the offset of the next page in an MCP-QRY-001 diagnostic.",
      },
    };
    entry.offsetArgument = name;
  }
  return entry;
}

/** A call's arguments split into the tool's input and the server's own paging offset. */
export interface PreparedCall {
  /** Arguments for `tool.execute`, legacy names renamed. */
  input: Record<string, unknown>;
  /** Items to skip in the result list. */
  offset: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks and prepares the arguments of a call: the paging offset is taken out, top-level
 * legacy names (`file`, `operation_id`, …) become the canonical fields the tool declares,
 * unknown fields are refused, and the rest must satisfy the tool's input schema. Throws a
 * `*-ARG-002` {@linkcode ToolError} (the server answers it as a JSON-RPC error).
 *
 * @example
 * ```ts
 * import { catalogEntry, getExecutionTool, prepareCall } from "@llm/search/mcp";
 * const entry = catalogEntry(getExecutionTool(() => undefined), true);
 * prepareCall(entry, { operation_id: "x", offset: 5 }); // { input: { execution_id: "x" }, offset: 5 }
 * ```
 */
export function prepareCall(entry: CatalogEntry, raw: unknown): PreparedCall {
  const tool = entry.tool;
  const prefix = tool.prefix;
  if (raw !== undefined && !isRecord(raw)) {
    throw new ToolError(`${prefix}-ARG-002`, "invalid input: $: arguments must be an object");
  }
  const input: Record<string, unknown> = { ...raw };
  let offset = 0;
  if (entry.offsetArgument !== undefined && entry.offsetArgument in input) {
    const value = input[entry.offsetArgument];
    delete input[entry.offsetArgument];
    if (!Number.isSafeInteger(value) || (value as number) < 0) {
      throw new ToolError(
        `${prefix}-ARG-002`,
        `invalid input: $.${entry.offsetArgument}: expected a non-negative integer`,
      );
    }
    offset = value as number;
  }
  const shape = tool.input.shape;
  for (const key of Object.keys(input)) {
    const canonical = FIELD_ALIASES[key];
    if (key in shape || canonical === undefined || !(canonical in shape)) continue;
    if (!(canonical in input)) input[canonical] = input[key];
    delete input[key];
  }
  const unknown = Object.keys(input).filter((key) => !(key in shape));
  if (unknown.length) {
    const fields = [...Object.keys(shape), ...(entry.offsetArgument ? [entry.offsetArgument] : [])];
    throw new ToolError(`${prefix}-ARG-002`, `invalid input: unknown argument '${unknown[0]}'`, {
      note: `${tool.mcpName} takes: ${fields.join(", ")}`,
    });
  }
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) throw inputError(prefix, parsed.error);
  return { input, offset };
}
