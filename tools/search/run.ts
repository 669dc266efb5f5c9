/**
 * What `llm-search` runs once its input is checked, how its command line maps positionals, and
 * how its answer reads as text: shared by the definition (`tool.ts`, which loads zod) and by the
 * command line (`main.ts`, which does not).
 *
 * @module
 */
import type { CommandCode } from "../../core/cli_table.ts";
import type { PositionalMapper, RunContext, ToolOutcome } from "../../core/tool.ts";
import { walkOptionsFrom } from "../../core/walk/walk_options.ts";
import { type Envelope, type QueryEnvelope, queryEnvelope } from "../../schema/envelope_build.ts";
import type { SearchData } from "../../schema/search.ts";
import { LLM_SEARCH } from "../../schema/tool_names.ts";
import { relationshipKinds, withRelations } from "../../core/symbol_index/relationship_run.ts";
import { search } from "./engine.ts";
import type { SearchInput } from "./input.ts";
import { searchCompact } from "./compact.ts";
import type { CompactForm } from "../../schema/compact.ts";

/**
 * The text form of an `llm-search` answer: `path:line:column:text` per match (column 1-based,
 * like `rg --vimgrep`), or the files, or the counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryEnvelope } from "@llm/search/schema";
 * import { renderSearchText } from "./run.ts";
 * const answer = queryEnvelope("llm-search", { count: 2, files: ["a.ts", "b.ts"] }, []);
 * assert.equal(renderSearchText(answer), "a.ts\nb.ts\n"); // as `rg --files-with-matches`
 * ```
 */
export function renderSearchText(answer: Envelope): string {
  // llm-search answers with query envelopes of its own data only (runSearch).
  const envelope = answer as QueryEnvelope<SearchData>;
  const data = envelope.data;
  if (data.files) return data.files.map((file) => file + "\n").join("");
  if (data.counts) {
    return data.counts.map((entry) => `${entry.file_path}:${entry.lines}\n`).join("");
  }
  return (data.matches ?? []).map((match) =>
    `${match.span.file_path}:${match.span.start_line}:${
      match.span.start_col + 1
    }:${match.line_text}\n`
  ).join("");
}

/**
 * `llm-search PATTERN PATH…`: the first positional is the pattern unless `-e` gave patterns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchPositionals } from "./run.ts";
 * assert.deepEqual(searchPositionals(["TODO", "src"], {}), { patterns: ["TODO"], paths: ["src"] });
 * ```
 */
export const searchPositionals: PositionalMapper = (positionals, flags) => {
  const given = (flags.patterns as string[] | undefined) ?? [];
  if (given.length > 0) return { paths: positionals };
  const [pattern, ...paths] = positionals;
  return pattern === undefined ? {} : { patterns: [pattern], paths };
};

/**
 * Runs `llm-search` on a checked input (with the relationships it asks for).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SearchInput } from "./input.ts";
 * import { renderSearchText, runSearch } from "./run.ts";
 * const cwd = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${cwd}/a.txt`, "one\n// TODO: two\n");
 * const input = SearchInput.parse({ patterns: ["TODO"] });
 * const { envelope } = await runSearch(input, { executionId: crypto.randomUUID(), cwd });
 * assert.equal(renderSearchText(envelope), "a.txt:2:4:// TODO: two\n");
 * Deno.removeSync(cwd, { recursive: true });
 * ```
 */
export async function runSearch(input: SearchInput, context: RunContext): Promise<ToolOutcome> {
  const around = input.context ?? (input.with_context ? input.context_lines : 0);
  const kinds = relationshipKinds(input);
  const result = await withRelations(
    LLM_SEARCH,
    context.cwd,
    kinds,
    context.emit,
    (emit) =>
      search({
        patterns: input.patterns,
        paths: input.paths,
        cwd: context.cwd,
        fixedStrings: input.fixed_strings,
        ignoreCase: input.ignore_case,
        smartCase: input.smart_case,
        wordRegexp: input.word_regexp,
        multiline: input.multiline,
        maxCount: input.max_count,
        limit: input.limit,
        before: input.before_context ?? around,
        after: input.after_context ?? around,
        maxColumns: input.max_columns,
        mode: input.files_with_matches ? "files" : input.count ? "counts" : "matches",
        withChecksums: input.with_checksums,
        threads: input.threads,
        timeoutMs: input.timeout_ms,
        resumeAt: input.resume_at,
        // A long-lived host (it has a cache) keeps the worker threads warm between calls.
        keepWorkers: context.cache !== undefined,
        useIndex: !input.no_index,
        emit,
        signal: context.signal,
        walk: { ...walkOptionsFrom(input, "LMS"), cache: context.cache },
      }),
  );
  return {
    envelope: queryEnvelope(LLM_SEARCH, result.data, result.diagnostics, {
      partial: result.partial,
      executionId: context.executionId,
    }),
  };
}

/** `llm-search` as its command line runs it (`main.ts`) and its definition declares it (`tool.ts`). */
export const SEARCH_CODE: CommandCode<SearchInput> = {
  run: runSearch,
  text: renderSearchText,
  positionals: searchPositionals,
  compact: searchCompact as CompactForm,
};
