/**
 * What the `llm-symbols` subcommand definitions share: their common input fields, the query
 * envelope of an outcome, and the positional-argument mapping.
 *
 * @module
 */
import { z } from "zod";
import type { RunContext } from "../../core/tool.ts";
import { SYMBOL_KINDS } from "../../schema/ast_search.ts";
import { type QueryData, type QueryEnvelope, queryEnvelope } from "../../schema/envelope.ts";
import { field } from "../../schema/fields.ts";
import type { QueryOptions, QueryOutcome } from "./queries.ts";

/** A non-negative integer. */
export const count = z.number().int().nonnegative();

/** The annotations of every query subcommand. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

/** `db`: the index database. */
export const dbField = field(
  z.string().min(1).optional().describe(
    "Index database, relative to the root [default: .llm/index.db]",
  ),
  { path: true },
);

/** `limit` with its default. */
export const limitField = (fallback: number) =>
  field(
    count.default(fallback).describe(
      "Results to list, 0 for all; cut results set partial and total",
    ),
    { short: "n" },
  );

/** `paths`: files or folders results must lie in. */
export const pathsField = field(
  z.array(z.string()).default([]).describe("Only results in these files or folders"),
  { path: true, aliases: ["path"] },
);

/** `kind`: definition kinds results must have. */
export const kindField = field(
  z.array(z.enum(SYMBOL_KINDS)).default([]).describe(
    "Only definitions of this kind (function, method, class, …); repeat for several",
  ),
  { short: "k", aliases: ["kinds"] },
);

/** `name`: the symbol asked about. */
export const nameField = field(
  z.string().min(1).describe("Symbol name or qualified name (the first positional argument)"),
  { aliases: ["symbol"] },
);

/**
 * The engine options of a query subcommand's input, run in the context's `cwd` (the root), with
 * the host's cache (the live index of a long-lived host) and cancellation signal.
 *
 * @example
 * ```ts
 * import { queryOptions } from "./tool_fields.ts";
 * queryOptions({ limit: 5 }, { cwd: "/repo" }).root; // "/repo"
 * ```
 */
export function queryOptions(
  input: { db?: string; limit: number; kind?: string[]; paths?: string[] },
  context: Pick<RunContext, "cwd" | "cache" | "signal">,
): QueryOptions {
  return {
    root: context.cwd,
    cwd: context.cwd,
    db: input.db,
    limit: input.limit,
    kinds: input.kind,
    paths: input.paths,
    cache: context.cache,
    signal: context.signal,
  };
}

/**
 * The query envelope of a subcommand's outcome (its `tool` is the subcommand's full name).
 *
 * @example
 * ```ts
 * import { envelopeOf } from "./tool_fields.ts";
 * const outcome = { data: { count: 0 }, diagnostics: [], partial: false };
 * envelopeOf("llm-symbols cycles", outcome, crypto.randomUUID()).envelope.status; // "ok"
 * ```
 */
export function envelopeOf<D extends QueryData>(
  tool: string,
  outcome: QueryOutcome<D>,
  executionId: string,
): { envelope: QueryEnvelope<D> } {
  return {
    envelope: queryEnvelope(tool, outcome.data, outcome.diagnostics, {
      partial: outcome.partial,
      executionId,
    }),
  };
}

/**
 * `path:line:column` (1-based column) of a span.
 *
 * @example
 * ```ts
 * import { where } from "./tool_fields.ts";
 * where({ file_path: "a.c", start_line: 3, start_col: 0 }); // "a.c:3:1"
 * ```
 */
export function where(span: { file_path: string; start_line: number; start_col: number }): string {
  return `${span.file_path}:${span.start_line}:${span.start_col + 1}`;
}

/**
 * The positional mapping of a subcommand whose first positional is `key` and the rest `paths`
 * (when the flag gives `key`, every positional is a path).
 *
 * @example
 * ```ts
 * import { firstAs } from "./tool_fields.ts";
 * firstAs("name")(["main", "src"], {}); // { name: "main", paths: ["src"] }
 * ```
 */
export const firstAs = (key: string) => (positionals: string[], flags: Record<string, unknown>) => {
  if (flags[key] !== undefined) return positionals.length ? { paths: positionals } : {};
  const [first, ...rest] = positionals;
  if (first === undefined) return {};
  return rest.length ? { [key]: first, paths: rest } : { [key]: first };
};
