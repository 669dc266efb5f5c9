/**
 * Classifying any thrown value into a coded error, and the envelope a failed run prints.
 * Shared by the CLI adapter and the MCP server so both fail the same way.
 *
 * @module
 */
import { type Diagnostic, ToolError } from "../schema/diagnostic.ts";
import { type Envelope, mutationEnvelope, queryEnvelope } from "../schema/envelope.ts";
import { isPermissionRefusal, permissionError } from "./permissions.ts";
import type { ToolInfo, ToolOutcome } from "./tool.ts";

/**
 * Any thrown value as a {@linkcode ToolError}: coded errors pass through, sandbox refusals
 * become `*-PERM-*`, anything else is `*-INT-001` (with the stack as note when `debug`).
 *
 * @example
 * ```ts
 * import { classifyError } from "@llm/search";
 * classifyError("LMS", new TypeError("boom"), false).code; // "LMS-INT-001"
 * ```
 */
export function classifyError(prefix: string, error: unknown, debug: boolean): ToolError {
  if (error instanceof ToolError) return error;
  if (isPermissionRefusal(error)) return permissionError(prefix, error);
  const message = error instanceof Error ? error.message : String(error);
  const note = debug && error instanceof Error ? error.stack : undefined;
  return new ToolError(`${prefix}-INT-001`, `internal error: ${message}`, note ? { note } : {});
}

/**
 * The envelope of a run that failed with `error`, in the tool's envelope kind.
 *
 * @example
 * ```ts
 * import { failureEnvelope } from "@llm/search";
 * import { ToolError } from "@llm/search/schema";
 * const info = { name: "llm-search", kind: "query" as const, mcpName: "search" };
 * failureEnvelope(info, new ToolError("LMS-QRY-002", "no pattern"), crypto.randomUUID()).status; // "error"
 * ```
 */
export function failureEnvelope(
  tool: Pick<ToolInfo, "name" | "kind" | "mcpName" | "operationType">,
  error: ToolError,
  executionId: string,
): Envelope {
  const diagnostic: Diagnostic = error.toDiagnostic(tool.name);
  if (tool.kind === "query") {
    return queryEnvelope(tool.name, { count: 0 }, [diagnostic], { executionId });
  }
  return mutationEnvelope(tool.name, {
    operation_type: tool.operationType ?? tool.mcpName,
    status: "error",
    message: error.message,
    error: diagnostic,
    executionId,
  });
}

/** The outcome of a failed run: its envelope and the registry's exit code for the error. */
export function failureOutcome(
  tool: Pick<ToolInfo, "name" | "kind" | "mcpName" | "operationType" | "prefix">,
  thrown: unknown,
  executionId: string,
  debug: boolean,
): ToolOutcome {
  const error = classifyError(tool.prefix, thrown, debug);
  return { envelope: failureEnvelope(tool, error, executionId), exitCode: error.exitCode };
}
