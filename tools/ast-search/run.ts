/**
 * What `llm-ast-search` runs once its input is checked, how its command line maps positionals,
 * and how its answer reads as text: shared by the definition (`tool.ts`, which loads zod) and by
 * the command line (`main.ts`, which does not).
 *
 * @module
 */
import type { CommandCode } from "../../core/cli_table.ts";
import { relationshipKinds, withRelations } from "../../core/symbol_index/relationship_run.ts";
import type { PositionalMapper, RunContext, ToolOutcome } from "../../core/tool.ts";
import { walkOptionsFrom } from "../../core/walk/walk_options.ts";
import type { AstSearchData } from "../../schema/ast_search.ts";
import type { CompactForm } from "../../schema/compact.ts";
import { type Envelope, type QueryEnvelope, queryEnvelope } from "../../schema/envelope_build.ts";
import { LLM_AST_SEARCH } from "../../schema/tool_names.ts";
import { astSearchCompact } from "./compact.ts";
import { astSearch } from "./engine.ts";
import type { AstSearchInput } from "./input.ts";

const MIB = 1024 * 1024;

/**
 * The text form of an `llm-ast-search` answer: `path:line:column:` then the symbol's kind and
 * name, or the match's first line (column 1-based).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryEnvelope } from "@llm/search/schema";
 * import { renderAstSearchText } from "./run.ts";
 * const answer = queryEnvelope("llm-ast-search", { count: 0, matches: [] }, []);
 * assert.equal(renderAstSearchText(answer), "");
 * ```
 */
export function renderAstSearchText(answer: Envelope): string {
  // llm-ast-search answers with query envelopes of its own data only (runAstSearch).
  const envelope = answer as QueryEnvelope<AstSearchData>;
  return (envelope.data.matches ?? []).map((match) => {
    const where = `${match.span.file_path}:${match.span.start_line}:${match.span.start_col + 1}:`;
    const what = match.kind && match.name
      ? `${match.kind} ${match.name}`
      : match.text.split("\n", 1)[0];
    return `${where}${what}\n`;
  }).join("");
}

/**
 * `llm-ast-search QUERY PATH…`: the first positional is the query unless a query, a query file,
 * a kind or a name was given by flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { astSearchPositionals } from "./run.ts";
 * assert.deepEqual(astSearchPositionals(["src"], { kind: ["function"] }), { paths: ["src"] });
 * ```
 */
export const astSearchPositionals: PositionalMapper = (positionals, flags) => {
  const hasQuery = flags.query !== undefined || flags.query_file !== undefined ||
    (flags.kind as string[] | undefined)?.length || flags.name !== undefined;
  if (hasQuery) return { paths: positionals };
  const [query, ...paths] = positionals;
  return query === undefined ? {} : { query, paths };
};

/** Runs `llm-ast-search` on a checked input. */
export async function runAstSearch(
  input: AstSearchInput,
  context: RunContext,
): Promise<ToolOutcome> {
  const kinds = relationshipKinds(input);
  const result = await withRelations(
    LLM_AST_SEARCH,
    context.cwd,
    kinds,
    context.emit,
    (emit) =>
      astSearch({
        cwd: context.cwd,
        paths: input.paths,
        query: input.query,
        queryFile: input.query_file,
        language: input.language,
        kinds: input.kind,
        name: input.name,
        semantics: input.with_semantics,
        contextLines: input.with_context ? input.context_lines : 0,
        checksums: input.with_checksums,
        maxColumns: input.max_columns,
        limit: input.limit,
        threads: input.threads,
        maxParseBytes: input.max_parse_bytes,
        maxParseMemory: input.max_parse_memory * MIB,
        fileTimeoutMs: input.file_timeout,
        cache: context.cache,
        signal: context.signal,
        emit,
        walk: { ...walkOptionsFrom(input, "LMA"), cache: context.cache },
      }),
  );
  return {
    envelope: queryEnvelope(LLM_AST_SEARCH, result.data, result.diagnostics, {
      partial: result.partial,
      executionId: context.executionId,
    }),
  };
}

/** `llm-ast-search` as its command line runs it (`main.ts`) and its definition declares it. */
export const AST_SEARCH_CODE: CommandCode<AstSearchInput> = {
  run: runAstSearch,
  text: renderAstSearchText,
  positionals: astSearchPositionals,
  compact: astSearchCompact as CompactForm,
};
