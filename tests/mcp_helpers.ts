/**
 * Test plumbing for llm-mcp: start the server as a real `deno run --no-prompt` subprocess with
 * the permission flags a user gives, and talk to it either through the official SDK's stdio
 * client or line by line (to measure the exact bytes on the wire).
 *
 * @module
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO } from "./helpers.ts";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import type { Tool } from "../core/tool.ts";
import { TOOLS } from "../tools/registry.ts";
import { DEFAULT_TOOL_NAMES, DEFAULT_TOOLS, mcpTool } from "../tools/mcp/surface.ts";
import { isMerged } from "../tools/mcp/merge.ts";

/** How to start a server. */
export interface ServerSpec {
  /** Deno permission flags, e.g. `["--allow-read=/tmp/x"]`. */
  permissions: string[];
  /** Flags after the entrypoint (`--root` is added from `root`). */
  args?: string[];
  /** Workspace root. */
  root: string;
}

/** The `deno` arguments that start the server. */
export function serverCommand(spec: ServerSpec): string[] {
  return [
    "run",
    "--quiet",
    "--no-prompt",
    `--config=${join(REPO, "deno.json")}`,
    ...spec.permissions,
    join(REPO, "tools", "mcp", "main.ts"),
    "--root",
    spec.root,
    ...(spec.args ?? []),
  ];
}

/** An SDK client connected to a server subprocess. */
export interface Connected {
  /** The SDK client. */
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Process id of the server. */
  pid: number;
  /** Closes stdin and waits for the server to exit. */
  close(): Promise<void>;
}

/** Every tool a server lists, following the pages the output budget cuts the list into. */
export async function listAllTools<T = { name: string }>(client: Client): Promise<T[]> {
  const tools: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools as T[]);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** Starts the server and connects the official SDK's stdio client to it (initialize included). */
export async function connect(spec: ServerSpec): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: "deno",
    args: serverCommand(spec),
    cwd: spec.root,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "llm-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    pid: transport.pid!,
    close: () => client.close(),
  };
}

/** One JSON-RPC message as read from stdout, with its exact size. */
export interface WireMessage {
  /** The parsed message. */
  message: Record<string, unknown>;
  /** Bytes of the line, newline excluded. */
  bytes: number;
}

/** A server driven by hand over its stdin/stdout. */
export interface RawServer {
  /** Sends a request and resolves with its answer. */
  request(method: string, params?: Record<string, unknown>): Promise<WireMessage>;
  /** Sends a notification. */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** Writes raw bytes to stdin. */
  write(text: string): Promise<void>;
  /** Closes stdin and waits for the exit: code, remaining stdout lines, stderr. */
  close(): Promise<{ code: number; stdout: string[]; stderr: string }>;
}

/** Starts the server as a plain subprocess; messages are matched to requests by id. */
export function spawnRaw(spec: ServerSpec): RawServer {
  const child = new Deno.Command("deno", {
    args: serverCommand(spec),
    cwd: spec.root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  const waiting = new Map<number, (message: WireMessage) => void>();
  const unmatched: string[] = [];
  const reading = (async () => {
    let buffer = new Uint8Array(0);
    for await (const chunk of child.stdout) {
      const joined = new Uint8Array(buffer.length + chunk.length);
      joined.set(buffer);
      joined.set(chunk, buffer.length);
      buffer = joined;
      for (let end = buffer.indexOf(10); end >= 0; end = buffer.indexOf(10)) {
        const line = new TextDecoder().decode(buffer.subarray(0, end));
        const bytes = end;
        buffer = buffer.slice(end + 1);
        const message = JSON.parse(line) as Record<string, unknown>;
        const resolve = waiting.get(message.id as number);
        if (resolve) {
          waiting.delete(message.id as number);
          resolve({ message, bytes });
        } else unmatched.push(line);
      }
    }
  })();
  const stderr = new Response(child.stderr).text();
  let nextId = 1;
  const send = (value: unknown) => writer.write(encoder.encode(JSON.stringify(value) + "\n"));
  return {
    request(method, params) {
      const id = nextId++;
      const answer = new Promise<WireMessage>((resolve) => waiting.set(id, resolve));
      return send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }).then(() => answer);
    },
    notify: (method, params) => send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) }),
    write: (text) => writer.write(encoder.encode(text)),
    async close() {
      await writer.close();
      const status = await child.status;
      await reading;
      return { code: status.code, stdout: unmatched, stderr: await stderr };
    },
  };
}

