/**
 * One MCP tool from several definitions: `symbols` (a `relation` argument), `graph` (an
 * `algorithm`), `refactor` (an `op`). The merged tool is derived, not declared again: its input
 * schema is the discriminator's enum plus the union of the members' fields (each the member's own
 * zod field, its metadata — aliases, path scoping — kept; a field that only some values take says
 * which in its description), and its run checks that the arguments given belong to the member the
 * discriminator names, then runs that member's definition. A call that mixes arguments of two
 * values is refused with a `*-ARG-002` naming the valid combinations.
 *
 * @module
 */
import { z } from "zod";
import { ToolError } from "../../schema/diagnostic.ts";
import { field, fieldMeta, unwrapField } from "../../schema/fields.ts";
import { defineTool, type Tool, zodSchemas } from "../../core/tool.ts";
import type { Envelope } from "../../schema/envelope.ts";
import type { CompactForm } from "../../schema/compact.ts";

/** What a merged tool is built from. */
export interface MergeSpec {
  /** Name its own refusals carry as `tool`, e.g. `llm-symbols` (answers carry the member's). */
  name: string;
  /** MCP name of the merged tool, e.g. `symbols`. */
  mcpName: string;
  /** Short human title. */
  title: string;
  /** What the model reads: what the tool is for and when to prefer it (arguments say the rest). */
  description: string;
  /** The argument that picks the member, e.g. `relation`. */
  discriminator: string;
  /** Description of the discriminator argument (its values are listed after it). */
  discriminatorDescription: string;
  /** The members by discriminator value, in the order the enum lists them. */
  members: Readonly<Record<string, Tool>>;
  /** One typical call, discriminator included. */
  example: Record<string, unknown>;
  /** Arguments accepted but left out of the MCP listing (see `Tool.unlisted`). */
  unlisted?: readonly string[];
}

/** A merged tool: a {@linkcode Tool} that also names its members. */
export interface MergedTool extends Tool {
  /** The discriminator argument. */
  discriminator: string;
  /** The members by discriminator value. */
  members: Readonly<Record<string, Tool>>;
}

/** Whether `tool` was built by {@linkcode mergeTools}. */
export function isMerged(tool: Tool): tool is MergedTool {
  return "members" in tool && "discriminator" in tool;
}

/**
 * The JSON text of a field's schema, to tell whether two members declare it alike; undefined
 * when it has none (such a field is taken as declared differently).
 */
