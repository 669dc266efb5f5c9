/**
 * `llm-log`: the execution log every @llm/search run shares, `<root>/.llm/log/`. One command for
 * every tool (as `git log` is one command for every change), so a tool's own arguments never
 * clash with it (`llm-search log` searches for "log", as `rg log` does).
 *
 * ```sh
 * deno run --allow-read jsr:@llm/search/log list --tool llm-transform --status ok
 * deno run --allow-read jsr:@llm/search/log show 4d1c2f9e-0b7a-4c55-9a51-2f0f6f4c1e11
 * ```
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listExecutions, storeDirectory } from "@llm/search/log";
 * const listing = listExecutions(storeDirectory(Deno.cwd()), { tool: "llm-transform", limit: 5 });
 * assert.ok(listing.count <= 5 && listing.count <= listing.total);
 * for (const execution of listing.executions) assert.equal(execution.tool, "transform"); // MCP names
 * ```
 *
 * @module
 */
import { runCommand, tableOf } from "../../core/cli_table.ts";
import TABLES from "../../core/tables/log.json" with { type: "json" };
import { LLM_LOG } from "../../schema/tool_names.ts";
import { LOG_CODE } from "./run.ts";

export {
  type ExecutionFilter,
  findExecution,
  listExecutions,
  storeDirectory,
} from "../../core/execution_log.ts";
export { logTool } from "./tool.ts";

// Reading the log is not itself logged: it would fill the log with reads of the log.
if (import.meta.main) {
  Deno.exit(await runCommand(tableOf(TABLES, LLM_LOG), LOG_CODE, Deno.args, { log: false }));
}
