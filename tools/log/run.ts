/**
 * What `llm-log` runs once its input is checked, how its positionals map and how its answer reads
 * as text: shared by the definition (`tool.ts`, which loads zod) and by the command line
 * (`main.ts`, and `llm-mcp log`), which loads the input schema only to check the input.
 *
 * @module
 */
import type { CommandCode } from "../../core/cli_table.ts";
import { resolve } from "../../core/path_syntax.ts";
import {
  checkStore,
  findExecution,
  listExecutions,
  storeDirectory,
} from "../../core/execution_log.ts";
import type { PositionalMapper, RunContext, ToolOutcome } from "../../core/tool.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import {
  type EmptyData,
  type Envelope,
  type QueryEnvelope,
  queryEnvelope,
} from "../../schema/envelope_build.ts";
import type { ExecutionListData, GetExecutionData } from "../../schema/mcp.ts";
import { LLM_LOG } from "../../schema/tool_names.ts";
import type { LogInput } from "./input.ts";
import { parseTime } from "./time.ts";

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

/**
 * `--format text`: one line a run for `list`, the record as indented JSON for `show`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryEnvelope } from "@llm/search/schema";
 * import { renderLogText } from "./run.ts";
 * const answer = queryEnvelope("llm-log", { count: 0, total: 0, executions: [] }, []);
 * assert.equal(renderLogText(answer), "");
 * ```
 */
export function renderLogText(answer: Envelope): string {
  // llm-log answers with query envelopes of its own data only (runLog).
  const envelope = answer as QueryEnvelope<ExecutionListData | GetExecutionData | EmptyData>;
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
 * `llm-log [list|show] [ID]`: the command, then the execution id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logPositionals } from "./run.ts";
 * assert.deepEqual(logPositionals(["show", "x"], {}), { command: "show", execution_id: "x" });
 * ```
 */
export const logPositionals: PositionalMapper = (positionals) => {
  if (positionals.length > 2) {
    throw new ToolError("LML-ARG-001", `unexpected argument '${positionals[2]}'`);
  }
  const [command, id] = positionals;
  return {
    ...(command === undefined ? {} : { command }),
    ...(id === undefined ? {} : { execution_id: id }),
  };
};

/** Runs `llm-log` on a checked input. */
export function runLog(value: LogInput, context: RunContext): Promise<ToolOutcome> {
  const dir = storeOf(value, context.cwd);
  const exists = checkStore(dir, "LML", false);
  const data = value.command === "show"
    ? show(dir, value.execution_id!, exists)
    : list(dir, value, exists);
  return Promise.resolve({
    envelope: queryEnvelope(LLM_LOG, data, [], { executionId: context.executionId }),
  });
}

/**
 * `llm-log` as its command line runs it (`main.ts`, `llm-mcp log`) and its definition declares
 * it. Its input schema says more than the table can (`--since`, `--until`, `show` needing an id),
 * so the command line loads it to check every input.
 */
export const LOG_CODE: CommandCode<LogInput> = {
  run: runLog,
  text: renderLogText,
  positionals: logPositionals,
  schema: async () => (await import("./input.ts")).LogInput,
};
