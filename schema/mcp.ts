/**
 * Schemas of the MCP server (`llm-mcp`): the execution-log record every tool call leaves, and
 * the data of the `get_execution` tool that returns one.
 *
 * @module
 */
import { z } from "zod";
import {
  type EmptyData,
  type Envelope,
  mutationEnvelopeSchema,
  type MutationStatus,
  type QueryData,
  type QueryEnvelope,
  queryEnvelopeSchema,
} from "./envelope.ts";

/** How a logged call ended: its envelope's status, or `cancelled` by the client. */
export type ExecutionStatus = MutationStatus | "cancelled";

/** One call of an MCP tool as the execution log keeps it. */
export interface ExecutionRecord {
  /** UUID v4 of the call; the same id as in its envelope. */
  execution_id: string;
  /** MCP tool name as the client called it, e.g. `search`. */
  tool: string;
  /** The arguments the client sent, as sent. */
  arguments: Record<string, unknown>;
  /** ISO 8601 UTC time the call started. */
  timestamp: string;
  /** Wall time of the call in milliseconds. */
  duration_ms: number;
  /**
   * Status of the envelope (`error` also for calls refused before running, or stopped at the
   * server's time limit), or `cancelled` for a call the client cancelled (its envelope holds an
   * `MCP-QRY-010` error).
   */
  status: ExecutionStatus;
  /** The full envelope the run produced (a page of it when returned by `get_execution`). */
  envelope: Envelope;
}

const LoggedEnvelopeSchema: z.ZodType<Envelope> = z.union([
  queryEnvelopeSchema(z.looseObject({ count: z.number() }) as z.ZodType<QueryData>),
  mutationEnvelopeSchema(z.unknown()),
]);

/** zod schema of {@linkcode ExecutionRecord}. */
export const ExecutionRecordSchema: z.ZodType<ExecutionRecord> = z.object({
  execution_id: z.uuid(),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  timestamp: z.iso.datetime(),
  duration_ms: z.number().nonnegative(),
  status: z.enum(["ok", "error", "partial", "approved", "rejected", "cancelled"]),
  envelope: LoggedEnvelopeSchema,
}).meta({ id: "ExecutionRecord", title: "ExecutionRecord" });

/** Data of the `get_execution` tool: the one record asked for. */
export interface GetExecutionData {
  /** Always 1. */
  count: number;
  /** The record, its envelope paged to the output budget. */
  execution: ExecutionRecord;
}

/** zod schema of {@linkcode GetExecutionData}. */
export const GetExecutionDataSchema: z.ZodType<GetExecutionData> = z.object({
  count: z.number().int().nonnegative(),
  execution: ExecutionRecordSchema,
});

/** Envelope schema of `get_execution` (and `llm-mcp log show`). */
export const GetExecutionEnvelopeSchema: z.ZodType<QueryEnvelope<GetExecutionData | EmptyData>> =
  queryEnvelopeSchema(GetExecutionDataSchema);
