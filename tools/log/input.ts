/**
 * The input schema of `llm-log` (which is also its flag set): the definition (`tool.ts`) takes
 * it, the run (`run.ts`) its type; the command line loads it to check `--since`, `--until` and
 * that `show` has an execution_id (what the command table leaves to zod).
 *
 * @module
 */
import { z } from "zod";
import { field } from "../../schema/fields.ts";
import { LOG_DEFAULTS } from "./defaults.ts";
import { parseTime } from "./time.ts";

const STATUSES = ["ok", "error", "partial", "approved", "rejected", "cancelled"] as const;

const time = (what: string) =>
  z.string().refine((text) => parseTime(text) !== undefined, {
    message: "expected an ISO 8601 date or time (2026-11-23, 2026-11-23T10:00:00Z) or an age " +
      "(30m, 2h, 7d)",
  }).optional().describe(what);

/** Input schema of `llm-log`. */
export const LogInput = z.object({
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

/** Input of `llm-log`, after defaults. */
export type LogInput = z.output<typeof LogInput>;
