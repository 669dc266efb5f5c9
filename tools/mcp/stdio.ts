/**
 * The stdio transport: the official SDK's server speaking newline-delimited JSON-RPC on stdin
 * and stdout (it needs no permission beyond what the tools need), with the
 * {@linkcode ToolServer} behind `tools/list` and `tools/call`. Logs go to stderr. When stdin
 * closes, the server answers the calls it already received, flushes stdout and resolves (a
 * client that does not want to wait sends SIGTERM, as the MCP spec has it; a cancelled request
 * aborts its run). The caller then exits: tools may keep workers alive for the next call.
 *
 * @module
 */
import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../../core/version.ts";
import type { ToolServer } from "./server.ts";

const INSTRUCTIONS = "Code search and editing tools of @llm/search. Every result is one JSON " +
  "envelope (status, data or result, diagnostics with codes and remediation). Results are cut " +
  "to fit an output budget: a diagnostic MCP-QRY-001 then names the `offset` of the next page. " +
  "Every call gets an execution_id; get_execution returns a past result by that id.";

interface CallRequest {
  params: { name: string; arguments?: Record<string, unknown> };
}

interface RequestExtra {
  signal: AbortSignal;
}

/**
 * Serves `server` on stdin/stdout until stdin closes; resolves once every call was answered.
 *
 * @example
 * ```ts
 * import { ExecutionLog, queryScope, serveStdio, ToolServer } from "@llm/search/mcp";
 * import { TOOLS } from "@llm/search";
 * const scope = queryScope(Deno.cwd());
 * await serveStdio(new ToolServer({ tools: TOOLS, scope, log: new ExecutionLog() }));
 * ```
 */
export async function serveStdio(server: ToolServer): Promise<void> {
  const sdk = new Server(
    { name: "llm-mcp", title: "@llm/search", version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const inFlight = new Set<Promise<unknown>>();
  // The SDK's request types do not reach Deno's type checker; these are the fields used.
  sdk.setRequestHandler(
    ListToolsRequestSchema,
    (request: { params?: { cursor?: string } }) => server.listTools(request.params?.cursor),
  );
  sdk.setRequestHandler(CallToolRequestSchema, (request: CallRequest, extra: RequestExtra) => {
    const call = server.callTool(request.params.name, request.params.arguments, extra.signal)
      .finally(() => inFlight.delete(call));
    inFlight.add(call);
    return call;
  });
  sdk.onerror = (error: Error) => console.error(`llm-mcp: ${error.message}`);
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  await sdk.connect(new StdioServerTransport());
  await closed;
  // A macrotask lets requests read with the last chunk start; the SDK writes an answer in the
  // microtasks after its call settles, so one more turn after the last call flushes them all.
  do {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.allSettled([...inFlight]);
  } while (inFlight.size);
  await new Promise((resolve) => setTimeout(resolve, 0));
  await sdk.close();
  if (process.stdout.writableNeedDrain) {
    await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
}
