/**
 * A tool is defined once, as data: name, description, zod input schema, permissions, output
 * schema and a run function. The CLI adapter ({@linkcode runCli}), the JSON Schema files and
 * the MCP server are all derived from this one definition.
 *
 * The public types ({@linkcode ToolDefinition}, {@linkcode Tool}) describe the schemas by what a
 * caller needs of them ({@linkcode Schema}, {@linkcode InputSchema}) rather than by zod's own
 * types: zod is an npm package, whose types a JSR package can neither document nor re-export
 * without publishing all of zod's API as its own (denoland/deno#27364). The schemas are zod
 * schemas all the same ({@linkcode defineTool} checks it); the adapters that derive flags, MCP
 * descriptors, JSON Schema and path scoping from them reach zod's API through
 * {@linkcode zodSchemas}.
 *
 * @module
 */
import { z } from "zod";
import type { RunCache } from "./cache.ts";
import { type CompactAnswer, type CompactForm, compactQuery } from "../schema/compact.ts";
import { compactEnvelopeSchema } from "../schema/compact_schema.ts";
import type { Envelope, QueryEnvelope } from "../schema/envelope.ts";
import type { CodePrefix } from "../schema/error_codes.ts";
import { inputError } from "./failure.ts";

export { inputError } from "./failure.ts";

/**
 * The mark of a schema that follows the Standard Schema interface (standardschema.dev): every zod
 * schema carries it.
 */
export interface StandardSchema {
  /** The interface's properties: its version and the library that made the schema. */
  readonly "~standard": { readonly version: 1; readonly vendor: string };
}

/** One reason a value fails a schema. */
export interface SchemaIssue {
  /** Keys and indexes from the value's root to the failing part (empty: the value itself). */
  readonly path: readonly PropertyKey[];
  /** Why it fails. */
  readonly message: string;
}

/** What {@linkcode Schema.safeParse} gives: the parsed value, or why the value fails. */
export type SchemaResult<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly error: { readonly issues: readonly SchemaIssue[] } };

/**
 * What a tool's callers need of one of its schemas: validation, as zod's `safeParse` does it
 * (a zod schema is one).
 */
export interface Schema<T> extends StandardSchema {
  /** Parses `value`: the parsed value (defaults applied), or the issues that make it invalid. */
  safeParse(value: unknown): SchemaResult<T>;
}

/** A tool's input schema: an object schema (a zod `z.object`), its fields by name. */
export interface InputSchema<T extends Record<string, unknown> = Record<string, unknown>>
  extends Schema<T> {
  /** Each field's schema by field name: the tool's arguments. */
  readonly shape: Readonly<Record<string, StandardSchema>>;
}

/** Permissions a tool may need; read-only tools need only `read`. */
export type ToolPermission = "read" | "write";

/** MCP tool annotations, stated truthfully per tool. */
export interface ToolAnnotations {
  /** The tool never changes the file system. */
  readOnlyHint: boolean;
  /** The tool may overwrite or delete data. */
  destructiveHint: boolean;
  /** Calling twice with the same arguments has no further effect. */
  idempotentHint: boolean;
}

/** How positional command-line arguments map onto input fields. */
export type PositionalMapper = (
  positionals: string[],
  flags: Record<string, unknown>,
) => Record<string, unknown>;

/**
 * Command-line details that the input schema cannot say by itself. Short flags and alias flags
 * are the fields' own metadata (`field` in `schema/fields.ts`), not listed here.
 */
export interface CliSpec {
  /** Usage line after the tool name, e.g. `[FLAGS] PATTERN [PATH...]`. */
  usage: string;
  /** Maps positional arguments to input fields. */
  positionals?: PositionalMapper;
  /** Worked examples shown by `--help`. */
  examples: string[];
  /**
   * Text shown by `--help` between the description and the usage (e.g. what the permissions
   * change).
   */
  notes?: string;
  /** Lines of the EXIT CODES section of `--help`; default: the tools' exit codes. */
  exitCodes?: string;
  /** Whether the common output flags (`--format`, `--explain`, `-E`, `--debug`) apply; default true. */
  outputFlags?: boolean;
}

/**
 * What the command-line adapter needs: a tool's definition, or a program's own options (the
 * `llm-mcp` server's), parsed and rendered by the same machinery.
 */
export interface CommandSpec {
  /** Command name, e.g. `llm-search`. */
  name: string;
  /** Short human title. */
  title: string;
  /** What the command does (the head of `--help`). */
  description: string;
  /** Error-code prefix of its argument errors. */
  prefix: CodePrefix;
  /** Its flags: one per field, with the fields' metadata. */
  input: InputSchema;
  /** Command-line details. */
  cli: CliSpec;
}

/** What a run hands back to its adapter. */
export interface ToolOutcome<E extends Envelope = Envelope> {
  /** The envelope to print or return. */
  envelope: E;
  /** Exit code when it is not derived from the envelope (e.g. 1 for pending dry-run changes). */
  exitCode?: number;
}