/** Sends `initialize` (and `notifications/initialized`) for `protocolVersion`. */
export async function initialize(
  server: RawServer,
  protocolVersion = "2025-11-25",
): Promise<WireMessage> {
  const answer = await server.request("initialize", {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: "llm-mcp-test", version: "1.0.0" },
  });
  await server.notify("notifications/initialized");
  return answer;
}

/** A small repository the samples run against. */
export const FIXTURE: Record<string, string> = {
  "src/greet.ts": 'export function greet(name: string): string {\n  return "hello " + name;\n}\n',
  "src/main.ts": 'import { greet } from "./greet.ts";\n\nconsole.log(greet("world"));\n',
  "src/util.py": "def greet(name):\n    return 'hello ' + name\n\n\nclass Greeter:\n    pass\n",
  "lib/math.js": "function add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n",
  "README.md": "# fixture\n\nSay hello with greet().\n",
};

/** Builds the symbol index of a fixture tree, so `symbols` and `graph` have one to answer from. */
export async function indexFixture(root: string): Promise<void> {
  await indexRoot({ root, threads: 0 });
}

type Data = Record<string, unknown> & { results: Record<string, unknown>[] };

function dataOf(envelope: Record<string, unknown>): Data {
  return envelope.data as Data;
}

function pathsOf(results: Record<string, unknown>[]): string {
  return results.map((result) => (result.span as { file_path: string }).file_path).join();
}

/**
 * A sample call of one tool (of one relation, algorithm or op of a merged tool), and what its
 * result must show.
 */
export interface Sample {
  /** MCP name of the tool called. */
  tool: string;
  /** Arguments of the call (a merged tool's relation, algorithm or op included). */
  args: Record<string, unknown>;
  /** Checks the structured result beyond schema validity; throws when it is wrong. */
  check(envelope: Record<string, unknown>): void;
}

/**
 * The indexed files the symbols samples may see: the fixture's 4, or 5 when they run alongside
 * the `write` sample (the concurrency test calls every sample at once), which adds one.
 */
const SEEN_FILES = [4, 5];

/**
 * Sample calls on {@linkcode FIXTURE}, in the default surface's order: one per default tool, one
 * per value of a merged tool's `relation`, `algorithm` or `op` (keyed `tool:value`), and one per
 * maintenance tool (`symbols_index`, `symbols_verify`, served when `--tools` names them, see
 * {@linkcode SERVE_SAMPLED}). Tests fail for a tool or value without a sample (see
 * {@linkcode unsampled}), so "call every tool" cannot silently cover fewer tools.
 */
