/**
 * `get_execution`: the server's own tool that returns a past call from the execution log, and
 * its command-line twin `llm-mcp log show ID --log-dir DIR`, which reads the log files.
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
import { findExecution } from "./log.ts";

/** MCP name of the execution tool. */
export const GET_EXECUTION = "get_execution";

const DESCRIPTION = "Returns a past call of this server by its execution_id: the tool, the " +
  "arguments, the time, the status and the result envelope exactly as the tool produced it. " +
  "Use it to re-read a result after your context was compacted instead of running the tool " +
  "again; a long result list comes in pages (pass `offset`).";

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
      note: "Ids come from the execution_id of results of this server.",
    });
  }
  return queryEnvelope("llm-mcp", { count: 1, execution: found }, [], { executionId: runId });
}

/** Throws `MCP-IO-001` unless `dir` is an existing directory. */
function requireDirectory(dir: string): void {
  let isDirectory = false;
  try {
    isDirectory = Deno.statSync(dir).isDirectory;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (!isDirectory) {
    throw new ToolError("MCP-IO-001", `log directory not found: ${dir}`, {
      file: dir,
      remediation: "Pass the --log-dir the server was started with.",
    });
  }
}

const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

/**
 * The `get_execution` tool over a lookup (the server's {@linkcode ExecutionLog}).
 *
 * @example
 * ```ts
 * import { ExecutionLog, getExecutionTool } from "@llm/search/mcp";
 * const log = new ExecutionLog();
 * getExecutionTool((id) => log.get(id)).mcpName; // "get_execution"
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
    input: z.object({ execution_id: executionId }),
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

/**
 * `llm-mcp log show ID --log-dir DIR`: the same record, read from the log files of a server
 * started with `--log-dir DIR`, printed in full (no output budget on the command line).
 *
 * @example
 * ```ts
 * import { runCli } from "@llm/search";
 * import { logShowTool } from "@llm/search/mcp";
 * await runCli(logShowTool, ["--log-dir", ".llm-mcp", "--help"]);
 * ```
 */
export const logShowTool: Tool = defineTool({
  name: "llm-mcp",
  mcpName: GET_EXECUTION,
  title: "Show a past execution of the MCP server",
  description: "Prints a past call of an llm-mcp server from its execution log (the server must " +
    "have been started with --log-dir): tool, arguments, time, status and the full envelope.",
  prefix: "MCP",
  kind: "query",
  permissions: ["read"],
  annotations,
  input: z.object({
    execution_id: executionId,
    log_dir: z.string().min(1).describe("The --log-dir the server was started with"),
  }),
  output: GetExecutionEnvelopeSchema,
  cli: {
    usage: "log show [FLAGS] ID --log-dir DIR",
    positionals: (positionals) => {
      if (positionals.length > 1) {
        throw new ToolError("MCP-ARG-001", `unexpected argument '${positionals[1]}'`);
      }
      return positionals.length ? { execution_id: positionals[0] } : {};
    },
    examples: [
      "llm-mcp log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11 --log-dir .llm-mcp",
      "llm-mcp log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11 --log-dir .llm-mcp --format text",
    ],
  },
  run: (input, context) => {
    requireDirectory(input.log_dir);
    return Promise.resolve({
      envelope: lookupEnvelope(
        findExecution(input.log_dir, input.execution_id),
        input.execution_id,
        context.executionId,
      ),
    });
  },
});
