/**
 * The MCP tool server, independent of the transport: it lists the tools the scope allows, in
 * the registry's order plus `get_execution`, and answers a call with the tool's envelope cut to
 * the output budget — after refusing unknown tools, bad arguments and paths outside the root,
 * recording the call in the execution log, and keeping the shared cache in step with mutations.
 *
 * @module
 */
import {
  compactEnvelope,
  type CompactForm,
  type Detail,
  isCompact,
  type NextPage,
} from "../../schema/compact.ts";
import { type Diagnostic, ToolError } from "../../schema/diagnostic.ts";
import type { Envelope, QueryEnvelope } from "../../schema/envelope.ts";
import { newId } from "../../schema/ids.ts";
import type { ExecutionRecord, ExecutionStatus } from "../../schema/mcp.ts";
import type { MemoryCache } from "../../core/cache.ts";
import { failureEnvelope, failureOutcome } from "../../core/failure.ts";
import { type NextCallLimits, type Tool, zodSchemas } from "../../core/tool.ts";
import { InProcessRunner, type ToolRunner } from "./calls.ts";
import {
  type Answer,
  boundDiagnostics,
  fitPage,
  type Pageable,
  type PageRequest,
  responseBytes,
  shrinkToFit,
  toolResult,
} from "./budget.ts";
import { type CatalogEntry, catalogEntry, type McpToolDescriptor, prepareCall } from "./catalog.ts";
import { GET_EXECUTION, getExecutionTool } from "./execution_tool.ts";
import { isMerged } from "./merge.ts";
import type { ExecutionLog } from "../../core/execution_log.ts";
import { allows, changedPaths, confineToRoot, type Scope } from "./scope.ts";
import { LLM_MCP } from "../../schema/tool_names.ts";
import { mcpUndoHint } from "./undo_hint.ts";

/** Default output budget of one response: about 20k tokens. */
export const DEFAULT_MAX_OUTPUT_BYTES = 80_000;

/** Default time limit of one call: a call still running then is stopped. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/**
 * Share of the call's time limit given as the default `timeout_ms` to a tool that takes one:
 * the tool stops itself first and answers a partial result instead of none (the rest leaves
 * room for a cold call worker and the tool's own threads to start on a loaded machine).
 */
const TOOL_TIMEOUT_SHARE = 0.75;

/** Smallest budget the server accepts (one tool's schemas must fit in a `tools/list` page). */
export const MIN_MAX_OUTPUT_BYTES = 4_096;

/** Code of a call cancelled by the client. */
const CANCELLED = "MCP-QRY-010";

/** JSON-RPC "invalid params", the code for unknown tools (bad arguments are tool results). */
export const INVALID_PARAMS = -32602;

/** A refusal answered as a JSON-RPC error rather than a tool result. */
export class ProtocolError extends Error {
  /** JSON-RPC error code. */
  readonly code: number;
  /** `{ execution_id, diagnostic }` of the refused call. */
  readonly data: { execution_id: string; diagnostic: Diagnostic };

  /** Wraps a coded refusal. */
  constructor(code: number, diagnostic: Diagnostic, executionId: string) {
    super(`${diagnostic.code}: ${diagnostic.message}`);
    this.name = "ProtocolError";
    this.code = code;
    this.data = { execution_id: executionId, diagnostic };
  }
}

/** A `tools/call` result. */
export interface CallResult {
  /** The envelope as compact JSON text. */
  content: { type: "text"; text: string }[];
  /** The envelope. */
  structuredContent: Record<string, unknown>;
  /** Present and true when the tool failed. */
  isError?: boolean;
  /** Other members an MCP result may carry (`_meta`). */
  [key: string]: unknown;
}

/** A `tools/list` result. */
export interface ListResult {
  /** One page of tools. */
  tools: McpToolDescriptor[];
  /** Cursor of the next page, when the list did not fit the budget. */
  nextCursor?: string;
  /** Other members an MCP result may carry (`_meta`). */
  [key: string]: unknown;
}