export const SAMPLES: Record<string, Sample> = {
  context: {
    tool: "context",
    args: { task: "greet() should greet in French: `greet(name)` returns 'hello ' + name" },
    check(envelope) {
      const data = envelope.data as {
        blocks: { span: { file_path: string }; name?: string }[];
        tokens_used: number;
        budget: number;
      };
      const named = data.blocks.filter((block) => block.name === "greet");
      if (named.length === 0) throw new Error(`context listed ${JSON.stringify(data.blocks)}`);
      if (data.tokens_used > data.budget) throw new Error("context went over its budget");
    },
  },
  search: {
    tool: "search",
    args: { patterns: ["greet"], detail: "full" },
    check(envelope) {
      const data = envelope.data as { count: number; matches: { span: { file_path: string } }[] };
      if (data.count < 4) throw new Error(`search found ${data.count} matches, expected ≥ 4`);
      const files = new Set(data.matches.map((match) => match.span.file_path));
      if (!files.has("src/greet.ts")) throw new Error("search missed src/greet.ts");
    },
  },
  ast_search: {
    tool: "ast_search",
    args: { kind: ["function"], name: "^greet$", detail: "full" },
    check(envelope) {
      const data = envelope.data as { matches: { name?: string; span: { file_path: string } }[] };
      const found = data.matches.map((match) => `${match.span.file_path}:${match.name}`);
      if (found.join() !== "src/greet.ts:greet,src/util.py:greet") {
        throw new Error(`ast_search found ${found.join()}`);
      }
    },
  },
  discover: {
    tool: "discover",
    args: { query: "greet", detail: "full" },
    check(envelope) {
      const data = envelope.data as { results: { path: string }[] };
      const paths = data.results.map((result) => result.path);
      if (paths[0] !== "src/greet.ts") throw new Error(`discover ranked ${paths.join(", ")}`);
    },
  },
  "symbols:find": {
    tool: "symbols",
    args: { relation: "find", name: "greet" },
    check(envelope) {
      const data = dataOf(envelope);
      const found = pathsOf(data.results);
      if (found !== "src/greet.ts,src/util.py" || data.ambiguous !== true) {
        throw new Error(`symbols find found ${found} (ambiguous ${data.ambiguous})`);
      }
    },
  },
  "symbols:refs": {
    tool: "symbols",
    args: { relation: "refs", name: "greet", paths: ["src"] },
    check(envelope) {
      const found = pathsOf(dataOf(envelope).results);
      if (found !== "src/main.ts,src/main.ts") throw new Error(`symbols refs found ${found}`);
    },
  },
  "symbols:callers": {
    tool: "symbols",
    args: { relation: "callers", name: "greet" },
    check(envelope) {
      const results = dataOf(envelope).results;
      const target = results[0]?.target as { span?: { file_path: string } } | undefined;
      if (pathsOf(results) !== "src/main.ts" || target?.span?.file_path !== "src/greet.ts") {
        throw new Error(`symbols callers found ${JSON.stringify(results)}`);
      }
    },
  },
  "symbols:callees": {
    tool: "symbols",
    args: { relation: "callees", name: "greet", kind: ["function"] },
    check(envelope) {
      const data = dataOf(envelope);
      const definitions = data.definitions as unknown[];
      if (definitions.length !== 2 || data.count !== 0) {
        throw new Error(`symbols callees answered ${JSON.stringify(data)}`);
      }
    },
  },
  "symbols:outline": {
    tool: "symbols",
    args: { relation: "outline", file: "src/util.py" },
    check(envelope) {
      const names = dataOf(envelope).results.map((symbol) => symbol.qualified_name).join();
      if (names !== "greet,Greeter") throw new Error(`symbols outline listed ${names}`);
    },
  },
  "symbols:imports": {
    tool: "symbols",
    args: { relation: "imports", file: "src/main.ts" },
    check(envelope) {
      const reached = dataOf(envelope).results.map((imported) => imported.resolved_path).join();
      if (reached !== "src/greet.ts") throw new Error(`symbols imports reached ${reached}`);
    },
  },
  "symbols:importers": {
    tool: "symbols",
    args: { relation: "importers", file: "src/greet.ts" },
    check(envelope) {
      const found = pathsOf(dataOf(envelope).results);
      if (found !== "src/main.ts") throw new Error(`symbols importers found ${found}`);
    },
  },
  "symbols:status": {
    tool: "symbols",
    args: { relation: "status" },
    check(envelope) {
      const data = envelope.data as Record<string, number>;
      if (data.files !== 4 || data.missing !== 0) {
        throw new Error(`symbols status answered ${JSON.stringify(data)}`);
      }
    },
  },
  "graph:reachable": {
    tool: "graph",
    args: { algorithm: "reachable", name: "add", direction: "reverse" },
    check(envelope) {
      const data = envelope.data as { symbol: { name: string }; count: number };
      if (data.symbol.name !== "add" || data.count !== 0) {
        throw new Error(`graph reachable answered ${JSON.stringify(data)}`);
      }
    },
  },
  "graph:dead_code": {
    tool: "graph",
    args: { algorithm: "dead_code" },
    check(envelope) {
      const data = envelope.data as { entry_rule: string; entries: number };
      if (data.entry_rule !== "default" || data.entries < 3) {
        throw new Error(`graph dead_code answered ${JSON.stringify(data)}`);
      }
    },
  },
  "graph:cycles": {
    tool: "graph",
    args: { algorithm: "cycles" },
    check(envelope) {
      const data = envelope.data as { total: number };
      if (data.total !== 0) throw new Error(`graph cycles answered ${JSON.stringify(data)}`);
    },
  },
  "graph:paths": {
    tool: "graph",
    args: { algorithm: "paths", from: "add", to: "Greeter" },
    check(envelope) {
      const data = envelope.data as { count: number; to: { name: string } };
      if (data.count !== 0 || data.to.name !== "Greeter") {
        throw new Error(`graph paths answered ${JSON.stringify(data)}`);
      }
    },
  },
  "graph:impact": {
    tool: "graph",
    args: { algorithm: "impact", name: "add" },
    check(envelope) {
      const data = envelope.data as { total: number; score: number };
      if (data.total !== 0 || data.score !== 0) {
        throw new Error(`graph impact answered ${JSON.stringify(data)}`);
      }
    },
  },
  "graph:export": {
    tool: "graph",
    args: { algorithm: "export", graph_format: "dot" },
    check(envelope) {
      const text = (envelope.data as { text?: string }).text ?? "";
      if (!text.startsWith("digraph symbols {")) throw new Error(`graph export wrote ${text}`);
    },
  },
  repo_map: {
    tool: "repo_map",
    args: { tokens: 100 },
    check(envelope) {
      const data = envelope.data as { tokens: number; shown: number; text: string };
      if (data.tokens > 100 || data.shown === 0 || !data.text.includes("│")) {
        throw new Error(`repo_map answered ${JSON.stringify(data)}`);
      }
    },
  },
  validate: {
    tool: "validate",
    args: { path: "src/util.py", content: "def greet(name):\n    return name\n", gates: "syntax" },
    check(envelope) {
      const data = dataOf(envelope) as Record<string, unknown>;
      const gates = data.gates as { name: string; status: string }[];
      if (data.status !== "approved" || gates[0]?.status !== "passed") {
        throw new Error(`validate answered ${JSON.stringify(envelope)}`);
      }
    },
  },
  transform: {
    tool: "transform",
    args: { file: "src/greet.ts", old: "hello ", new: "hi there ", detail: "full" },
    check(envelope) {
      const result = envelope.result as { files: { file_path: string }[] };
      const files = result.files.map((file) => file.file_path);
      if (files.join() !== "src/greet.ts") throw new Error(`transform changed ${files.join()}`);
    },
  },
  write: {
    tool: "write",
    args: {
      path: "src/farewell.py",
      content: "def farewell(name):\n    return 'bye ' + name\n",
      detail: "full",
    },
    check(envelope) {
      const result = envelope.result as { files: { file_path: string; status: string }[] };
      const files = result.files.map((file) => `${file.file_path} ${file.status}`);
      if (envelope.status !== "approved" || files.join() !== "src/farewell.py approved") {
        throw new Error(`write answered ${envelope.status}: ${files.join()}`);
      }
    },
  },
  "refactor:rename": {
    tool: "refactor",
    args: { op: "rename", symbol: "greet", file: "src/greet.ts", to: "welcome", gates: "syntax" },
    check(envelope) {
      const result = envelope.result as { dry_run: boolean; files: { file_path: string }[] };
      const files = result.files.map((file) => file.file_path).join();
      if (!result.dry_run || files !== "src/greet.ts,src/main.ts") {
        throw new Error(`refactor rename answered ${JSON.stringify(envelope)}`);
      }
    },
  },
  "refactor:patch": {
    tool: "refactor",
    args: {
      op: "patch",
      symbol: "add",
      text: "function add(a, b) {\n  return b + a;\n}",
      gates: "syntax",
    },
    check(envelope) {
      const result = envelope.result as { dry_run: boolean; diff?: string };
      if (!result.dry_run || !result.diff?.includes("+  return b + a;")) {
        throw new Error(`refactor patch answered ${JSON.stringify(envelope)}`);
      }
    },
  },
  "refactor:delete": {
    tool: "refactor",
    args: { op: "delete", symbol: "Greeter", gates: "syntax" },
    check(envelope) {
      const result = envelope.result as { dry_run: boolean; files: { file_path: string }[] };
      if (!result.dry_run || result.files[0]?.file_path !== "src/util.py") {
        throw new Error(`refactor delete answered ${JSON.stringify(envelope)}`);
      }
    },
  },
  "refactor:insert": {
    tool: "refactor",
    args: {
      op: "insert",
      symbol: "add",
      text: "function sub(a, b) {\n  return a - b;\n}\n",
      gates: "syntax",
    },
    check(envelope) {
      const result = envelope.result as { dry_run: boolean; diff?: string };
      if (!result.dry_run || !result.diff?.includes("+function sub(a, b) {")) {
        throw new Error(`refactor insert answered ${JSON.stringify(envelope)}`);
      }
    },
  },
  "refactor:plan": {
    tool: "refactor",
    args: { op: "plan", steps: [{ op: "rename", symbol: "add", to: "plus" }], gates: "syntax" },
    check(envelope) {
      const result = envelope.result as { dry_run: boolean; edits: unknown[] };
      if (!result.dry_run || result.edits.length !== 2) {
        throw new Error(`refactor plan answered ${JSON.stringify(envelope)}`);
      }
    },
  },
  "refactor:undo": {
    tool: "refactor",
    args: { op: "undo" },
    check(envelope) {
      const result = envelope.result as { count: number } | undefined;
      if (envelope.status !== "ok" || result?.count !== 0) {
        throw new Error(`refactor undo answered ${JSON.stringify(envelope)}`);
      }
    },
  },
  symbols_index: {
    tool: "symbols_index",
    args: { timeout_ms: 60000 },
    check(envelope) {
      const result = envelope.result as Record<string, number>;
      if (!SEEN_FILES.includes(result.files_seen)) {
        throw new Error(`symbols_index answered ${JSON.stringify(result)}`);
      }
    },
  },
  symbols_verify: {
    tool: "symbols_verify",
    args: { limit: 10 },
    check(envelope) {
      const data = dataOf(envelope);
      if (!SEEN_FILES.includes(data.checked as number)) {
        throw new Error(`symbols_verify answered ${JSON.stringify(data)}`);
      }
    },
  },
};

