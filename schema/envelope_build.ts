/**
 * The two output envelopes of contract §3, as types, and their builders; their zod schemas are
 * in `envelope.ts`. No zod here: a command line builds its envelope without loading it.
 *
 * @module
 */
import type { Diagnostic, MutationError } from "./diagnostic.ts";
import { newId } from "./ids.ts";

/** Version of the output contract this package writes. */
export const SCHEMA_VERSION = "1.0.0";

/** Status of a query run. */
export type QueryStatus = "ok" | "error" | "partial";

/** Every query tool's data carries at least a count. */
export interface QueryData {
  /** Number of results in this document. */
  count: number;
}

/** The envelope of query tools (search, ast-search, discover, symbol queries). */
export interface QueryEnvelope<D extends QueryData = QueryData> {
  /** Contract version. */
  schema_version: string;
  /** UUID v4 of this run. */
  execution_id: string;
  /** Tool name, e.g. `llm-search`. */
  tool: string;
  /** ISO 8601 UTC time of the run. */
  timestamp: string;
  /** `partial` when a limit or timeout cut the results. */
  status: QueryStatus;
  /** Tool-specific results. */
  data: D;
  /** Present and true when results were cut. */
  partial?: true;
  /** Warnings, skipped files, errors. */
  diagnostics: Diagnostic[];
}

/** Status of a mutation run (`approved`/`rejected` are llm-write's). */
export type MutationStatus = "ok" | "error" | "partial" | "approved" | "rejected";

/** The envelope of mutation tools (transform, refactor, write, symbols index). */
export interface MutationEnvelope<R = unknown> {
  /** Contract version. */
  schema_version: string;
  /** UUID v4 of this run. */
  execution_id: string;
  /** Tool name. */
  tool: string;
  /** What kind of mutation, e.g. `edit`, `replace`. */
  operation_type: string;
  /** ISO 8601 UTC time of the run. */
  timestamp: string;
  /** Outcome. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** Root the paths are relative to. */
  workspace?: string;
  /** Tool-specific result. */
  result?: R;
  /** The error that stopped the run: a gate's refusal (contract §7), or another error. */
  error?: MutationError;
  /** Warnings and notes. */
  diagnostics: Diagnostic[];
}

/** Data of a query envelope whose run failed before producing results. */
export interface EmptyData {
  /** Always 0. */
  count: 0;
}

/** Fields every envelope starts with, fresh for each run. */
export interface RunHead {
  /** Contract version. */
  schema_version: string;
  /** UUID v4 of this run. */
  execution_id: string;
  /** Tool name. */
  tool: string;
  /** ISO 8601 UTC time. */
  timestamp: string;
}

/**
 * A fresh head for a run of `tool`: new execution id, current time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runHead } from "@llm/search/schema";
 * assert.equal(runHead("llm-search").tool, "llm-search");
 * ```
 */
export function runHead(tool: string, executionId: string = newId()): RunHead {
  return {
    schema_version: SCHEMA_VERSION,
    execution_id: executionId,
    tool,
    timestamp: new Date().toISOString(),
  };
}

/** Options of {@linkcode queryEnvelope}. */
export interface QueryEnvelopeOptions {
  /** Results were cut by a limit or timeout. */
  partial?: boolean;
  /** Reuse this execution id (the MCP server assigns it before the run). */
  executionId?: string;
}

/**
 * Builds a query envelope. The status is `error` when a diagnostic is an error, `partial` when
 * `partial` is set, else `ok`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryEnvelope } from "@llm/search/schema";
 * assert.equal(queryEnvelope("llm-discover", { count: 0 }, []).status, "ok");
 * ```
 */
export function queryEnvelope<D extends QueryData>(
  tool: string,
  data: D,
  diagnostics: Diagnostic[],
  options: QueryEnvelopeOptions = {},
): QueryEnvelope<D> {
  const failed = diagnostics.some((d) => d.level === "error");
  const envelope: QueryEnvelope<D> = {
    ...runHead(tool, options.executionId),
    status: failed ? "error" : options.partial ? "partial" : "ok",
    data,
    diagnostics,
  };
  if (options.partial) envelope.partial = true;
  return envelope;
}

/** Fields of a mutation envelope a tool chooses. */
export interface MutationParts<R> {
  /** What kind of mutation. */
  operation_type: string;
  /** Outcome. */
  status: MutationStatus;
  /** One-line summary. */
  message: string;
  /** Root the paths are relative to. */
  workspace?: string;
  /** Tool-specific result. */
  result?: R;
  /** The error that stopped the run: a gate's refusal (contract §7), or another error. */
  error?: MutationError;
  /** Warnings and notes. */
  diagnostics?: Diagnostic[];
  /** Reuse this execution id. */
  executionId?: string;
}

/**
 * Builds a mutation envelope.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mutationEnvelope } from "@llm/search/schema";
 * const envelope = mutationEnvelope("llm-transform", {
 *   operation_type: "edit", status: "ok", message: "1 edit",
 * });
 * assert.deepEqual(envelope.diagnostics, []);
 * ```
 */
export function mutationEnvelope<R>(tool: string, parts: MutationParts<R>): MutationEnvelope<R> {
  const { executionId, diagnostics = [], ...rest } = parts;
  const envelope: MutationEnvelope<R> = { ...runHead(tool, executionId), ...rest, diagnostics };
  return envelope;
}

/** Either envelope. */
export type Envelope = QueryEnvelope | MutationEnvelope;