/** Services an adapter gives a run. */
export interface RunContext {
  /** Execution id to put in the envelope. */
  executionId: string;
  /** Directory relative paths are resolved against. */
  cwd: string;
  /**
   * When set, the run may stream its result items here, in final order, instead of listing
   * them in its data (used by `--format jsonl`).
   */
  emit?: (item: unknown) => void;
  /** Cancels a long run (MCP cancellation). */
  signal?: AbortSignal;
  /**
   * When the host needs the answer by (epoch ms; the MCP server's budget for the call): a run that
   * waits on work elsewhere (an index's first build) stops waiting by then and answers partial,
   * rather than being stopped with no answer.
   */
  deadline?: number;
  /** Cache of a long-lived host; absent in one-shot CLI runs. */
  cache?: RunCache;
  /**
   * Reads all of standard input as UTF-8 text, when the host leaves it to the run (the CLI
   * does; the MCP server speaks its protocol there and gives none). Input that is not UTF-8 is
   * refused (`*-ARG-005`), never read as U+FFFD.
   */
  readStdin?: () => Promise<string>;
  /** Reads all of standard input as bytes, exactly (where `readStdin` is offered). */
  readStdinBytes?: () => Promise<Uint8Array>;
}

/**
 * A tool's compact form (contract §9: the MCP default, `--format compact` on the command line),
 * declared in its definition: how its envelope `E` becomes the compact answer, and that answer's
 * schema.
 */
export interface ToolCompact<E extends Envelope = Envelope> {
  /** Builds the compact answer; zod-free (`tools/<tool>/compact.ts`), as a command line needs. */
  form: CompactForm<E>;
  /** Schema of the compact answer (a zod schema): the MCP output schema lists it beside `output`. */
  output: Schema<CompactAnswer>;
  /**
   * The generic form of a tool that declares none (its data as it is): its answer differs from
   * the full envelope only in the head, so the MCP server offers no `detail` argument for it.
   */
  generic?: true;
}

/** What a tool's {@linkcode NextCall} may need of the host that pages its answers. */
export interface NextCallLimits {
  /** The time budget the host gives a call of the tool (ms): its default `timeout_ms`. */
  timeoutMs: number;
  /** The most tokens (characters / 4) one answer may take. */
  tokens: number;
}

/**
 * How a partial answer names the call that gets what it lacks, beyond its list's next page
 * (which the MCP server names itself, from the stored result).
 */
export interface NextCall<E extends Envelope = Envelope> {
  /**
   * The arguments of that call, given the envelope and the arguments of the call that answered
   * it (e.g. a search cut by its time budget: the same ones, from the file it stopped in), or
   * undefined when the envelope lacks nothing such a call gets (only a narrower call gets more).
   */
  next(
    envelope: E,
    args: Record<string, unknown>,
    limits: NextCallLimits,
  ): Record<string, unknown> | undefined;
}

/**
 * The one definition of a tool, its input parsed to `T` and its envelope `E`; its schemas are zod
 * schemas.
 */
export interface ToolDefinition<
  T extends Record<string, unknown> = Record<string, unknown>,
  E extends Envelope = Envelope,
> {
  /** Command name, e.g. `llm-search`. */
  name: string;
  /** MCP tool name, e.g. `search`. */
  mcpName: string;
  /** Short human title. */
  title: string;
  /**
   * What the tool does and when to use it, in terms of its input fields (MCP argument names),
   * not of command-line flags: shown in `--help` and to MCP clients.
   */
  description: string;
  /**
   * Arguments of a typical call, shown to MCP clients as a one-line example (a test checks it
   * against the input schema). Every tool of the registry has one.
   */
  example?: Record<string, unknown>;
  /**
   * What the model of an MCP client reads of the tool, when it differs from the command's:
   * `description`, short (what the tool is for, when to prefer it over the client's built-in
   * grep, read or edit; the arguments' own descriptions say the rest), and `unlisted`, the
   * arguments the MCP listing leaves out (advanced ones, accepted all the same).
   */
  mcp?: { description: string; unlisted?: readonly string[] };
  /** Error-code prefix, e.g. `LMS`. */
  prefix: CodePrefix;
  /** Query tools print a query envelope, mutation tools a mutation envelope. */
  kind: "query" | "mutation";
  /** `operation_type` of a mutation envelope built for a failed run. */
  operationType?: string;
  /** Permissions a run needs. */
  permissions: readonly ToolPermission[];
  /** MCP annotations. */
  annotations: ToolAnnotations;
  /**
   * Input schema; its fields become flags (snake_case → --kebab-case), MCP arguments and the
   * JSON Schema, their metadata (`field` in `schema/fields.ts`) short flags, aliases and path scoping.
   */
  input: InputSchema<T>;
  /** Schema of the envelope the tool prints. */
  output: Schema<E>;
  /** Field of `data` (query) holding the result list, streamed one per line by `--format jsonl`. */
  listKey?: string;
  /** `type` written on each JSONL item line, e.g. `match`. */
  itemType?: string;
  /** Renders `--format text`; without it text output is indented JSON. */
  text?: (envelope: E) => string;
  /**
   * Its compact form. A query tool without one gets the generic form: its data as it is, the
   * head without the timestamp, and its diagnostics summarised (contract §9: every query tool has
   * one); a mutation tool without one always answers the full envelope.
   */
  compact?: ToolCompact<E>;
  /**
   * The call that gets what a partial answer lacks when it is not the next page of its list: a
   * longer time budget, a deeper walk, a larger token budget (contract §9: a partial answer
   * names its next call).
   */
  nextCall?: NextCall<E>;
  /** Command-line details. */
  cli: CliSpec;
  /** The engine call. */
  run: (input: T, context: RunContext) => Promise<ToolOutcome<E>>;
}

