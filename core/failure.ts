/**
 * Classifying any thrown value into a coded error, and the envelope a failed run prints.
 * Shared by the CLI adapter and the MCP server so both fail the same way.
 *
 * @module
 */
import { type Diagnostic, ToolError } from "../schema/diagnostic.ts";
import { type Envelope, mutationEnvelope, queryEnvelope } from "../schema/envelope_build.ts";
import { isPermissionRefusal, permissionError } from "./permissions.ts";
import type { ToolInfo, ToolOutcome } from "./tool.ts";

/**
 * Any thrown value as a {@linkcode ToolError}: coded errors pass through, sandbox refusals
 * become `*-PERM-*`, anything else is `*-INT-001` with the original as its `cause`. With
 * `debug`, the diagnostic's note holds the stack and the cause chain
 * ({@linkcode describeCauses}).
 *
 * @example Classify an unexpected error
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyError } from "@llm/search";
 * const thrown = new TypeError("boom");
 * const error = classifyError("LMS", thrown, false);
 * assert.equal(error.code, "LMS-INT-001");
 * assert.equal(error.cause, thrown);
 * ```
 */
export function classifyError(prefix: string, error: unknown, debug: boolean): ToolError {
  const coded = codedError(prefix, error);
  if (!debug || coded.cause === undefined || coded.details.note !== undefined) return coded;
  return new ToolError(coded.code, coded.message, {
    ...coded.details,
    note: describeCauses(coded),
  }, { cause: coded.cause });
}

function codedError(prefix: string, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (isPermissionRefusal(error)) return permissionError(prefix, error);
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(`${prefix}-INT-001`, `internal error: ${message}`, {}, { cause: error });
}

/**
 * The chain of causes under `error`, one per paragraph: each cause's stack (or its text when it
 * is not an `Error`), introduced by `caused by:`. Empty when `error` has no cause. A cycle of
 * causes is cut at the first repeat.
 *
 * @example Print what led to an error
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeCauses } from "@llm/search";
 * const error = new Error("outer", { cause: new Error("inner") });
 * assert.ok(describeCauses(error).startsWith("caused by: Error: inner"));
 * ```
 */
export function describeCauses(error: unknown): string {
  const seen = new Set<unknown>([error]);
  const parts: string[] = [];
  let cause = error instanceof Error ? error.cause : undefined;
  while (cause !== undefined && !seen.has(cause)) {
    seen.add(cause);
    parts.push(
      `caused by: ${cause instanceof Error ? cause.stack ?? String(cause) : String(cause)}`,
    );
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return parts.join("\n");
}

/**
 * The envelope of a run that failed with `error`, in the tool's envelope kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failureEnvelope } from "./failure.ts";
 * import { ToolError } from "@llm/search/schema";
 * const info = { name: "llm-search", kind: "query" as const, mcpName: "search" };
 * const error = new ToolError("LMS-QRY-002", "no pattern");
 * assert.equal(failureEnvelope(info, error, crypto.randomUUID()).status, "error");
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
