/**
 * The `llm-context` tool definition: its input schema (also its flag set), its output schema
 * and the run function that calls the engine.
 *
 * @module
 */
import type { z } from "zod";
import { defineTool, type NextCall, type Tool } from "../../core/tool.ts";
import { type ContextData, ContextDataSchema } from "../../schema/context.ts";
import { type QueryEnvelope, queryEnvelopeSchema } from "../../schema/envelope.ts";
import { LLM_CONTEXT } from "../../schema/tool_names.ts";
import { ContextInput } from "./input.ts";
import { contextPositionals, runContext } from "./run.ts";

export type { ContextInput } from "./input.ts";

/** Output schema of `llm-context`. */
export const ContextEnvelopeSchema: z.ZodType<QueryEnvelope<ContextData | { count: 0 }>> =
  queryEnvelopeSchema(ContextDataSchema);

/**
 * The call that lists the next best blocks of a partial answer: the same task with the
 * arguments its `next` names (the blocks listed so far excluded).
 */
const NEXT_BLOCKS: NextCall = {
  next(envelope, args) {
    if (!("data" in envelope) || !("next" in envelope.data)) return;
    const next = (envelope.data as ContextData).next;
    return next && { ...args, ...next.arguments };
  },
};

/**
 * The `llm-context` tool.
 *
 * @example Ask for the code of a task
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextTool } from "./tool.ts";
 * const run = { executionId: crypto.randomUUID(), cwd: Deno.cwd() };
 * // An empty task is refused before any index is read or built.
 * await assert.rejects(contextTool.execute({ task: "" }, run), { code: "LMC-ARG-010" });
 * ```
 */
export const contextTool: Tool = defineTool({
  name: LLM_CONTEXT,
  mcpName: "context",
  title: "The code a task needs",
  description:
    "From a task (an issue, a request, a traceback) to the code it needs, ranked and fitted to " +
    "a token budget, with no model: whole definitions (a large class as its header and its " +
    "members' signatures), each with its span, the file's checksum (to edit it without reading " +
    "it again) and the reasons it was chosen; ranked files; the next best blocks left out. " +
    "Ranks from the symbol index: traceback frames, paths and names the task writes, BM25 over " +
    "the definitions' text, callers and callees. Use it first on a new task, before grep.",
  example: { task: "TypeError in parse_args when --verbose is given", budget: 4000 },
  mcp: {
    description: "The first call on a new task: from its words (issue, request, traceback) to " +
      "the code it needs, whole definitions ranked and fitted to a token budget, " +
      "with spans and checksums. Prefer it to rounds of grep and reads; builds the " +
      "symbol index if missing.",
    unlisted: ["task_file", "language", "exclude"],
  },
  prefix: "LMC",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: ContextInput,
  output: ContextEnvelopeSchema,
  listKey: "blocks",
  itemType: "block",
  nextCall: NEXT_BLOCKS,
  cli: {
    usage: "[FLAGS] [TASK]",
    positionals: contextPositionals,
    examples: [
      "llm-context 'TypeError in parse_args when --verbose is given'",
      "llm-context --task-file issue.md --budget 4000",
      "gh issue view 123 | llm-context -",
      "deno run --allow-read=. jsr:@llm/search/context --task-file issue.md",
    ],
  },
  run: runContext,
});
