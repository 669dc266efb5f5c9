/**
 * `llm-mcp`: every tool of @llm/search as a Model Context Protocol server on stdio, derived from
 * the same tool definitions as the command-line tools (a tool added to the registry appears with
 * no further code). The tools offered follow the permissions the server was started with:
 *
 * ```sh
 * deno run -R jsr:@llm/search/mcp                      # read-only tools, workspace = cwd
 * deno run -R -W jsr:@llm/search/mcp --root .          # plus the mutating tools
 * deno run -R jsr:@llm/search/log show ID              # a past call (or llm-mcp log show ID)
 * ```
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutionLog, queryScope, ToolServer } from "@llm/search/mcp";
 * import { TOOLS } from "@llm/search";
 * const server = new ToolServer({ tools: TOOLS, scope: queryScope("."), log: new ExecutionLog() });
 * const result = await server.callTool("get_execution", { execution_id: "nope" });
 * assert.equal(result.isError, true);
 * assert.match(result.content[0].text, /MCP-REF-001/);
 * server.close();
 * ```
 *
 * @module
 */
import { z } from "zod";
import { helpText, parseProgramOptions, runCli } from "../../core/cli.ts";
import type { CommandSpec } from "../../core/tool.ts";
import { VERSION } from "../../core/version.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { EXIT } from "../../schema/error_codes.ts";
import { field } from "../../schema/fields.ts";
import { TOOLS } from "../registry.ts";
import { packageDirectory, workersAvailable } from "../../core/workers.ts";
import { warmCache } from "./call_protocol.ts";
import { InProcessRunner, type ToolRunner, WorkerRunner } from "./calls.ts";
import { DEFAULT_LOG_MAX_BYTES, ExecutionLog, storeDirectory } from "../../core/execution_log.ts";
import { logTool } from "../log/tool.ts";
import { queryScope } from "./scope.ts";
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  MIN_MAX_OUTPUT_BYTES,
  ToolServer,
} from "./server.ts";
import { serveStdio } from "./stdio.ts";
import { LLM_MCP } from "../../schema/tool_names.ts";

export {
  type CallResult,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  type ListResult,
  MIN_MAX_OUTPUT_BYTES,
  ProtocolError,
  ToolServer,
  type ToolServerOptions,
} from "./server.ts";
export type { McpToolDescriptor } from "./catalog.ts";
export type { CallSpec, ToolRunner } from "./calls.ts";
export { queryScope, type Scope } from "./scope.ts";
export { serveStdio } from "./stdio.ts";
export { ExecutionLog, type ExecutionLogOptions, type LogOwner } from "../../core/execution_log.ts";

/** Options of the server process. */
export interface McpServerOptions {
  /** Workspace root: tools run there and paths outside it are refused. */
  root: string;
  /** Output budget of one response in bytes. */
  maxOutputBytes: number;
  /**
   * Directory of the JSONL execution log; when absent, the root's shared store
   * `<root>/.llm/log` if the server may write it, else memory only.
   */
  logDir?: string;
  /** Size cap of the log file in bytes. */
  logMaxBytes: number;
  /** Time limit of one call in ms. */
  callTimeoutMs: number;
  /** Stack traces in internal-error diagnostics. */
  debug: boolean;
}

/** A whole-number option, its message written to follow the flag's name. */
function wholeNumber(unit: string, min: number) {
  const message = `takes a whole number of ${unit} of at least ${min}`;
  return z.number().int(message).min(min, message);
}

/** The server's options: the flags of `llm-mcp`, its `--help`, parsed by the tools' machinery. */
const McpServerInput = z.object({
  root: field(
    z.string().default(".").describe("Workspace root; tools run there, paths outside are refused"),
    { path: true },
  ),
  max_output_bytes: wholeNumber("bytes", MIN_MAX_OUTPUT_BYTES).default(DEFAULT_MAX_OUTPUT_BYTES)
    .describe("Budget of one response; longer results come in pages"),
  log_dir: field(
    z.string().optional().describe(
      "Append every call to DIR/executions.jsonl (needs --allow-write=DIR) [default: " +
        "<root>/.llm/log when --allow-write covers it, else memory only]",
    ),
    { path: true },
  ),
  log_max_bytes: wholeNumber("bytes", 1).default(DEFAULT_LOG_MAX_BYTES).describe(
    "Size cap of the log file; it is rotated once",
  ),
  call_timeout_ms: wholeNumber("milliseconds", 1).default(DEFAULT_CALL_TIMEOUT_MS).describe(
    "Stop a call still running after N ms (MCP-QRY-011)",
  ),
  debug: z.boolean().default(false).describe("Stack traces in internal-error diagnostics"),
});