/** What a server is built from. */
export interface ToolServerOptions {
  /** Every tool of the toolkit, in listing order (the registry). */
  tools: readonly Tool[];
  /** Workspace root and granted permissions. */
  scope: Scope;
  /** Output budget of one response in bytes. */
  maxOutputBytes?: number;
  /** The execution log. */
  log: ExecutionLog;
  /** Cache shared by every run (warm across calls) when the calls run on this thread. */
  cache?: MemoryCache;
  /** Where the calls run; default: on this thread, with `cache`. */
  runner?: ToolRunner;
  /** Time limit of one call in ms; default {@linkcode DEFAULT_CALL_TIMEOUT_MS}. */
  callTimeoutMs?: number;
  /** Put stack traces of internal errors in their diagnostics. */
  debug?: boolean;
  /** List each tool's outputSchema (`--output-schemas`); default: left out. */
  outputSchemas?: boolean;
}

const SERVER_INFO = { name: LLM_MCP, kind: "query", mcpName: "mcp", prefix: "MCP" } as const;

function isQuery(envelope: Envelope): envelope is QueryEnvelope {
  return "data" in envelope;
}

/**
 * The list of a query envelope's data to page: `data[listKey]`, or, when that list is empty or
 * absent, the longest list of the data (a tool in another mode, e.g. a search listing files
 * instead of matches).
 */
function pagedKey(data: Record<string, unknown>, listKey: string | undefined): string | undefined {
  if (!listKey) return undefined;
  const listed = data[listKey];
  if (Array.isArray(listed) && listed.length) return listKey;
  let longest: string | undefined;
  for (const [key, value] of Object.entries(data)) {
    if (!Array.isArray(value) || !value.length) continue;
    if (longest === undefined || value.length > (data[longest] as unknown[]).length) longest = key;
  }
  return longest;
}

/** A list paged out of a query envelope. */
interface ListPages {
  /** Field of `data` holding the list. */
  key: string;
  /** Number of items in the full list. */
  total: number;
  /** Items the tool found (its data's `total`), which may be more than it listed. */
  found: number;
  /** The envelope showing `count` items from `start`, with `note` added to the diagnostics. */
  view(start: number, count: number, note: Diagnostic | undefined): Envelope;
}

/**
 * The pages of the list of a query envelope (see {@linkcode pagedKey}), or undefined when it
 * has none. A page covering the whole list is the envelope itself, unchanged.
 */
function listPages(envelope: Envelope, listKey: string | undefined): ListPages | undefined {
  if (!isQuery(envelope)) return undefined;
  const data = envelope.data as unknown as Record<string, unknown>;
  const key = pagedKey(data, listKey);
  if (key === undefined) return undefined;
  const items = data[key] as unknown[];
  const found = typeof data.total === "number" && data.total > items.length
    ? data.total
    : items.length;
  return {
    key,
    total: items.length,
    found,
    view(start, count, note) {
      if (start === 0 && count >= items.length && !note) return envelope;
      const page: QueryEnvelope = {
        ...envelope,
        data: { ...data, [key]: items.slice(start, start + count), count } as QueryEnvelope[
          "data"
        ],
        diagnostics: note ? [...envelope.diagnostics, note] : envelope.diagnostics,
      };
      if (start + count < items.length || envelope.partial) {
        page.partial = true;
        if (page.status === "ok") page.status = "partial";
      }
      return page;
    },
  };
}

/**
 * Serves tools to one MCP client.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExecutionLog, queryScope, ToolServer } from "@llm/search/mcp";
 * import { TOOLS } from "@llm/search";
 * const server = new ToolServer({ tools: TOOLS, scope: queryScope(Deno.cwd()), log: new ExecutionLog() });
 * assert.equal(server.listTools().tools.at(-1)?.name, "get_execution");
 * server.close();
 * ```
 */
