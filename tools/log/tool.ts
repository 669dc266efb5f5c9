/**
 * `llm-log`: the one command over the execution log that every run shares
 * (`<root>/.llm/log/`): `list` the runs, filtered by tool, status and time, or `show ID` one
 * run's arguments and full envelope — the command-line twin of the MCP tool `get_execution`.
 *
 * @module
 */
import { resolve } from "../../core/path_syntax.ts";
import { z } from "zod";
import { ToolError } from "../../schema/diagnostic.ts";
import { type EmptyData, type QueryEnvelope, queryEnvelope } from "../../schema/envelope.ts";
import {
  type ExecutionListData,
  type GetExecutionData,
  LogEnvelopeSchema,
} from "../../schema/mcp.ts";
import {
  checkStore,
  findExecution,
  listExecutions,
  storeDirectory,
} from "../../core/execution_log.ts";
import { defineTool, type Tool } from "../../core/tool.ts";
import { field } from "../../schema/fields.ts";
import { LLM_LOG } from "../../schema/tool_names.ts";
import { LOG_DEFAULTS } from "./defaults.ts";

const STATUSES = ["ok", "error", "partial", "approved", "rejected", "cancelled"] as const;

const RELATIVE_TIME = /^(\d+)([smhd])$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A point in time as `--since`/`--until` take it: an ISO 8601 date or time, or an age such as
 * `30m`, `2h`, `7d` (that long before `now`); `undefined` when it is neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTime } from "./tool.ts";
 * const now = new Date("2026-01-01T12:00:00Z");
 * assert.equal(parseTime("2h", now)?.toISOString(), "2026-01-01T10:00:00.000Z");
 * ```
 */
export function parseTime(text: string, now: Date = new Date()): Date | undefined {
  const age = RELATIVE_TIME.exec(text.trim());
  if (age) return new Date(now.getTime() - Number(age[1]) * UNIT_MS[age[2]]);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time);
}

const time = (what: string) =>
  z.string().refine((text) => parseTime(text) !== undefined, {
    message: "expected an ISO 8601 date or time (2026-11-23, 2026-11-23T10:00:00Z) or an age " +
      "(30m, 2h, 7d)",
  }).optional().describe(what);

const input = z.object({
  command: z.enum(["list", "show"]).default("list").describe(
    "list: the runs, newest first; show: one run by its execution_id",
  ),
  execution_id: z.string().min(1).optional().describe(
    "execution_id of the run to show (UUID; the first positional after `show`)",
  ),
  tool: z.string().min(1).optional().describe(
    "Only runs of this tool (llm-transform or transform)",
  ),
  status: z.enum(STATUSES).optional().describe("Only runs that ended so"),
  since: time("Only runs started at or after this time (ISO 8601, or an age: 30m, 2h, 7d)"),
  until: time("Only runs started before this time (ISO 8601, or an age)"),
  limit: z.number().int().nonnegative().default(LOG_DEFAULTS.limit).describe(
    "List at most N runs (0 = all)",
  ),
  root: field(
    z.string().min(1).optional().describe(
      "Workspace root whose <root>/.llm/log is read [default: .]",
    ),
    { path: true },
  ),
  log_dir: field(
    z.string().min(1).optional().describe(
      "Read this store instead (the --log-dir an MCP server was started with)",
    ),
    { path: true },
  ),
}).refine((value) => value.command !== "show" || value.execution_id !== undefined, {
  message: "`show` needs the execution_id of a run",
  path: ["execution_id"],
});

type LogInput = z.output<typeof input>;

/** The store to read: `--log-dir`, else `<root>/.llm/log` of the real root. */
function storeOf(value: LogInput, cwd: string): string {
  if (value.log_dir !== undefined) return resolve(cwd, value.log_dir);
  const root = resolve(cwd, value.root ?? ".");
  let real = root;
  try {
    real = Deno.realPathSync(root);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new ToolError("LML-IO-001", `root not found: ${root}`, { file: root });
  }
  return storeDirectory(real);
}

function show(dir: string, id: string, exists: boolean): GetExecutionData {
  const found = exists ? findExecution(dir, id) : undefined;
  if (!found) {
    throw new ToolError("LML-REF-001", `no execution ${id} in the log ${dir}`, {
      file: dir,
      note: "`llm-log list` lists the runs the log holds.",
    });
  }
  return { count: 1, execution: found };
}

function list(dir: string, value: LogInput, exists: boolean): ExecutionListData {
  if (!exists) return { count: 0, total: 0, executions: [] };
  return listExecutions(dir, {
    tool: value.tool,
    status: value.status,
    since: value.since === undefined ? undefined : parseTime(value.since),
    until: value.until === undefined ? undefined : parseTime(value.until),
    limit: value.limit,
  });
}

/** `--format text`: one line a run for `list`, the record as indented JSON for `show`. */
function renderText(envelope: QueryEnvelope<ExecutionListData | GetExecutionData | EmptyData>) {
  const data = envelope.data;
  if (!("executions" in data)) return JSON.stringify(envelope, null, 2) + "\n";
  const lines = data.executions.map((run) =>
    [run.timestamp, run.status.padEnd(9), (run.origin ?? "mcp").padEnd(3), run.tool.padEnd(12)]
      .join("  ") + `  ${run.execution_id}${run.error_code ? `  ${run.error_code}` : ""}`
  );
  const more = data.total > data.count ? [`(${data.total - data.count} more; --limit 0)`] : [];
  return [...lines, ...more, ""].join("\n");
}

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
  input,
  output: LogEnvelopeSchema,
  listKey: "executions",
  itemType: "execution",
  text: renderText,
  cli: {
    usage: "[list] [--tool T] [--status S] [--since TIME] [--until TIME] [--limit N]\n" +
      "  llm-log show EXECUTION_ID",
    positionals: (positionals) => {
      if (positionals.length > 2) {
        throw new ToolError("LML-ARG-001", `unexpected argument '${positionals[2]}'`);
      }
      const [command, id] = positionals;
      return {
        ...(command === undefined ? {} : { command }),
        ...(id === undefined ? {} : { execution_id: id }),
      };
    },
    examples: [
      "llm-log list",
      "llm-log list --tool llm-transform --status ok --since 2h --format text",
      "llm-log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11",
      "llm-log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11 --log-dir ~/.cache/llm-mcp",
    ],
  },
  run: (value, context) => {
    const dir = storeOf(value, context.cwd);
    const exists = checkStore(dir, "LML", false);
    const data = value.command === "show"
      ? show(dir, value.execution_id!, exists)
      : list(dir, value, exists);
    return Promise.resolve({
      envelope: queryEnvelope(LLM_LOG, data, [], { executionId: context.executionId }),
    });
  },
});
