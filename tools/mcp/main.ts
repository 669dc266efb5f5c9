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
import { programOptions, runCommand, tableHelp, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/mcp.json" with { type: "json" };
import LOG_TABLES from "../../core/tables/log.json" with { type: "json" };
import { VERSION } from "../../core/version.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { EXIT } from "../../schema/error_codes.ts";
import { ALL_TOOLS, DEFAULT_TOOLS, mcpTool } from "./surface.ts";
import type { Tool } from "../../core/tool.ts";
import { GET_EXECUTION } from "./execution_tool.ts";
import { packageDirectory, workersAvailable } from "../../core/workers.ts";
import { join } from "../../core/path_syntax.ts";
import { statIfPresent } from "../../core/symbol_index/file_stat.ts";
import { warmCache } from "./call_protocol.ts";
import { InProcessRunner, type ToolRunner, WorkerRunner } from "./calls.ts";
import { ExecutionLog, storeDirectory } from "../../core/execution_log.ts";
import { LOG_CODE } from "../log/run.ts";
import type { McpServerInput } from "./options.ts";
import { queryScope } from "./scope.ts";
import { ToolServer } from "./server.ts";
import { serveStdio } from "./stdio.ts";
import { LLM_LOG, LLM_MCP } from "../../schema/tool_names.ts";

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
  /** Only these tools (MCP names); absent or empty: the default surface. */
  tools?: readonly string[];
  /** List each tool's outputSchema in tools/list. */
  outputSchemas?: boolean;
}

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
  const table = tableOf(TABLES, LLM_MCP);
  const parsed = programOptions(table, args);
  if (parsed.kind === "help") {
    console.log(tableHelp(table));
    return undefined;
  }
  if (parsed.kind === "version") {
    console.log(`${LLM_MCP} ${VERSION}`);
    return undefined;
  }
  // The table checked them as the options' schema (`options.ts`) does.
  const input = parsed.options as unknown as McpServerInput;
  const options: McpServerOptions = {
    root: input.root,
    maxOutputBytes: input.max_output_bytes,
    logMaxBytes: input.log_max_bytes,
    callTimeoutMs: input.call_timeout_ms,
    debug: input.debug,
  };
  if (input.output_schemas) options.outputSchemas = true;
  if (input.log_dir !== undefined) options.logDir = input.log_dir;
  const tools = input.tools.flatMap((names) => names.split(",")).map((name) => name.trim())
    .filter(Boolean);
  if (tools.length > 0) options.tools = tools;
  return options;
}

function warn(message: string): void {
  console.error(`llm-mcp: ${message}`);
}

/**
 * The tools `names` asks for, in the surface's fixed order: the default surface
 * (`DEFAULT_TOOLS`: context, search, …, symbols, graph, refactor) when it is empty; else any of
 * the default tools and of the registry's others (`symbols_index`, `symbols_verify`, each merged
 * tool's members by their own names). Throws `MCP-ARG-013` naming the valid names for a name no
 * tool has.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectTools } from "@llm/search/mcp";
 * assert.deepEqual(selectTools(["search", "context"]).map((tool) => tool.mcpName), ["context", "search"]);
 * assert.equal(selectTools().length, 11); // with get_execution, 12
 * assert.equal(selectTools(["symbols_index"])[0].name, "llm-symbols index");
 * assert.throws(() => selectTools(["grep"]), { code: "MCP-ARG-013" });
 * ```
 */
export function selectTools(names: readonly string[] = []): readonly Tool[] {
  if (names.length === 0) return DEFAULT_TOOLS;
  const known = new Set([...ALL_TOOLS.map((tool) => tool.mcpName), GET_EXECUTION]);
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ToolError("MCP-ARG-013", `--tools names no tool: ${unknown.join(", ")}`, {
      remediation: `Name tools among: ${[...known].join(", ")}.`,
    });
  }
  return ALL_TOOLS.filter((tool) => names.includes(tool.mcpName));
}

/**
 * Builds the server for `options`: scope from Deno's permissions, log, warm cache, the tools
 * `options.tools` selects. Throws `MCP-PERM-001` when the root cannot be read at all.
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
  const tools = selectTools(options.tools);
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
    tools,
    scope,
    maxOutputBytes: options.maxOutputBytes,
    log,
    runner: callRunner(scope.root, options.debug),
    callTimeoutMs: options.callTimeoutMs,
    debug: options.debug,
    outputSchemas: options.outputSchemas ?? false,
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
  if (args[0] === "log") {
    return await runCommand(tableOf(LOG_TABLES, LLM_LOG), LOG_CODE, args.slice(1), { log: false });
  }
  let server: ToolServer;
  let root: string;
  try {
    const options = parseServerArgs(args);
    if (!options) return EXIT.ok;
    server = createServer(options);
    root = queryScope(options.root).root;
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    warn(
      `${error.code}: ${error.message}${
        error.details.remediation ? ` — ${error.details.remediation}` : ""
      }`,
    );
    return error.exitCode;
  }
  const stopIndexing = new AbortController();
  const indexing = indexInBackground(server, root, stopIndexing.signal);
  await serveStdio(server);
  stopIndexing.abort();
  await indexing;
  server.close();
  return EXIT.ok;
}

/**
 * Builds the symbol index of `root` in the background when it has none and the server may write
 * it (issue 33, item 4): the first `symbols`, `graph`, `repo_map` or `context` call then finds it
 * built or being built, and waits for it up to a bound (`liveIndexOnNeed`). It runs as the
 * `symbols_index` tool in a call worker: on the server's own thread its writes held the client's
 * requests up to 314 ms (Linux `kernel/`). Not where calls run on the server's thread (a checkout
 * scoped to the project): there the first call that needs the index builds it. Its end is one
 * line on stderr; `signal` stops it.
 */
async function indexInBackground(
  server: ToolServer,
  root: string,
  signal: AbortSignal,
): Promise<void> {
  const index = mcpTool("symbols_index");
  const folder = join(root, ".llm");
  const writable = Deno.permissions.querySync({ name: "write", path: folder }).state === "granted";
  if (!index || !workersAvailable() || !writable || statIfPresent(join(folder, "index.db"))) {
    return;
  }
  warn(`building the symbol index of ${root} in the background`);
  try {
    const envelope = await server.runForServer(index, {}, signal);
    const outcome = "result" in envelope ? envelope.message : envelope.status;
    warn(`the symbol index of ${root}: ${outcome}`);
  } catch (error) {
    if (!signal.aborted) warn(`the background build of the symbol index failed: ${error}`);
  }
}

// Exit explicitly: a long-lived host's tools may keep worker threads for the next call.
if (import.meta.main) Deno.exit(await runMcpCommand(Deno.args));