/** The `llm-mcp` command as the command-line machinery of the tools reads it. */
const MCP_COMMAND: CommandSpec & { input: typeof McpServerInput } = {
  name: LLM_MCP,
  title: "every @llm/search tool as an MCP server on stdio",
  description: "Serves the tools of the registry over the Model Context Protocol on " +
    "stdin/stdout; logs go to stderr.",
  prefix: "MCP",
  input: McpServerInput,
  cli: {
    usage: "[FLAGS]                          serve MCP on stdin/stdout (logs on stderr)\n" +
      "  llm-mcp log list|show ID [FLAGS]         the execution log (the same as llm-log)",
    notes: "The tools offered follow the Deno permissions of the process: with --allow-read only " +
      "the\nread-only tools; with --allow-write for the root too, the mutating ones as well.",
    examples: [
      "deno run -R jsr:@llm/search/mcp --root ~/src/app",
      "deno run -R --allow-write=.llm jsr:@llm/search/mcp --root .   # read-only, logged in .llm/log",
      "deno run -R jsr:@llm/search/mcp log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11",
    ],
    exitCodes:
      "  0 stdin closed  2 bad arguments  4 no read permission for the root  5 internal error",
    outputFlags: false,
  },
};

/**
 * Parses the server's flags; `undefined` for `--help`/`--version` (already printed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseServerArgs } from "@llm/search/mcp";
 * const options = parseServerArgs(["--root", "/repo", "--max-output-bytes", "40000"]);
 * assert.equal(options?.maxOutputBytes, 40000);
 * ```
 */
export function parseServerArgs(args: string[]): McpServerOptions | undefined {
  const parsed = parseProgramOptions(MCP_COMMAND, args);
  if (parsed.kind === "help") {
    console.log(helpText(MCP_COMMAND));
    return undefined;
  }
  if (parsed.kind === "version") {
    console.log(`${LLM_MCP} ${VERSION}`);
    return undefined;
  }
  const input = parsed.options;
  const options: McpServerOptions = {
    root: input.root,
    maxOutputBytes: input.max_output_bytes,
    logMaxBytes: input.log_max_bytes,
    callTimeoutMs: input.call_timeout_ms,
    debug: input.debug,
  };
  if (input.log_dir !== undefined) options.logDir = input.log_dir;
  return options;
}

function warn(message: string): void {
  console.error(`llm-mcp: ${message}`);
}

/**
 * Builds the server for `options`: scope from Deno's permissions, log, warm cache. Throws
 * `MCP-PERM-001` when the root cannot be read at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "@llm/search/mcp";
 * const options = { root: ".", maxOutputBytes: 80_000, logMaxBytes: 1 << 24 };
 * const server = createServer({ ...options, callTimeoutMs: 60_000, debug: false });
 * assert.ok(server.tools.length > 0);
 * server.close(); // its call workers
 * ```
 */
export function createServer(options: McpServerOptions): ToolServer {
  const scope = queryScope(options.root);
  if (!scope.granted.has("read")) {
    throw new ToolError("MCP-PERM-001", `no read permission for the root ${scope.root}`, {
      file: scope.root,
      remediation: `Start the server with --allow-read=${scope.root} (or -R).`,
    });
  }
  const store = storeDirectory(scope.root);
  const writable = Deno.permissions.querySync({ name: "write", path: store }).state === "granted";
  const log = new ExecutionLog({
    dir: options.logDir ?? (writable ? store : undefined),
    lookupDir: store,
    maxFileBytes: options.logMaxBytes,
    warn: (diagnostic) => warn(`${diagnostic.code}: ${diagnostic.message}`),
  });
  const offered = [...scope.granted].join("+");
  warn(`serving ${scope.root} (${offered}); log ${log.dir ?? "in memory"}`);
  return new ToolServer({
    tools: TOOLS,
    scope,
    maxOutputBytes: options.maxOutputBytes,
    log,
    runner: callRunner(scope.root, options.debug),
    callTimeoutMs: options.callTimeoutMs,
    debug: options.debug,
  });
}

/**
 * Call workers when the process may start them (it can read the package's modules), else the
 * calls run on the main thread, with an `MCP-PERM-011` warning on stderr.
 */
function callRunner(root: string, debug: boolean): ToolRunner {
  if (workersAvailable()) return new WorkerRunner(root, debug);
  warn(
    `MCP-PERM-011: calls run on the main thread, so a slow call delays the others: the server ` +
      `cannot read its modules to start call workers — add ${packageDirectory()} to --allow-read.`,
  );
  return new InProcessRunner(root, warmCache(), debug);
}

/**
 * The `llm-mcp` command: `log list|show …` reads the execution log (as `llm-log` does);
 * otherwise the server runs on stdio until stdin closes. Returns the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runMcpCommand } from "@llm/search/mcp";
 * assert.equal(await runMcpCommand(["--version"]), 0); // prints the version, serves nothing
 * // An entrypoint exits explicitly: a long-lived host's tools may keep worker threads.
 * if (import.meta.main) Deno.exit(await runMcpCommand(Deno.args));
 * ```
 */
export async function runMcpCommand(args: string[]): Promise<number> {
  if (args[0] === "log") return await runCli(logTool, args.slice(1), { log: false });
  let server: ToolServer;
  try {
    const options = parseServerArgs(args);
    if (!options) return EXIT.ok;
    server = createServer(options);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    warn(
      `${error.code}: ${error.message}${
        error.details.remediation ? ` — ${error.details.remediation}` : ""
      }`,
    );
    return error.exitCode;
  }
  await serveStdio(server);
  server.close();
  return EXIT.ok;
}

// Exit explicitly: a long-lived host's tools may keep worker threads for the next call.
if (import.meta.main) Deno.exit(await runMcpCommand(Deno.args));