/** Metadata every adapter needs, shared by a definition and its erased {@linkcode Tool}. */
export type ToolInfo = Omit<ToolDefinition, "input" | "output" | "run" | "text">;

/**
 * A defined tool with its type parameters erased, so tools of different shapes can sit in one
 * registry. `execute` validates raw input against the tool's own schema before running it.
 */
export interface Tool extends ToolInfo {
  /** Input schema (for flags and JSON Schema). */
  input: InputSchema;
  /** Envelope schema (for MCP `outputSchema` and the JSON Schema files). */
  output: Schema<Envelope>;
  /** Validates `raw` input and runs the tool; throws a `*-ARG-002` {@linkcode ToolError} on bad input. */
  execute(raw: unknown, context: RunContext): Promise<ToolOutcome>;
  /** Renders `--format text`. */
  renderText(envelope: Envelope): string;
  /**
   * Arguments the MCP server accepts but leaves out of the tool's `tools/list` input schema,
   * named on one line of its description instead (advanced ones: walk tuning, threads, time
   * budgets), so that what the model reads stays small.
   */
  unlisted?: readonly string[];
}

/**
 * Defines a tool once; the CLI, the MCP server and the JSON Schema files derive from it.
 *
 * @example Define a tool that echoes its input
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { defineTool } from "@llm/search";
 * import { queryEnvelope, queryEnvelopeSchema } from "@llm/search/schema";
 * const echo = defineTool({
 *   name: "llm-echo", mcpName: "echo", title: "Echo", description: "Echoes.", prefix: "LMS",
 *   kind: "query", permissions: [], example: { text: "hi" },
 *   annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
 *   input: z.object({ text: z.string() }),
 *   output: queryEnvelopeSchema(z.object({ count: z.number(), text: z.string() })),
 *   cli: { usage: "TEXT", examples: ["llm-echo hi"] },
 *   run: (input) =>
 *     Promise.resolve({ envelope: queryEnvelope("llm-echo", { count: 1, text: input.text }, []) }),
 * });
 * assert.equal(echo.name, "llm-echo");
 * ```
 */
export function defineTool<T extends Record<string, unknown>, E extends Envelope>(
  definition: ToolDefinition<T, E>,
): Tool {
  zodSchemas(definition);
  const { input, output, run, text, ...info } = definition;
  const compact = info.compact ??
    (info.kind === "query" ? genericCompact(output as z.ZodType) : undefined);
  return {
    ...info,
    ...(compact ? { compact: compact as ToolCompact<Envelope> } : {}),
    input,
    output,
    async execute(raw, context) {
      const parsed = input.safeParse(raw);
      if (!parsed.success) throw inputError(definition.prefix, parsed.error);
      return await run(parsed.data, context);
    },
    renderText(envelope) {
      return text ? text(envelope as E) : JSON.stringify(envelope, null, 2);
    },
  };
}

/**
 * The compact form of a query tool that declares none: its data as it is, in the compact head
 * (no timestamp) with its diagnostics summarised. Its schema's data is the envelope schema's.
 */
function genericCompact(output: z.ZodType): ToolCompact {
  const data = output instanceof z.ZodObject && output.shape.data instanceof z.ZodType
    ? output.shape.data
    : z.record(z.string(), z.unknown());
  return {
    form: {
      // A failure stays in full, as tools' own forms leave it: its error is the answer.
      compact: (envelope) =>
        "data" in envelope && envelope.status !== "error"
          ? compactQuery(envelope as QueryEnvelope, envelope.data)
          : undefined,
    },
    output: compactEnvelopeSchema(data) as Schema<CompactAnswer>,
    generic: true,
  };
}

/**
 * The zod schemas of a tool, for the adapters that read zod's own API (field metadata, JSON
 * Schema, path fields). Throws a `TypeError` when a schema is not zod's, which
 * {@linkcode defineTool} reports at definition.
 */
export function zodSchemas(
  tool: Pick<ToolDefinition, "name" | "input" | "output" | "compact">,
): { input: z.ZodObject; output: z.ZodType; compact?: z.ZodType } {
  const { input, output } = tool;
  if (!(input instanceof z.ZodObject)) {
    throw new TypeError(`${tool.name}: the input schema is not a zod object schema`);
  }
  if (!(output instanceof z.ZodType)) {
    throw new TypeError(`${tool.name}: the output schema is not a zod schema`);
  }
  const compact = tool.compact?.output;
  if (compact === undefined) return { input, output };
  if (!(compact instanceof z.ZodType)) {
    throw new TypeError(`${tool.name}: the compact output schema is not a zod schema`);
  }
  return { input, output, compact };
}
