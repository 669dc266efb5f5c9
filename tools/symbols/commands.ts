/**
 * What the read-only `llm-symbols` subcommands run, render and take as positionals, without
 * zod: `tool.ts` builds each definition from it (with the input and output schemas), and the
 * fast path of the command line (`core/cli_fast.ts`) runs it with the flag table derived from
 * those schemas, so `llm-symbols find NAME` starts without loading zod.
 *
 * @module
 */
import type { Envelope, QueryData, QueryEnvelope } from "../../schema/envelope_build.ts";
import { queryEnvelope } from "../../schema/envelope_build.ts";
import type {
  ImportListData,
  IndexStatusData,
  SymbolListData,
  UseListData,
} from "../../schema/symbols.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import type { PositionalMapper, RunContext } from "../../core/tool.ts";
import { indexStatus } from "./freshness.ts";
import {
  fileImporters,
  fileImports,
  findCallees,
  findSymbols,
  findUses,
  type NameMatch,
  outlineFile,
  type QueryOptions,
  type QueryOutcome,
  type SymbolAsk,
} from "./queries.ts";

/** The input fields every query shares. */
export interface QueryInput {
  /** Index database, relative to the root. */
  db?: string;
  /** Results to list, 0 for all. */
  limit: number;
  /** Only definitions of these kinds. */
  kind?: string[];
  /** Only results in these files or folders. */
  paths?: string[];
}

/**
 * The engine options of a query subcommand's input, run in the context's `cwd` (the root), with
 * the host's cache (the live index of a long-lived host) and cancellation signal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryOptions } from "./commands.ts";
 * assert.equal(queryOptions({ limit: 5 }, { cwd: "/repo" }).root, "/repo");
 * ```
 */
export function queryOptions(
  input: QueryInput,
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
 * import assert from "node:assert/strict";
 * import { envelopeOf } from "./commands.ts";
 * const outcome = { data: { count: 0 }, diagnostics: [], partial: false };
 * assert.equal(envelopeOf("llm-symbols cycles", outcome, crypto.randomUUID()).envelope.status, "ok");
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
 * import assert from "node:assert/strict";
 * import { where } from "./commands.ts";
 * assert.equal(where({ file_path: "a.c", start_line: 3, start_col: 0 }), "a.c:3:1");
 * ```
 */
export function where(span: { file_path: string; start_line: number; start_col: number }): string {
  return `${span.file_path}:${span.start_line}:${span.start_col + 1}`;
}

/** `--format text` of a list of definitions. */
export function symbolLines(envelope: Envelope): string {
  return ((envelope as QueryEnvelope<SymbolListData>).data.results ?? []).map((symbol) =>
    `${where(symbol.span)}: ${symbol.kind} ${symbol.qualified_name}  ${symbol.signature}\n`
  ).join("");
}

/** `--format text` of a list of uses. */
export function useLines(envelope: Envelope): string {
  return ((envelope as QueryEnvelope<UseListData>).data.results ?? []).map((use) => {
    const caller = use.caller ? ` in ${use.caller.name}` : "";
    const target = use.target?.span ? ` -> ${where(use.target.span)}` : "";
    const depth = use.depth ? `[${use.depth}] ` : "";
    return `${depth}${
      where(use.span)
    }: ${use.kind} ${use.name}${caller} (${use.resolution}${target})\n`;
  }).join("");
}

/** `--format text` of a list of imports. */
export function importLines(envelope: Envelope): string {
  return ((envelope as QueryEnvelope<ImportListData>).data.results ?? []).map((imported) =>
    `${where(imported.span)}: ${imported.kind} ${imported.target}${
      imported.resolved_path ? ` -> ${imported.resolved_path}` : ""
    }\n`
  ).join("");
}

/**
 * The positional mapping of a subcommand whose first positional is `key` and the rest `paths`
 * (when the flag gives `key`, every positional is a path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstAs } from "./commands.ts";
 * assert.deepEqual(firstAs("name")(["main", "src"], {}), { name: "main", paths: ["src"] });
 * ```
 */
export const firstAs = (key: string): PositionalMapper => (positionals, flags) => {
  if (flags[key] !== undefined) return positionals.length ? { paths: positionals } : {};
  const [first, ...rest] = positionals;
  if (first === undefined) return {};
  return rest.length ? { [key]: first, paths: rest } : { [key]: first };
};

/** Positionals: the one file. */
const fileFirst: PositionalMapper = ([file]) => file === undefined ? {} : { file };

/** The input of `find`. */
export interface FindInput extends QueryInput, SymbolAsk {
  /** How the name matches. */
  match: NameMatch;
}

/** The input of `refs`, `callers` and `callees`. */
export interface UseInput extends QueryInput, SymbolAsk {
  /** Levels to follow transitively. */
  depth: number;
}

/** The input of `outline`, `imports` and `importers`. */
export interface FileInput extends QueryInput {
  /** A file of the index. */
  file: string;
}

/** The query of each use-listing subcommand. */
const USE_QUERIES: Record<
  "refs" | "callers" | "callees",
  (options: QueryOptions, ask: SymbolAsk, depth: number) => Promise<QueryOutcome<UseListData>>
> = {
  refs: (options, ask) => findUses(options, ask, { callsOnly: false }),
  callers: (options, ask, depth) => findUses(options, ask, { callsOnly: true, depth }),
  callees: (options, ask, depth) => findCallees(options, ask, depth),
};

function useCode(subcommand: keyof typeof USE_QUERIES) {
  const name = `${LLM_SYMBOLS} ${subcommand}`;
  return {
    run: async (input: UseInput, context: RunContext) =>
      envelopeOf(
        name,
        await USE_QUERIES[subcommand](
          queryOptions(input, context),
          input,
          input.depth,
        ),
        context.executionId,
      ),
    text: useLines,
    positionals: firstAs("name"),
  };
}

function importCode(subcommand: "imports" | "importers") {
  const name = `${LLM_SYMBOLS} ${subcommand}`;
  const query = subcommand === "imports" ? fileImports : fileImporters;
  return {
    run: async (input: FileInput, context: RunContext) =>
      envelopeOf(
        name,
        await query(queryOptions(input, context), input.file),
        context.executionId,
      ),
    text: importLines,
    positionals: fileFirst,
  };
}

/**
 * The run, text and positionals of each read-only subcommand, by its command-line name: what
 * its definition in `tool.ts` runs, and what the fast path runs.
 */
export const QUERY_CODE = {
  status: {
    run: (input: { db?: string }, context: RunContext) =>
      Promise.resolve(
        envelopeOf(
          `${LLM_SYMBOLS} status`,
          indexStatus({ root: context.cwd, db: input.db }),
          context.executionId,
        ),
      ),
    text: (envelope: Envelope) =>
      Object.entries((envelope as QueryEnvelope<IndexStatusData>).data)
        .map(([key, value]) => `${key}: ${value}\n`).join(""),
  },
  find: {
    run: async (input: FindInput, context: RunContext) =>
      envelopeOf(
        `${LLM_SYMBOLS} find`,
        await findSymbols(queryOptions(input, context), input, input.match),
        context.executionId,
      ),
    text: symbolLines,
    positionals: firstAs("name"),
  },
  refs: useCode("refs"),
  callers: useCode("callers"),
  callees: useCode("callees"),
  outline: {
    run: async (input: FileInput, context: RunContext) =>
      envelopeOf(
        `${LLM_SYMBOLS} outline`,
        await outlineFile(queryOptions(input, context), input.file),
        context.executionId,
      ),
    text: symbolLines,
    positionals: fileFirst,
  },
  imports: importCode("imports"),
  importers: importCode("importers"),
};