export class ToolServer {
  readonly #entries: CatalogEntry[];
  readonly #byName = new Map<string, CatalogEntry>();
  readonly #hidden = new Map<string, Tool>();
  /** Every tool this server knows, offered or not, by its MCP name. */
  readonly #tools = new Map<string, Tool>();
  /** Each tool's declared compact form, by the tool name its envelopes carry. */
  readonly #compactForms = new Map<string, CompactForm>();
  readonly #scope: Scope;
  readonly #maxOutputBytes: number;
  readonly #log: ExecutionLog;
  readonly #runner: ToolRunner;
  /** Runs the server's own tools (`get_execution`), which read its log, on this thread. */
  readonly #ownRunner: ToolRunner;
  readonly #callTimeoutMs: number;
  readonly #debug: boolean;

  /** Builds the catalog for the scope: tools whose permissions it lacks are not offered. */
  constructor(options: ToolServerOptions) {
    this.#scope = options.scope;
    this.#maxOutputBytes = Math.max(
      MIN_MAX_OUTPUT_BYTES,
      options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    );
    this.#log = options.log;
    this.#debug = options.debug ?? false;
    this.#runner = options.runner ??
      new InProcessRunner(options.scope.root, options.cache, this.#debug);
    this.#ownRunner = new InProcessRunner(options.scope.root, undefined, this.#debug);
    this.#callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const offered = options.tools.filter((tool) => allows(options.scope, tool));
    for (const tool of options.tools) {
      this.#tools.set(tool.mcpName, tool);
      // A merged tool's answers are its members' envelopes, each compacted by its own form.
      const members = isMerged(tool) ? Object.values(tool.members) : [];
      for (const each of [tool, ...members]) {
        if (each.compact) this.#compactForms.set(each.name, each.compact.form);
      }
      if (!offered.includes(tool)) this.#hidden.set(tool.mcpName, tool);
    }
    const log = options.log;
    const listing = { outputSchemas: options.outputSchemas ?? false };
    this.#entries = [
      ...offered.map((tool) => catalogEntry(tool, undefined, listing)),
      catalogEntry(getExecutionTool((id) => log.get(id)), true, listing),
    ];
    for (const entry of this.#entries) this.#byName.set(entry.tool.mcpName, entry);
  }

  /** The tools offered, in listing order. */
  get tools(): readonly Tool[] {
    return this.#entries.map((entry) => entry.tool);
  }

  /**
   * Runs `tool` on `input` as a call would (in a call worker when the server has them), but for
   * the server itself: not logged, answered to no client. The index's build at the server's start
   * runs so, off the thread that answers the client.
   */
  runForServer(tool: Tool, input: Record<string, unknown>, signal: AbortSignal): Promise<Envelope> {
    return this.#runner.run(tool, input, { executionId: newId(), signal });
  }

  /** Stops the runner's workers (a host that shuts down calls it). */
  close(): void {
    this.#runner.close();
  }

  /** The output budget in bytes. */
  get maxOutputBytes(): number {
    return this.#maxOutputBytes;
  }

