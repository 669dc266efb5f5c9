/**
 * Logging a command-line run to the workspace's execution log (`<root>/.llm/log/`), the store
 * the MCP server shares. A mutating tool's runs are always logged; a read-only tool's runs only
 * when the process may write the store (`--allow-write=<root>/.llm`), so a read-only run never
 * needs write permission. Logging never changes the run's output or exit code: when it cannot
 * be done, and the user asked for it (`--log`, or a mutating tool), a note goes to stderr.
 *
 * @module
 */
import { resolve } from "./path_syntax.ts";
import type { Envelope, QueryEnvelope } from "../schema/envelope.ts";
import type { ExecutionRecord } from "../schema/mcp.ts";
import {
  checkStore,
  logExecution,
  type LogOwner,
  storeDirectory,
  unwritableStore,
} from "./execution_store.ts";
import type { Tool, ToolOutcome } from "./tool.ts";
import { type Diagnostic, ToolError } from "../schema/diagnostic.ts";

/** One finished command-line run. */
export interface CliRun {
  /** The tool that ran. */
  tool: Pick<Tool, "name" | "mcpName" | "prefix" | "kind" | "listKey">;
  /** The command-line arguments as typed. */
  argv: string[];
  /** The input the flags gave (empty when they could not be read). */
  input: Record<string, unknown>;
  /** What the run produced. */
  outcome: ToolOutcome;
  /** When the run started. */
  startedAt: Date;
  /** Items the run streamed (`--format jsonl`) instead of listing them in its data. */
  streamed?: unknown[];
  /** `--log` was given: say on stderr when the run cannot be logged. */
  requested: boolean;
  /** Directory relative paths are resolved against. */
  cwd: string;
}

/** The workspace root of a run: its `root` input when it has one, else the working directory. */
function rootOf(run: CliRun): string {
  const root = run.input.root;
  return typeof root === "string" && root !== "" ? resolve(run.cwd, root) : run.cwd;
}

function realRoot(root: string): string {
  try {
    return Deno.realPathSync(root);
  } catch (error) {
    // A missing root: the run has already said so in its envelope; log under the name given.
    if (error instanceof Deno.errors.NotFound) return root;
    throw error;
  }
}

/** The envelope as the record keeps it: streamed items put back into the data's list. */
function loggedEnvelope(tool: CliRun["tool"], envelope: Envelope, streamed?: unknown[]): Envelope {
  if (!streamed?.length || tool.kind !== "query" || !tool.listKey) return envelope;
  const query = envelope as QueryEnvelope;
  return { ...query, data: { ...query.data, [tool.listKey]: streamed } } as QueryEnvelope;
}

function recordOf(run: CliRun): ExecutionRecord {
  const envelope = loggedEnvelope(run.tool, run.outcome.envelope, run.streamed);
  return {
    execution_id: envelope.execution_id,
    tool: run.tool.mcpName,
    origin: "cli",
    arguments: run.input,
    argv: run.argv,
    timestamp: run.startedAt.toISOString(),
    duration_ms: Math.max(0, Date.now() - run.startedAt.getTime()),
    status: envelope.status,
    envelope,
  };
}

function note(diagnostic: Diagnostic): void {
  console.error(`${diagnostic.tool}: note: ${diagnostic.code}: ${diagnostic.message}`);
}

/**
 * Appends `run` to its root's execution log when the policy says so; never throws (a failure
 * to log is a note on stderr when the run was meant to be logged).
 */
export function logCliRun(run: CliRun): void {
  const owner: LogOwner = { name: run.tool.name, prefix: run.tool.prefix };
  // Logging is meant when asked for, for a mutator, or when write permission for the store is
  // granted; otherwise the run stays silent about the log (a read-only run scoped to another
  // folder may not even resolve its working directory).
  let meant = run.requested || run.tool.kind === "mutation";
  let dir = storeDirectory(rootOf(run));
  try {
    dir = storeDirectory(realRoot(rootOf(run)));
    if (Deno.permissions.querySync({ name: "write", path: dir }).state !== "granted") {
      if (meant) {
        note(unwritableStore(owner, dir, `no write permission (add --allow-write=${dir})`));
      }
      return;
    }
    meant = true;
    checkStore(dir, owner.prefix, true);
    const cut = logExecution(dir, recordOf(run), owner);
    if (cut) note(cut);
  } catch (error) {
    if (!meant) return;
    if (error instanceof ToolError) note(error.toDiagnostic(owner.name));
    else note(unwritableStore(owner, dir, error instanceof Error ? error.message : String(error)));
  }
}
