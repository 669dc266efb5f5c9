/**
 * What the `llm-symbols` subcommands run, render and take as positionals, without zod: `tool.ts`
 * and `graph_tool.ts` build each definition from it (with the input and output schemas), and the
 * command line (`main.ts`) runs it by the command tables derived from those schemas, so
 * `llm-symbols find NAME` starts without loading zod.
 *
 * @module
 */
import type {
  Envelope,
  MutationEnvelope,
  QueryData,
  QueryEnvelope,
} from "../../schema/envelope_build.ts";
import { mutationEnvelope, queryEnvelope } from "../../schema/envelope_build.ts";
import type {
  CyclesData,
  DeadCodeData,
  ExportData,
  ImpactData,
  ImportListData,
  IndexResult,
  IndexStatusData,
  PathsData,
  ReachableData,
  RepoMapData,
  SymbolListData,
  SymbolRecord,
  UseListData,
  VerifyData,
} from "../../schema/symbols.ts";
import { LLM_SYMBOLS } from "../../schema/tool_names.ts";
import type { CommandCode } from "../../core/cli_table.ts";
import type { PositionalMapper, RunContext } from "../../core/tool.ts";
import { type WalkInput, walkOptionsFrom } from "../../core/walk/walk_options.ts";
import { indexStatus, verifyIndex } from "./freshness.ts";
import {
  cycleList,
  deadCodeSymbols,
  type ExportFormat,
  exportGraph,
  impactOf,
  pathList,
  reachableSymbols,
  repoMap,
} from "./graph_queries.ts";
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
  context: Pick<RunContext, "cwd" | "cache" | "signal" | "deadline">,
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
    ...(context.deadline === undefined ? {} : { deadline: context.deadline }),
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
 * its definition in `tool.ts` runs, and what the command line runs.
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

/** The input of `index`. */
export interface IndexInput extends WalkInput {
  /** Index database, relative to the root. */
  db?: string;
  /** Files larger than this are not indexed. */
  max_file_bytes: number;
  /** Stop parsing after N ms (0: no limit). */
  timeout_ms: number;
  /** Worker threads to parse on. */
  threads?: number;
}

/** The indexer's module, as `index` loads it (by a loader its caller writes: see `indexCode`). */
export type IndexerModule = typeof import("../../core/symbol_index/indexer.ts");

/**
 * The code of `index`, which loads the indexer (and the parser it brings) by `load` on its first
 * run only: the caller names the module, literally or not, as its own start-up allows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexCode } from "./commands.ts";
 * const code = indexCode(() => import("../../core/symbol_index/indexer.ts"));
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/a.py`, "def f():\n    pass\n");
 * const input = {
 *   max_file_bytes: 1 << 20, timeout_ms: 0, threads: 0, glob: [], type: [], type_not: [],
 *   hidden: false, no_ignore: false, follow: false,
 * };
 * const { envelope } = await code.run(input, { executionId: crypto.randomUUID(), cwd });
 * assert.equal(envelope.status, "ok");
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export function indexCode(load: () => Promise<IndexerModule>): CommandCode<IndexInput> {
  const name = `${LLM_SYMBOLS} index`;
  return {
    run: async (input, context) => {
      const { indexRoot } = await load();
      const outcome = await indexRoot({
        root: context.cwd,
        db: input.db,
        walk: { ...walkOptionsFrom(input, "MAG") },
        maxFileBytes: input.max_file_bytes,
        timeoutMs: input.timeout_ms,
        threads: input.threads,
        signal: context.signal,
      });
      const { result } = outcome;
      return {
        envelope: mutationEnvelope(name, {
          operation_type: "index",
          status: outcome.partial ? "partial" : "ok",
          message: `${result.parsed} file(s) parsed, ${result.unchanged} unchanged, ` +
            `${result.removed} removed; ${result.symbols} symbols, ${result.references} references`,
          workspace: context.cwd,
          result,
          diagnostics: outcome.diagnostics,
          executionId: context.executionId,
        }),
      };
    },
    text: (envelope) => {
      const result = (envelope as MutationEnvelope<IndexResult>).result;
      const lines = envelope.diagnostics.map((d) => `${d.level} ${d.code}: ${d.message}\n`);
      return lines.join("") + `${envelope.status}: ${(envelope as MutationEnvelope).message}` +
        (result ? ` (${result.duration_ms} ms)` : "") + "\n";
    },
  };
}

/** The input of `verify`. */
export interface VerifyInput extends WalkInput {
  /** Index database, relative to the root. */
  db?: string;
  /** Drifts to list, 0 for all. */
  limit: number;
  /** Files larger than this are not indexed [default: the last index run's]. */
  max_file_bytes?: number;
}

/** The code of `verify`: exit 1 when the index drifted from the disk. */
export const VERIFY_CODE: CommandCode<VerifyInput> = {
  run: async (input, context) => {
    const outcome = await verifyIndex({
      root: context.cwd,
      db: input.db,
      walk: walkOptionsFrom(input, "MAG"),
      limit: input.limit,
      maxFileBytes: input.max_file_bytes,
    });
    return {
      ...envelopeOf(`${LLM_SYMBOLS} verify`, outcome, context.executionId),
      exitCode: outcome.data.in_sync ? undefined : 1,
    };
  },
  text: (envelope) =>
    ((envelope as QueryEnvelope<VerifyData>).data.results ?? []).map((drift) =>
      `${drift.drift}\t${drift.file_path}\n`
    ).join(""),
};

