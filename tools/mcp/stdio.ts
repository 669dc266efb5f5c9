/**
 * The stdio transport: the official SDK's server speaking newline-delimited JSON-RPC on stdin
 * and stdout (it needs no permission beyond what the tools need), with the
 * {@linkcode ToolServer} behind `tools/list` and `tools/call`. Logs go to stderr. A line that is
 * not a JSON-RPC message is answered with a JSON-RPC error (`-32700` when it is not JSON,
 * `-32600` otherwise, id `null` when none can be read) and the session goes on. A call given a
 * `progressToken` gets a progress notification every second while it runs. When stdin closes,
 * the server answers the calls it already received, flushes stdout and resolves (a client that
 * does not want to wait sends SIGTERM, as the MCP spec has it; a cancelled request stops its
 * run). The caller then exits.
 *
 * @module
 */
import process from "node:process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { makeDiagnostic } from "../../schema/diagnostic.ts";
import { VERSION } from "../../core/version.ts";
import type { ToolServer } from "./server.ts";
import { LLM_MCP } from "../../schema/tool_names.ts";

const INSTRUCTIONS = "Code search and editing tools of @llm/search; start a new task with " +
  "context. Every result is one JSON envelope (status, data or result, diagnostics with codes " +
  "and remediation). Result lists are compact by default (rows under a `columns` header, " +
  'grouped by file; `detail: "full"` adds ids, matched text and whole nodes). A list cut by ' +
  "its `limit` or by the output budget is partial, and its `next_page` names the exact call " +
  "that returns the next page: get_execution (execution_id, offset, limit) on the stored " +
  "result, in milliseconds, without running the query again, or past what was stored the " +
  "same call from there. Tools also accept the advanced arguments of their command lines, in " +
  "snake_case (hidden, no_ignore, max_depth, threads, timeout_ms, root, …), unlisted.";

/** The server's instructions to the model (at most 2,048 characters). */
export { INSTRUCTIONS };

interface CallRequest {
  params: {
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: { progressToken?: string | number };
  };
}

interface RequestExtra {
  signal: AbortSignal;
  sendNotification(notification: {
    method: string;
    params: Record<string, unknown>;
  }): Promise<void>;
}

/** JSON-RPC error codes of messages that are not requests the server can read. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** A line longer than this without a newline is dropped (and answered with a parse error). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Interval of the progress notifications of a running call. */
const PROGRESS_INTERVAL_MS = 1_000;

/** A JSON-RPC message as it goes on the wire. */
type Message = Record<string, unknown>;

/** A line checked: the message to hand on, or the JSON-RPC error to answer it with. */
type Checked = { message: Message } | { error: Message };

function errorResponse(id: unknown, code: number, reason: string, diagnosticCode: string): Message {
  const diagnostic = makeDiagnostic(LLM_MCP, diagnosticCode, reason);
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code,
      message: code === PARSE_ERROR ? `Parse error: ${reason}` : `Invalid Request: ${reason}`,
      data: { diagnostic },
    },
  };
}

function idOf(value: Record<string, unknown>): string | number | null {
  const id = value.id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/**
 * Checks one line read from stdin: a JSON-RPC 2.0 request, notification or response passes;
 * anything else gets the JSON-RPC error response the specification asks for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLine } from "./stdio.ts";
 * const request = { jsonrpc: "2.0", id: 1, method: "tools/list" };
 * assert.deepEqual(checkLine(JSON.stringify(request)), { message: request });
 * const refused = checkLine("[]"); // a batch: answered with JSON-RPC's Invalid Request
 * assert.ok("error" in refused);
 * assert.equal((refused.error.error as { code: number }).code, -32600);
 * ```
 */
export function checkLine(line: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { error: errorResponse(null, PARSE_ERROR, reason, "MCP-ARG-011") };
  }
  const invalid = (id: unknown, reason: string) => ({
    error: errorResponse(id, INVALID_REQUEST, reason, "MCP-ARG-012"),
  });
  if (Array.isArray(value)) return invalid(null, "batches (JSON arrays) are not supported");
  if (typeof value !== "object" || value === null) {
    return invalid(null, "a message must be a JSON object");
  }
  const record = value as Record<string, unknown>;
  if (record.jsonrpc !== "2.0") return invalid(idOf(record), 'a message needs "jsonrpc": "2.0"');
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    const reason = "method" in record
      ? 'a request needs a string "method" and a string or number "id"'
      : 'a message needs a "method" (request) or a "result" or "error" (response)';
    return invalid(idOf(record), reason);
  }
  return { message: parsed.data as Message };
}