function shapeKey(schema: z.ZodType): string | undefined {
  try {
    return JSON.stringify(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
  } catch {
    return undefined;
  }
}

/**
 * `values` as the description suffix of a field that only they take, among `all`: the values,
 * or, when shorter, the ones that do not take it.
 */
function only(discriminator: string, values: readonly string[], all?: readonly string[]): string {
  const taking = `(${discriminator}: ${values.join(", ")})`;
  const others = (all ?? []).filter((value) => !values.includes(value));
  const notTaking = `(not ${discriminator}: ${others.join(", ")})`;
  return others.length && notTaking.length < taking.length ? notTaking : taking;
}

/**
 * A merged input field, from the members that take it (`owners`): the first member's field, optional (another value may not take
 * it); where members declare it differently (a default, a bound), the first member's base type
 * without its default (each member applies its own).
 */
function mergedField(
  owners: readonly [string, z.ZodType][],
  discriminator: string,
  all: readonly string[],
): z.ZodType {
  const [, first] = owners[0];
  const key = shapeKey(first);
  const alike = key !== undefined && owners.every(([, schema]) => shapeKey(schema) === key);
  let text = first.description ?? unwrapField(first).description ?? "";
  let schema: z.ZodType = first;
  if (!alike) {
    // A copy of the base type (its checks kept, its default not), with the field's metadata.
    schema = field(unwrapField(first).clone(), fieldMeta(first));
  }
  const takers = owners.map(([value]) => value);
  if (takers.length < all.length) text = `${text} ${only(discriminator, takers, all)}`;
  return schema.optional().describe(text.trim());
}

/**
 * The arguments of `args` that the member `value` does not take, with the values that take each.
 */
function foreignArguments(
  spec: Pick<MergeSpec, "discriminator" | "members">,
  value: string,
  args: Record<string, unknown>,
): { name: string; takenBy: string[] }[] {
  const member = spec.members[value];
  const known = new Set(argumentNamesOf(member));
  return Object.keys(args).filter((name) => name !== spec.discriminator && !known.has(name))
    .map((name) => ({
      name,
      takenBy: Object.entries(spec.members).filter(([, tool]) =>
        argumentNamesOf(tool).includes(name)
      ).map(([other]) => other),
    }));
}

/** A member's field names and their aliases. */
function argumentNamesOf(tool: Tool): string[] {
  return Object.entries(tool.input.shape).flatMap(([name, schema]) => [
    name,
    ...(fieldMeta(schema as z.ZodType).aliases ?? []),
  ]);
}

/** Each value with the arguments it takes: the valid combinations, for a refusal's note. */
function combinations(spec: Pick<MergeSpec, "discriminator" | "members">): string {
  return Object.entries(spec.members).map(([value, tool]) => {
    const fields = Object.keys(tool.input.shape);
    return `${spec.discriminator}: ${value} takes ${fields.length ? fields.join(", ") : "nothing"}`;
  }).join("; ");
}

/**
 * Builds one tool from `spec.members`: its input is `spec.discriminator` (an enum of the members'
 * values, required) plus every member's fields; a call runs the member the discriminator names,
 * with the other arguments, after refusing (`*-ARG-002`, the valid combinations in its note)
 * arguments that member does not take. Its permissions are the union of the members', its
 * annotations the most cautious, its answer schema the union of theirs; each member's envelope
 * keeps its own `tool` (so its compact form applies).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeTools } from "./merge.ts";
 * import { symbolsFindTool, symbolsOutlineTool } from "../symbols/tool.ts";
 * const merged = mergeTools({
 *   name: "llm-symbols", mcpName: "symbols", title: "Symbols", description: "Symbol queries.",
 *   discriminator: "relation", discriminatorDescription: "Which query",
 *   members: { find: symbolsFindTool, outline: symbolsOutlineTool },
 *   example: { relation: "find", name: "main" },
 * });
 * assert.ok("file" in merged.input.shape && "name" in merged.input.shape);
 * const cwd = Deno.cwd();
 * const mixed = merged.execute({ relation: "outline", name: "x" }, { executionId: "x", cwd });
 * await assert.rejects(mixed, { code: "MAG-ARG-002" });
 * ```
 */
export function mergeTools(spec: MergeSpec): MergedTool {
  const entries = Object.entries(spec.members);
  if (entries.length === 0) throw new TypeError(`${spec.mcpName}: no members`);
  const [, head] = entries[0];
  const values = entries.map(([value]) => value);
  const owners = new Map<string, [string, z.ZodType][]>();
  for (const [value, tool] of entries) {
    for (const [name, schema] of Object.entries(zodSchemas(tool).input.shape)) {
      owners.set(name, [...(owners.get(name) ?? []), [value, schema as z.ZodType]]);
    }
  }
  if (owners.has(spec.discriminator)) {
    throw new TypeError(`${spec.mcpName}: a member has a field named ${spec.discriminator}`);
  }
  const shape: Record<string, z.ZodType> = {
    [spec.discriminator]: z.enum(values as [string, ...string[]]).describe(
      spec.discriminatorDescription,
    ),
  };
  for (const [name, list] of owners) {
    shape[name] = mergedField(list, spec.discriminator, values);
  }
  const outputs = entries.map(([, tool]) => zodSchemas(tool).output);
  const compacts = entries.flatMap(([, tool]) => {
    const compact = zodSchemas(tool).compact;
    return compact ? [compact] : [];
  });
  const byName = new Map(entries.map(([, tool]) => [tool.name, tool]));
  const form: CompactForm = {
    compact: (envelope: Envelope) => byName.get(envelope.tool)?.compact?.form.compact(envelope),
  };
  const permissions = [...new Set(entries.flatMap(([, tool]) => tool.permissions))];
  const listKeys = entries.map(([, tool]) => tool.listKey).filter((key) => key !== undefined);
  const mutation = entries.some(([, tool]) => tool.kind === "mutation");
  const base = defineTool({
    name: spec.name,
    mcpName: spec.mcpName,
    title: spec.title,
    description: spec.description,
    example: spec.example,
    prefix: head.prefix,
    kind: mutation ? "mutation" : "query",
    ...(head.operationType ? { operationType: head.operationType } : {}),
    permissions,
    annotations: {
      readOnlyHint: entries.every(([, tool]) => tool.annotations.readOnlyHint),
      destructiveHint: entries.some(([, tool]) => tool.annotations.destructiveHint),
      idempotentHint: entries.every(([, tool]) => tool.annotations.idempotentHint),
    },
    input: z.object(shape),
    output: (outputs.length === 1 ? outputs[0] : z.union(outputs)) as z.ZodType<Envelope>,
    ...(listKeys.length ? { listKey: listKeys[0] } : {}),
    ...(compacts.length
      ? {
        compact: {
          form,
          output: (compacts.length === 1 ? compacts[0] : z.union(compacts)) as never,
          ...(entries.every(([, tool]) => tool.compact?.generic) ? { generic: true as const } : {}),
        },
      }
      : {}),
    nextCall: {
      next: (envelope, args, limits) =>
        byName.get(envelope.tool)?.nextCall?.next(envelope, args, limits),
    },
    cli: { usage: `${spec.discriminator.toUpperCase()} [ARGS]`, examples: [] },
    run: () => Promise.reject(new Error("unreachable: a merged tool runs its members")),
  });
  return {
    ...base,
    discriminator: spec.discriminator,
    members: spec.members,
    ...(spec.unlisted ? { unlisted: spec.unlisted } : {}),
    async execute(raw, context) {
      const args = typeof raw === "object" && raw !== null && !Array.isArray(raw)
        ? raw as Record<string, unknown>
        : {};
      const value = args[spec.discriminator];
      const member = typeof value === "string" ? spec.members[value] : undefined;
      if (!member || !Object.hasOwn(spec.members, value as string)) {
        throw new ToolError(
          `${head.prefix}-ARG-002`,
          `invalid input: $.${spec.discriminator}: expected one of ${values.join(", ")}`,
          { note: combinations(spec), remediation: `Example: ${JSON.stringify(spec.example)}` },
        );
      }
      const foreign = foreignArguments(spec, value as string, args);
      if (foreign.length) {
        const said = foreign.map(({ name, takenBy }) =>
          takenBy.length ? `'${name}' ${only(spec.discriminator, takenBy)}` : `'${name}'`
        );
        throw new ToolError(
          `${member.prefix}-ARG-002`,
          `invalid input: ${spec.discriminator} ${value} does not take ${said.join(", ")}`,
          { note: combinations(spec), remediation: `Example: ${JSON.stringify(spec.example)}` },
        );
      }
      const { [spec.discriminator]: _value, ...rest } = args;
      return await member.execute(rest, context);
    },
    renderText(envelope) {
      const member = byName.get(envelope.tool);
      return member ? member.renderText(envelope) : JSON.stringify(envelope, null, 2);
    },
  };
}