function recordLines(results: SymbolRecord[]): string {
  return results.map((symbol) =>
    `${symbol.depth === undefined ? "" : `[${symbol.depth}] `}${where(symbol.span)}: ` +
    `${symbol.kind} ${symbol.qualified_name}  ${symbol.signature}\n`
  ).join("");
}

/** Positionals: paths, when there are any. */
const pathsOnly: PositionalMapper = (paths) => paths.length ? { paths } : {};

/** The input of `reachable`. */
export interface ReachableInput extends QueryInput, SymbolAsk {
  /** forward: what it calls; reverse: what calls it. */
  direction: ReachableData["direction"];
  /** Most calls away, 0 for no limit. */
  depth: number;
}

/** The input of `dead-code`. */
export interface DeadCodeInput extends QueryInput {
  /** Entry symbols; none: the default entries. */
  entry: string[];
}

/** The input of `paths`. */
export interface PathsInput extends QueryInput {
  /** Start. */
  from: string;
  /** End. */
  to: string;
  /** Most calls on a path. */
  depth: number;
}

/** The input of `impact`. */
export interface ImpactInput extends QueryInput, SymbolAsk {
  /** Most calls away, 0 for no limit. */
  depth: number;
}

/** The input of `export`. */
export interface ExportInput extends QueryInput {
  /** json, jsonl or dot. */
  graph_format: ExportFormat;
}

/** The input of `map`. */
export interface MapInput extends Omit<QueryInput, "limit"> {
  /** Files or symbols to rank around. */
  focus: string[];
  /** Budget, characters / 4. */
  tokens: number;
}

const graphName = (subcommand: string) => `${LLM_SYMBOLS} ${subcommand}`;

/**
 * The code of each code-graph subcommand, by its command-line name, in the help's order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GRAPH_CODE } from "./commands.ts";
 * assert.deepEqual(GRAPH_CODE.impact.positionals?.(["main"], {}), { name: "main" });
 * ```
 */
export const GRAPH_CODE: {
  reachable: CommandCode<ReachableInput>;
  "dead-code": CommandCode<DeadCodeInput>;
  cycles: CommandCode<QueryInput>;
  paths: CommandCode<PathsInput>;
  impact: CommandCode<ImpactInput>;
  export: CommandCode<ExportInput>;
  map: CommandCode<MapInput>;
} = {
  reachable: {
    run: async (input, context) =>
      envelopeOf(
        graphName("reachable"),
        await reachableSymbols(
          queryOptions(input, context),
          { name: input.name, symbol_id: input.symbol_id },
          input.direction,
          input.depth,
        ),
        context.executionId,
      ),
    text: (envelope: Envelope) =>
      recordLines((envelope as QueryEnvelope<ReachableData>).data.results),
    positionals: firstAs("name"),
  },
  "dead-code": {
    run: async (input, context) =>
      envelopeOf(
        graphName("dead-code"),
        await deadCodeSymbols(queryOptions(input, context), input.entry),
        context.executionId,
      ),
    text: (envelope: Envelope) =>
      recordLines((envelope as QueryEnvelope<DeadCodeData>).data.results),
    positionals: pathsOnly,
  },
  cycles: {
    run: async (input, context) =>
      envelopeOf(
        graphName("cycles"),
        await cycleList(queryOptions(input, context)),
        context.executionId,
      ),
    text: (envelope: Envelope) =>
      (envelope as QueryEnvelope<CyclesData>).data.results.map((cycle) =>
        `${cycle.size}: ${cycle.symbols.map((symbol) => symbol.name).join(" ")}\n`
      ).join(""),
    positionals: pathsOnly,
  },
  paths: {
    run: async (input, context) =>
      envelopeOf(
        graphName("paths"),
        await pathList(queryOptions(input, context), input.from, input.to, input.depth),
        context.executionId,
      ),
    text: (envelope: Envelope) =>
      (envelope as QueryEnvelope<PathsData>).data.results.map((path) =>
        path.symbols.map((symbol) => symbol.name).join(" -> ") + "\n"
      ).join(""),
  },
  impact: {
    run: async (input, context) =>
      envelopeOf(
        graphName("impact"),
        await impactOf(
          queryOptions(input, context),
          { name: input.name, symbol_id: input.symbol_id },
          input.depth,
        ),
        context.executionId,
      ),
    text: (envelope: Envelope) => {
      const data = (envelope as QueryEnvelope<ImpactData>).data;
      return `${data.total} caller(s) in ${data.files.length} file(s), score ` +
        `${data.score.toFixed(2)}\n${recordLines(data.results)}`;
    },
    positionals: ([first]) => first === undefined ? {} : { name: first },
  },
  export: {
    run: async (input, context) =>
      envelopeOf(
        graphName("export"),
        await exportGraph(queryOptions(input, context), input.graph_format),
        context.executionId,
      ),
    text: (envelope: Envelope) => {
      const data = (envelope as QueryEnvelope<ExportData>).data;
      return data.text ?? JSON.stringify({ nodes: data.nodes, edges: data.results }) + "\n";
    },
    positionals: firstAs("graph_format"),
  },
  map: {
    run: async (input, context) =>
      envelopeOf(
        graphName("map"),
        await repoMap(queryOptions({ ...input, limit: 0 }, context), input.focus, input.tokens),
        context.executionId,
      ),
    text: (envelope: Envelope) => (envelope as QueryEnvelope<RepoMapData>).data.text,
    positionals: (focus) => focus.length ? { focus } : {},
  },
};
