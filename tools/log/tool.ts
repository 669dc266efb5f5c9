/**
 * `llm-log`: the one command over the execution log that every run shares
 * (`<root>/.llm/log/`): `list` the runs, filtered by tool, status and time, or `show ID` one
 * run's arguments and full envelope — the command-line twin of the MCP tool `get_execution`.
 *
 * @module
 */
import { defineTool, type Tool } from "../../core/tool.ts";
import { LogEnvelopeSchema } from "../../schema/mcp.ts";
import { LLM_LOG } from "../../schema/tool_names.ts";
import { LogInput } from "./input.ts";
import { LOG_CODE, runLog } from "./run.ts";

export { parseTime } from "./time.ts";

/**
 * The `llm-log` definition.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logTool } from "./tool.ts";
 * assert.equal(logTool.name, "llm-log");
 * ```
 */
export const logTool: Tool = defineTool({
  name: LLM_LOG,
  mcpName: "log",
  title: "Read the execution log",
  description: "Lists the runs of every @llm/search tool logged in <root>/.llm/log (command " +
    "lines and MCP calls), or shows one by its execution_id: tool, arguments, time, status and " +
    "the full envelope. Reading needs --allow-read only.",
  prefix: "LML",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  example: { command: "list", tool: "llm-transform", status: "ok", since: "2h" },
  input: LogInput,
  output: LogEnvelopeSchema,
  listKey: "executions",
  itemType: "execution",
  text: LOG_CODE.text,
  cli: {
    usage: "[list] [--tool T] [--status S] [--since TIME] [--until TIME] [--limit N]\n" +
      "  llm-log show EXECUTION_ID",
    positionals: LOG_CODE.positionals,
    examples: [
      "llm-log list",
      "llm-log list --tool llm-transform --status ok --since 2h --format text",
      "llm-log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11",
      "llm-log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11 --log-dir ~/.cache/llm-mcp",
    ],
  },
  run: runLog,
});
