/**
 * `get_execution`: the server's own tool that returns a past run from the execution log — a call
 * of this server or a command-line run logged in the same store (`<root>/.llm/log`). Its
 * command-line twin is `llm-log show ID`.
 *
 * @module
 */
import { z } from "zod";
import { ToolError } from "../../schema/diagnostic.ts";
import { type EmptyData, type QueryEnvelope, queryEnvelope } from "../../schema/envelope.ts";
import {
  type ExecutionRecord,
  type GetExecutionData,
  GetExecutionEnvelopeSchema,
} from "../../schema/mcp.ts";
import { defineTool, type Tool } from "../../core/tool.ts";

/** MCP name of the execution tool. */
export const GET_EXECUTION = "get_execution";

const DESCRIPTION = "A past result by its execution_id (a call here or an llm-* command), or " +
  "its next page (offset, limit), without running the tool again: what next_page names.";

const executionId = z.string().min(1).describe(
  "execution_id of an earlier result (UUID; `operation_id` is accepted too)",
);

function lookupEnvelope(
  found: ExecutionRecord | undefined,
  id: string,
  runId: string,
): QueryEnvelope<GetExecutionData | EmptyData> {
  if (!found) {
    throw new ToolError("MCP-REF-001", `no execution ${id} in the log`, {
      note: "Ids come from the execution_id of results of this server or of llm-* command " +
        "lines run in its root; `llm-log list` lists them.",
    });
  }
  return queryEnvelope("llm-mcp", { count: 1, execution: found }, [], { executionId: runId });
}

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

/**
 * The `get_execution` tool over a lookup (the server's {@linkcode ExecutionLog}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutionLog } from "../../core/execution_log.ts";
 * import { getExecutionTool } from "./execution_tool.ts";
 * const log = new ExecutionLog();
 * assert.equal(getExecutionTool((id) => log.get(id)).mcpName, "get_execution");
 * ```
 */
export function getExecutionTool(lookup: (id: string) => ExecutionRecord | undefined): Tool {
  return defineTool({
    name: "llm-mcp",
    mcpName: GET_EXECUTION,
    title: "Get a past execution",
    description: DESCRIPTION,
    prefix: "MCP",
    kind: "query",
    permissions: [],
    annotations,
    input: z.object({
      execution_id: executionId,
      limit: z.number().int().positive().optional().describe("Items at most"),
    }),
    output: GetExecutionEnvelopeSchema,
    cli: { usage: "ID", examples: [] },
    run: (input, context) =>
      Promise.resolve({
        envelope: lookupEnvelope(
          lookup(input.execution_id),
          input.execution_id,
          context.executionId,
        ),
      }),
  });
}