/** The call of the sample `key`, as `callTool` takes it. */
export function sampleCall(key: string): { name: string; arguments: Record<string, unknown> } {
  const sample = SAMPLES[key];
  if (!sample) throw new Error(`no sample ${key} in tests/mcp_helpers.ts`);
  return { name: sample.tool, arguments: sample.args };
}

/**
 * The definition that answers the sample `key`: its tool, or for a merged tool the member its
 * relation, algorithm or op names (whose name the envelope's `tool` carries).
 */
export function sampleDefinition(key: string): Tool {
  const { tool: name, args } = SAMPLES[key];
  const tool = mcpTool(name);
  if (!tool) throw new Error(`sample ${key}: the server serves no tool ${name}`);
  if (!isMerged(tool)) return tool;
  const member = tool.members[String(args[tool.discriminator])];
  if (!member) throw new Error(`sample ${key}: ${tool.discriminator} names no member`);
  return member;
}

/**
 * The maintenance tools outside the default surface (registry tools that no default tool serves,
 * merged or not): `symbols_index`, `symbols_verify`.
 */
export const MAINTENANCE_TOOLS: readonly string[] = TOOLS.filter((tool) =>
  !DEFAULT_TOOLS.some((listed) =>
    listed.mcpName === tool.mcpName ||
    (isMerged(listed) && Object.values(listed.members).includes(tool))
  )
).map((tool) => tool.mcpName);

/** `--tools` arguments that serve every sampled tool: the default surface and the maintenance tools. */
export const SERVE_SAMPLED: string[] = [
  "--tools",
  [...DEFAULT_TOOL_NAMES, ...MAINTENANCE_TOOLS].join(","),
];

/**
 * What {@linkcode SAMPLES} leaves uncalled: a default tool without a sample, a merged tool's
 * value without one, a maintenance tool without one (`tool` or `tool:value`). Empty when the
 * samples cover the surface.
 */
export function unsampled(): string[] {
  const samples = Object.values(SAMPLES);
  const missing: string[] = [];
  for (const tool of DEFAULT_TOOLS) {
    if (!isMerged(tool)) {
      if (!samples.some((sample) => sample.tool === tool.mcpName)) missing.push(tool.mcpName);
      continue;
    }
    for (const value of Object.keys(tool.members)) {
      const covered = samples.some((sample) =>
        sample.tool === tool.mcpName && sample.args[tool.discriminator] === value
      );
      if (!covered) missing.push(`${tool.mcpName}:${value}`);
    }
  }
  for (const name of MAINTENANCE_TOOLS) {
    if (!samples.some((sample) => sample.tool === name)) missing.push(name);
  }
  return missing;
}