  /**
   * `tools/list`: every tool, in one page, whatever the output budget. Claude Code, Codex and
   * Claude.ai read only the first page of a paged `tools/list` (anthropics/claude-code#39586,
   * openai/codex#28858), so a tool on a second page would be invisible to them. A cursor is
   * still accepted: `0`, the one page there is.
   */
  listTools(cursor?: string): ListResult {
    if (cursor !== undefined && cursor !== "0") {
      const diagnostic = new ToolError("MCP-ARG-002", `invalid input: unknown cursor '${cursor}'`)
        .toDiagnostic(LLM_MCP);
      throw new ProtocolError(INVALID_PARAMS, diagnostic, newId());
    }
    return { tools: this.#entries.map((entry) => entry.descriptor) };
  }

  /**
   * Answers a `tools/call`. An unknown tool throws a {@linkcode ProtocolError}; everything else,
   * arguments that fail the schema and the tool's own failures included, is a result (with
   * `isError` for failures).
   * Every call, refused or not, is recorded in the execution log.
   */
  async callTool(name: string, raw: unknown, signal?: AbortSignal): Promise<CallResult> {
    const executionId = newId();
    const started = performance.now();
    const timestamp = new Date().toISOString();
    const args = typeof raw === "object" && raw !== null ? raw as Record<string, unknown> : {};
    const record = (envelope: Envelope, status: ExecutionStatus = envelope.status) => {
      const entry: ExecutionRecord = {
        execution_id: executionId,
        tool: name,
        origin: "mcp",
        arguments: args,
        timestamp,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        status,
        envelope,
      };
      this.#log.record(entry);
    };
    const entry = this.#byName.get(name);
    if (!entry) {
      const error = this.#unknownTool(name);
      const envelope = failureEnvelope(SERVER_INFO, error, executionId);
      record(envelope);
      throw new ProtocolError(INVALID_PARAMS, error.toDiagnostic(LLM_MCP), executionId);
    }
    const tool = entry.tool;
    let prepared;
    try {
      prepared = prepareCall(entry, raw);
    } catch (thrown) {
      // A tool result, not a JSON-RPC error: the model sees it and can fix its arguments.
      const { envelope } = failureOutcome(tool, thrown, executionId, this.#debug);
      record(envelope);
      return toolResult({ envelope, isError: true });
    }
    let envelope: Envelope;
    let cancelled = false;
    // A list cut by the call's own `limit` is a page of a longer list the tool kept: its next
    // page is then a `get_execution` of this call, answered from the log.
    const pageSize = name === GET_EXECUTION ? undefined : limitOf(tool, prepared.input);
    // From the first item, so that a page past the first reserve (`offset`) is in it too.
    const input = pageSize === undefined
      ? prepared.input
      : { ...prepared.input, limit: prepared.offset + reservedLimit(pageSize) };
    try {
      confineToRoot(this.#scope.root, zodSchemas(tool).input, prepared.input);
      envelope = mcpUndoHint(await this.#execute(tool, input, executionId, signal), tool);
    } catch (thrown) {
      cancelled = thrown instanceof ToolError && thrown.code === CANCELLED;
      envelope = failureOutcome(tool, thrown, executionId, this.#debug).envelope;
    }
    if (cancelled) {
      // The client no longer waits for an answer; the log says how the call ended.
      record(envelope, "cancelled");
      return toolResult({ envelope, isError: true });
    }
    if (tool.kind === "mutation" || !tool.annotations.readOnlyHint) this.#invalidate(envelope);
    // A write the gates rejected did not do what was asked, like a failure: the client flags it.
    const isError = envelope.status === "error" || envelope.status === "rejected";
    const asked = name === GET_EXECUTION ? pageLimit(prepared.input.limit) : pageSize;
    const rerun = name === GET_EXECUTION ? this.#rerunOf(envelope) : this.#rerun(name, args);
    const request: PageRequest = {
      executionId: name === GET_EXECUTION ? executionOf(envelope) ?? executionId : executionId,
      ...(asked === undefined ? {} : { pageSize: asked }),
      ...(rerun === undefined ? {} : { rerun }),
    };
    if (name === GET_EXECUTION) {
      // It logs the page it returned (the full record it read is in the log already).
      const page = this.#fitExecution(envelope, prepared.offset, request, isError, prepared.detail);
      record(page);
      return toolResult({ envelope: page, isError });
    }
    // A tool's full result is logged, whatever form the answer takes.
    record(envelope);
    const answer = withNextCall(
      this.#fit(
        envelope,
        listKeyOf(tool, prepared.input),
        prepared.offset,
        request,
        isError,
        prepared.detail,
      ),
      envelope,
      { tool: name, arguments: args },
      tool,
      { timeoutMs: this.#toolTimeoutMs, tokens: Math.floor(this.#maxOutputBytes / 4) },
    );
    return toolResult({ envelope: answer, isError });
  }

  /**
   * Runs a checked call under the time limit. Throws `MCP-QRY-010` when the client cancelled it
   * and `MCP-QRY-011` when it ran out of time; its work is stopped in both cases.
   */
  async #execute(
    tool: Tool,
    input: Record<string, unknown>,
    executionId: string,
    clientSignal: AbortSignal | undefined,
  ): Promise<Envelope> {
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(), this.#callTimeoutMs);
    const signal = clientSignal ? AbortSignal.any([clientSignal, limit.signal]) : limit.signal;
    const runner = tool.mcpName === GET_EXECUTION ? this.#ownRunner : this.#runner;
    const started = performance.now();
    try {
      // The tool's budget, a little under the call's limit: a wait ends in time to answer.
      const deadline = Date.now() + this.#toolTimeoutMs;
      return await runner.run(tool, this.#withTimeout(tool, input), {
        executionId,
        signal,
        deadline,
      });
    } catch (thrown) {
      const after = `after ${Math.round(performance.now() - started)} ms`;
      if (clientSignal?.aborted) {
        throw new ToolError(CANCELLED, `${tool.mcpName} cancelled by the client ${after}`);
      }
      if (!limit.signal.aborted) throw thrown;
      throw new ToolError("MCP-QRY-011", `${tool.mcpName} stopped at the time limit ${after}`, {
        note: `The server stops a call after --call-timeout-ms ${this.#callTimeoutMs}.`,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The input with a default `timeout_ms` for a tool that takes one, a little under the call's
   * time limit: the tool then stops itself and answers what it found, rather than nothing.
   */
  #withTimeout(tool: Tool, input: Record<string, unknown>): Record<string, unknown> {
    if (!("timeout_ms" in tool.input.shape) || input.timeout_ms !== undefined) return input;
    return { ...input, timeout_ms: this.#toolTimeoutMs };
  }

  /** The time budget the server gives a tool that takes one (its default `timeout_ms`). */
  get #toolTimeoutMs(): number {
    return Math.max(1, Math.floor(this.#callTimeoutMs * TOOL_TIMEOUT_SHARE));
  }

  #unknownTool(name: string): ToolError {
    const hidden = this.#hidden.get(name);
    if (!hidden) {
      return new ToolError("MCP-ARG-010", `unknown tool '${name}'`, {
        note: `Tools: ${this.#entries.map((entry) => entry.tool.mcpName).join(", ")}`,
      });
    }
    const missing = hidden.permissions.filter((permission) => !this.#scope.granted.has(permission));
    const permission = missing[0] ?? "write";
    const flag = `--allow-${permission}=${this.#scope.root}`;
    return new ToolError(
      permission === "read" ? "MCP-PERM-001" : "MCP-PERM-002",
      `${name} needs ${missing.join(" and ")} permission, which this server was not started with`,
      {
        file: this.#scope.root,
        remediation: `Restart the server with ${flag} to offer ${name}.`,
      },
    );
  }

  /** Drops cache entries of the files a mutation names (everything when it names none). */
  #invalidate(envelope: Envelope): void {
    const result = "result" in envelope ? envelope.result : isQuery(envelope) ? envelope.data : {};
    this.#runner.invalidate(changedPaths(this.#scope.root, result));
  }

  /** The call `tool` with `args`, to run again for the items past those its log holds. */
  #rerun(tool: string, args: Record<string, unknown>): PageRequest["rerun"] {
    const offsetArgument = this.#byName.get(tool)?.offsetArgument;
    return offsetArgument === undefined ? undefined : { tool, arguments: args, offsetArgument };
  }

  /** {@linkcode ToolServer.#rerun} of the call a `get_execution` answer holds the record of. */
  #rerunOf(envelope: Envelope): PageRequest["rerun"] {
    if (!isQuery(envelope) || !("execution" in envelope.data)) return undefined;
    const record = (envelope.data as unknown as { execution: ExecutionRecord }).execution;
    return this.#rerun(record.tool, record.arguments as Record<string, unknown>);
  }

  /**
   * The answer to a call: its envelope in the form `detail` asks for, cut to the budget. A cut
   * compact answer names its next page (`next_page`: `get_execution` on the stored result, or,
   * past the items stored, the call again from there).
   */
  #fit(
    envelope: Envelope,
    listKey: string | undefined,
    offset: number,
    request: PageRequest,
    isError: boolean,
    detail: Detail,
  ): Answer {
    const shape = this.#answerShape(detail);
    const pages = listPages(envelope, listKey);
    if (!pages) return shrinkToFit(shape(envelope), this.#maxOutputBytes, isError);
    const { pageSize } = request;
    const paged = pageSize !== undefined && offset + pageSize < pages.total;
    const whole = shape(envelope);
    if (!paged && offset === 0 && responseBytes(whole, isError) <= this.#maxOutputBytes) {
      return whole;
    }
    const shaped: Pageable = {
      // A call's own limit makes its page no longer than it asked.
      total: paged ? offset + pageSize : pages.total,
      view: (start, count, note) =>
        withNextPage(shape(pages.view(start, count, note)), request, start + count, pages),
    };
    return fitPage(shaped, pages.key, offset, this.#maxOutputBytes, request, isError).envelope;
  }

  /**
   * The function giving an envelope the form `detail` asks for: compact, or full with its
   * diagnostics bounded to a quarter of the budget (they never crowd out the results).
   */
  #answerShape(detail: Detail): (envelope: Envelope) => Answer {
    if (detail !== "full") {
      // By the envelope's own tool, not the call's: a `get_execution` page holds another
      // tool's envelope (a logged one of any tool, or the server's own refusal of a call).
      return (envelope) => compactEnvelope(envelope, this.#compactForms.get(envelope.tool));
    }
    return (envelope) => boundDiagnostics(envelope, this.#maxOutputBytes / 4);
  }

  /** Pages the list of the envelope inside a `get_execution` result, in the form asked for. */
  #fitExecution(
    envelope: Envelope,
    offset: number,
    request: PageRequest,
    isError: boolean,
    detail: Detail,
  ): Envelope {
    if (!isQuery(envelope) || !("execution" in envelope.data)) {
      return shrinkToFit(envelope, this.#maxOutputBytes, isError);
    }
    const record = (envelope.data as unknown as { execution: ExecutionRecord }).execution;
    const stored = record.envelope as Envelope; // the log keeps full envelopes
    const shape = this.#answerShape(detail);
    const wrap = (page: Answer): Envelope => ({
      ...envelope,
      data: { ...envelope.data, execution: { ...record, envelope: page } },
    } as QueryEnvelope);
    const recorded = this.#tools.get(record.tool);
    const listKey = recorded &&
      listKeyOf(recorded, record.arguments as Record<string, unknown>);
    const inner = listPages(stored, listKey);
    if (!inner) return shrinkToFit(wrap(shape(stored)), this.#maxOutputBytes, isError);
    const { pageSize } = request;
    const paged = pageSize !== undefined && offset + pageSize < inner.total;
    const whole = wrap(shape(stored));
    if (!paged && offset === 0 && responseBytes(whole, isError) <= this.#maxOutputBytes) {
      return whole;
    }
    const pages: Pageable = {
      total: paged ? offset + pageSize : inner.total,
      view: (start, count, note) =>
        wrap(withNextPage(shape(inner.view(start, count, note)), request, start + count, inner)),
    };
    return fitPage(pages, inner.key, offset, this.#maxOutputBytes, request, isError)
      .envelope as Envelope;
  }
}

/**
 * A compact page ending at `end` of the list `pages`, with its `next_page` when items remain: a
 * `get_execution` of the stored result while it holds more, else, when the tool found more than
 * it listed (its `total`), the call again from `end` (the server then asks the tool for the items
 * up to that page).
 */
function withNextPage(answer: Answer, request: PageRequest, end: number, pages: ListPages): Answer {
  if (!isCompact(answer) || !("data" in answer)) return answer;
  const limit = request.pageSize === undefined ? {} : { limit: request.pageSize };
  let next_page: NextPage;
  if (end < pages.total) {
    next_page = {
      tool: GET_EXECUTION,
      arguments: { execution_id: request.executionId, offset: end, ...limit },
    };
  } else if (pages.found > pages.total && request.rerun) {
    const { tool, arguments: args, offsetArgument } = request.rerun;
    next_page = { tool, arguments: { ...args, [offsetArgument]: end, ...limit } };
  } else return answer;
  const { diagnostics, ...head } = answer;
  return { ...head, next_page, diagnostics };
}

function executionOf(envelope: Envelope): string | undefined {
  if (!isQuery(envelope)) return undefined;
  const data = envelope.data as unknown as { execution?: ExecutionRecord };
  return data.execution?.execution_id;
}

/** Codes of a partial answer that the same call, made again shortly, answers in full. */
const RETRY_LATER = new Set(["MAG-IO-029"]);

/**
 * A compact partial answer with the call that gets more as its `next_page`, when paging its list
 * names none: the same call when its envelope says it answers in full a little later (the
 * index's first build was still going on), else the call the tool names (its `nextCall`: a
 * search from the file its time budget cut it at, a deeper walk, a larger token budget).
 */
function withNextCall(
  answer: Answer,
  envelope: Envelope,
  call: NextPage,
  tool: Tool,
  limits: NextCallLimits,
): Answer {
  if (!isCompact(answer) || !("data" in answer) || answer.next_page || !answer.partial) {
    return answer;
  }
  const codes = new Set(envelope.diagnostics.map((diagnostic) => diagnostic.code));
  let next: NextPage | undefined;
  if ([...RETRY_LATER].some((code) => codes.has(code))) next = call;
  else {
    const args = tool.nextCall?.next(envelope, call.arguments, limits);
    if (args) next = { tool: call.tool, arguments: args };
  }
  if (!next) return answer;
  const { diagnostics, ...head } = answer;
  return { ...head, next_page: next, diagnostics };
}

/**
 * The list a call's answer is paged by: a merged tool's is that of the member the call names
 * (`graph` with `algorithm: "export"` has none, so an offset pages nothing there).
 */
function listKeyOf(tool: Tool, input: Record<string, unknown>): string | undefined {
  if (!isMerged(tool)) return tool.listKey;
  const value = input[tool.discriminator];
  return typeof value === "string" && Object.hasOwn(tool.members, value)
    ? tool.members[value].listKey
    : undefined;
}

/**
 * Items a call cut by its own `limit` asks of the tool, so that its next pages come from the log:
 * ten pages' worth, at least 100, at most {@linkcode MAX_RESERVED_ITEMS}.
 */
function reservedLimit(pageSize: number): number {
  return Math.max(pageSize, Math.min(Math.max(pageSize * 10, 100), MAX_RESERVED_ITEMS));
}

/** Most items a call asks of a tool beyond its own `limit`, to page them (see above). */
const MAX_RESERVED_ITEMS = 1_000;

/**
 * The `limit` a call of a list tool asks for (its default when it names none): the size of its
 * answer's page; undefined for a tool without one, a call asking for everything (0), or a limit
 * already past what is reserved.
 */
function limitOf(tool: Tool, input: Record<string, unknown>): number | undefined {
  let answering = tool;
  let args = input;
  if (isMerged(tool)) {
    // The member the call names applies its own default.
    const value = input[tool.discriminator];
    if (typeof value !== "string" || !Object.hasOwn(tool.members, value)) return undefined;
    answering = tool.members[value];
    const { [tool.discriminator]: _value, ...rest } = input;
    args = rest;
  }
  if (!answering.listKey || !("limit" in answering.input.shape)) return undefined;
  const parsed = answering.input.safeParse(args);
  const limit = parsed.success ? (parsed.data as Record<string, unknown>).limit : undefined;
  return typeof limit === "number" && limit > 0 && limit < MAX_RESERVED_ITEMS ? limit : undefined;
}

/** A `get_execution` call's `limit`, when it gives a usable one. */
function pageLimit(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
