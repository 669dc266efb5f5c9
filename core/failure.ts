/**
 * Classifying any thrown value into a coded error, the envelope a failed run prints, and the
 * `*-ARG-002` error of an input its schema (or a command's table) refuses. Shared by the CLI
 * adapter and the MCP server so both fail the same way.
 *
 * @module
 */
import { type Diagnostic, ToolError } from "../schema/diagnostic.ts";
import { type Envelope, mutationEnvelope, queryEnvelope } from "../schema/envelope_build.ts";
import { isPermissionRefusal, permissionError } from "./permissions.ts";

/**
 * What a failure's envelope needs of its tool (a definition's `ToolInfo` is one). Spelled out
 * here, not taken from `tool.ts`, which imports this module.
 */
export interface FailingTool {
  /** Command name. */
  name: string;
  /** Query tools fail with a query envelope, mutation tools with a mutation envelope. */
  kind: "query" | "mutation";
  /** MCP tool name (the operation of a mutation without `operationType`). */
  mcpName: string;
  /** `operation_type` of the mutation envelope. */
  operationType?: string;
}

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
  tool: FailingTool,
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
  tool: FailingTool & { prefix: string },
  thrown: unknown,
  executionId: string,
  debug: boolean,
): { envelope: Envelope; exitCode: number } {
  const error = classifyError(tool.prefix, thrown, debug);
  return { envelope: failureEnvelope(tool, error, executionId), exitCode: error.exitCode };
}

/** One reason a value fails a schema (`SchemaIssue` of `tool.ts`). */
interface Issue {
  /** Keys and indexes from the value's root to the failing part. */
  readonly path: readonly PropertyKey[];
  /** Why it fails. */
  readonly message: string;
}

/**
 * The `*-ARG-002` error for input that fails a schema, naming the JSON path of each violation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputError } from "./failure.ts";
 * const error = inputError("LMS", { issues: [{ path: ["limit"], message: "Too small" }] });
 * assert.equal(error.message, "invalid input: $.limit: Too small");
 * ```
 */
export function inputError(
  prefix: string,
  error: { readonly issues: readonly Issue[] },
): ToolError {
  const violations = error.issues.map((issue) => {
    const path = issue.path.length ? "$." + issue.path.join(".") : "$";
    return `${path}: ${issue.message}`;
  });
  return new ToolError(`${prefix}-ARG-002`, `invalid input: ${violations[0]}`, {
    note: violations.join("\n"),
  });
}
