/**
 * A tool's compact form is part of its declaration (`compact` of `defineTool`): the MCP server
 * (a call's answer and a `get_execution` page) and `--format compact` answer in the form a tool
 * declares, whatever its name, with no table to edit; a query tool that declares none answers the
 * generic form (its data as it is); and the tools of the contract's compact form (§9) declare
 * theirs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { runCli } from "../core/cli.ts";
import { ExecutionLog } from "../core/execution_log.ts";
import { defineTool, type Tool, type ToolCompact } from "../core/tool.ts";
import { type QueryEnvelope, queryEnvelope, queryEnvelopeSchema } from "../schema/envelope.ts";
import { LineIndex } from "../schema/line_index.ts";
import {
  CompactSearchEnvelopeSchema,
  type SearchData,
  SearchDataSchema,
} from "../schema/search.ts";
import { makeSpan } from "../schema/span.ts";
import {
  LLM_AST_SEARCH,
  LLM_DISCOVER,
  LLM_SEARCH,
  LLM_TRANSFORM,
  LLM_WRITE,
} from "../schema/tool_names.ts";
import { queryScope } from "../tools/mcp/scope.ts";
import { ToolServer } from "../tools/mcp/server.ts";
import { TOOLS } from "../tools/registry.ts";
import { searchCompact } from "../tools/search/compact.ts";

const TEXT = "int main(void);\n";

/** One match, as `llm-search` lists it. */
const DATA: SearchData = {
  count: 1,
  patterns: ["main"],
  mode: "matches",
  match_count: 1,
  files_searched: 1,
  files_matched: 1,
  matches: [{
    match_id: "m1",
    span: makeSpan("a.c", LineIndex.fromText(TEXT), 4, 8),
    matched_text: "main",
    line_text: "int main(void);",
  }],
};

/** A tool named `name` answering search results, with the compact form it declares, if any. */
function finder(name: string, compact?: ToolCompact<QueryEnvelope<SearchData>>): Tool {
  return defineTool({
    name,
    mcpName: "finder",
    title: "Finder",
    description: "Finds.",
    example: {},
    prefix: "LMS",
    kind: "query",
    permissions: [],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    input: z.object({}),
    output: queryEnvelopeSchema(SearchDataSchema),
    listKey: "matches",
    cli: { usage: "", examples: [] },
    compact,
    run: (_input, context) =>
      Promise.resolve({
        envelope: queryEnvelope(name, DATA, [], { executionId: context.executionId }),
      }),
  });
}

/** `form` of the MCP answer to a call, of its `get_execution` page, and of `--format compact`. */
async function forms(tool: Tool): Promise<unknown[]> {
  const server = new ToolServer({
    tools: [tool],
    scope: queryScope(Deno.cwd()),
    log: new ExecutionLog(),
  });
  const answer = (await server.callTool("finder", {})).structuredContent;
  const page = await server.callTool("get_execution", { execution_id: answer.execution_id });
  const stored = page.structuredContent.data as { execution: { envelope: { form?: string } } };
  server.close();
  let stdout = "";
  const write = Deno.stdout.writeSync;
  Deno.stdout.writeSync = (bytes: Uint8Array) => {
    stdout += new TextDecoder().decode(bytes);
    return bytes.length;
  };
  try {
    // Not logged: an in-process run under `deno test -A` would log into the repository.
    assert.equal(await runCli(tool, ["--format", "compact"], { log: false }), 0);
  } finally {
    Deno.stdout.writeSync = write;
  }
  return [answer.form, stored.execution.envelope.form, JSON.parse(stdout).form];
}

Deno.test("a query tool that declares no compact form answers the generic one, even under a compact tool's name", async () => {
  // Its data as it is, in the compact head (contract §9: every query tool has a compact form).
  const tool = finder(LLM_SEARCH);
  assert.equal(tool.compact?.generic, true);
  assert.deepEqual(await forms(tool), ["compact", "compact", "compact"]);
  const envelope = queryEnvelope(LLM_SEARCH, DATA, []);
  const compact = tool.compact?.form.compact(envelope);
  assert.ok(compact && "data" in compact);
  assert.deepEqual(compact.data, DATA);
});

Deno.test("a tool that declares a compact form is answered compact, with no other edit", async () => {
  const declared = finder("llm-finder", {
    form: searchCompact,
    output: CompactSearchEnvelopeSchema,
  });
  assert.deepEqual(await forms(declared), ["compact", "compact", "compact"]);
});

Deno.test("the tools of the contract's compact form declare it; every other query tool has the generic one", () => {
  for (const tool of TOOLS.filter((tool) => tool.kind === "query")) {
    assert.ok(tool.compact, `${tool.name} has a compact form`);
  }
  const declared = TOOLS.filter((tool) => tool.compact && !tool.compact.generic);
  assert.deepEqual(declared.map((tool) => tool.name), [
    LLM_SEARCH,
    LLM_AST_SEARCH,
    LLM_DISCOVER,
    LLM_TRANSFORM,
    LLM_WRITE,
  ]);
});