/**
 * The SDK's stdio server transport with one difference: a line that is not a JSON-RPC message
 * is answered with a JSON-RPC error instead of being dropped.
 */
class LineTransport {
  onmessage?: (message: Message) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly #decoder = new TextDecoder();
  #buffer = "";

  readonly #onData = (chunk: Uint8Array) => {
    this.#buffer += this.#decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = this.#buffer.indexOf("\n")) >= 0) {
      const line = this.#buffer.slice(0, end).replace(/\r$/, "");
      this.#buffer = this.#buffer.slice(end + 1);
      if (line.trim() !== "") this.#receive(line);
    }
    if (this.#buffer.length > MAX_LINE_BYTES) {
      this.#buffer = "";
      const reason = `a message longer than ${MAX_LINE_BYTES} bytes was dropped`;
      this.#answer(errorResponse(null, PARSE_ERROR, reason, "MCP-ARG-011"));
    }
  };

  readonly #onError = (error: Error) => this.onerror?.(error);

  start(): Promise<void> {
    process.stdin.on("data", this.#onData);
    process.stdin.on("error", this.#onError);
    return Promise.resolve();
  }

  send(message: Message): Promise<void> {
    return new Promise((resolve) => {
      if (process.stdout.write(JSON.stringify(message) + "\n")) resolve();
      else process.stdout.once("drain", () => resolve());
    });
  }

  close(): Promise<void> {
    process.stdin.off("data", this.#onData);
    process.stdin.off("error", this.#onError);
    process.stdin.pause();
    this.onclose?.();
    return Promise.resolve();
  }

  #receive(line: string): void {
    const checked = checkLine(line);
    if ("message" in checked) {
      this.onmessage?.(checked.message);
      return;
    }
    const error = checked.error.error as { message: string };
    console.error(`llm-mcp: ${error.message}`);
    this.#answer(checked.error);
  }

  #answer(response: Message): void {
    this.send(response).catch((error) => this.onerror?.(error));
  }
}

/**
 * Sends a progress notification for `token` every second until the returned function is called
 * (nothing when the client gave no token). `progress` is the elapsed time in ms.
 */
function heartbeat(
  token: string | number | undefined,
  tool: string,
  extra: RequestExtra,
): () => void {
  if (token === undefined) return () => {};
  const started = performance.now();
  const timer = setInterval(() => {
    const elapsed = Math.round(performance.now() - started);
    extra.sendNotification({
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress: elapsed,
        message: `${tool} running for ${(elapsed / 1000).toFixed(0)} s`,
      },
    }).catch((error: Error) => console.error(`llm-mcp: progress not sent: ${error.message}`));
  }, PROGRESS_INTERVAL_MS);
  return () => clearInterval(timer);
}

/**
 * Serves `server` on stdin/stdout until stdin closes; resolves once every call was answered.
 *
 * @example Serve the tools to an MCP client on stdin and stdout
 * ```ts ignore
 * import { ExecutionLog, queryScope, serveStdio, ToolServer } from "@llm/search/mcp";
 * import { TOOLS } from "@llm/search";
 * const server = new ToolServer({ tools: TOOLS, scope: queryScope(Deno.cwd()), log: new ExecutionLog() });
 * await serveStdio(server); // until stdin closes
 * server.close();
 * ```
 */
export async function serveStdio(server: ToolServer): Promise<void> {
  const sdk = new Server(
    { name: LLM_MCP, title: "@llm/search", version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const inFlight = new Set<Promise<unknown>>();
  // The SDK's request types do not reach Deno's type checker; these are the fields used.
  sdk.setRequestHandler(
    ListToolsRequestSchema,
    (request: { params?: { cursor?: string } }) => server.listTools(request.params?.cursor),
  );
  sdk.setRequestHandler(CallToolRequestSchema, (request: CallRequest, extra: RequestExtra) => {
    const { name, arguments: args, _meta } = request.params;
    const stopProgress = heartbeat(_meta?.progressToken, name, extra);
    const call = server.callTool(name, args, extra.signal)
      .finally(() => {
        stopProgress();
        inFlight.delete(call);
      });
    inFlight.add(call);
    return call;
  });
  sdk.onerror = (error: Error) => console.error(`llm-mcp: ${error.message}`);
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  await sdk.connect(new LineTransport());
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
