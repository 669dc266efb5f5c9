/**
 * Schemas of the execution log that every run leaves (command-line runs of every tool and the
 * MCP server's calls share one store, `<root>/.llm/log/`): the record, the data of the MCP
 * `get_execution` tool and of `llm-log show` that return one, and of `llm-log list`.
 *
 * @module
 */
import { z } from "zod";
import { CompactAstSearchEnvelopeSchema } from "./ast_search.ts";
import type { CompactAnswer } from "./compact.ts";
import { AnyCompactMutationEnvelopeSchema, compactEnvelopeSchema } from "./compact_schema.ts";
import { CompactDiscoverEnvelopeSchema } from "./discover.ts";
import {
  type EmptyData,
  type Envelope,
  mutationEnvelopeSchema,
  type MutationStatus,
  type QueryData,
  type QueryEnvelope,
  queryEnvelopeSchema,
} from "./envelope.ts";
import { CompactSearchEnvelopeSchema } from "./search.ts";

/** How a logged call ended: its envelope's status, or `cancelled` by the client. */
export type ExecutionStatus = MutationStatus | "cancelled";

/** Where a logged run came from: a command line or a call to the MCP server. */
export type ExecutionOrigin = "cli" | "mcp";

/** One run of a tool (a command line or an MCP call) as the execution log keeps it. */
export interface ExecutionRecord {
  /** UUID v4 of the call; the same id as in its envelope. */
  execution_id: string;
  /**
   * MCP name of the tool, e.g. `search`, for command-line runs too (`llm-search` is logged as
   * `search`); for an MCP call of an unknown tool, the name the client sent.
   */
  tool: string;
  /** `cli` or `mcp`; records written before origins were kept have none (they are `mcp`). */
  origin?: ExecutionOrigin;
  /**
   * The arguments: as the client sent them (MCP), or the input the flags gave (command line,
   * empty when the flags could not be read).
   */
  arguments: Record<string, unknown>;
  /** The command-line arguments as typed (command-line runs only). */
  argv?: string[];
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
  /** The full envelope the run produced. */
  envelope: Envelope;
}

/** A record as `get_execution` returns it: its envelope one page, compact unless asked in full. */
export interface ExecutionPage extends Omit<ExecutionRecord, "envelope"> {
  /** A page of the envelope, in the form the call asked for. */
  envelope: Envelope | CompactAnswer;
}

const LoggedEnvelopeSchema: z.ZodType<Envelope> = z.union([
  queryEnvelopeSchema(z.looseObject({ count: z.number() }) as z.ZodType<QueryData>),
  mutationEnvelopeSchema(z.unknown()),
]);

/**
 * A page of any logged answer: in full, or compact (a query tool's compact data checked; a
 * mutation's result unchecked, see `AnyCompactMutationEnvelopeSchema`).
 */
const PageEnvelopeSchema: z.ZodType<Envelope | CompactAnswer> = z.union([
  LoggedEnvelopeSchema,
  // The generic compact form of a query tool without its own (its data as it is).
  compactEnvelopeSchema(z.looseObject({ count: z.number() })),
  CompactSearchEnvelopeSchema,
  CompactAstSearchEnvelopeSchema,
  CompactDiscoverEnvelopeSchema,
  AnyCompactMutationEnvelopeSchema,
]);

const recordShape = {
  execution_id: z.uuid(),
  tool: z.string(),
  origin: z.enum(["cli", "mcp"]).optional(),
  arguments: z.record(z.string(), z.unknown()),
  argv: z.array(z.string()).optional(),
  timestamp: z.iso.datetime(),
  duration_ms: z.number().nonnegative(),
  status: z.enum(["ok", "error", "partial", "approved", "rejected", "cancelled"]),
};

/** zod schema of {@linkcode ExecutionRecord}. */
export const ExecutionRecordSchema: z.ZodType<ExecutionRecord> = z.object({
  ...recordShape,
  envelope: LoggedEnvelopeSchema,
}).meta({ id: "ExecutionRecord", title: "ExecutionRecord" });

/** zod schema of {@linkcode ExecutionPage}. */
export const ExecutionPageSchema: z.ZodType<ExecutionPage> = z.object({
  ...recordShape,
  envelope: PageEnvelopeSchema,
});

/** Data of the `get_execution` tool: the one record asked for. */
export interface GetExecutionData {
  /** Always 1. */
  count: number;
  /** The record, its envelope paged to the output budget. */
  execution: ExecutionPage;
}

/** zod schema of {@linkcode GetExecutionData}. */
export const GetExecutionDataSchema: z.ZodType<GetExecutionData> = z.object({
  count: z.number().int().nonnegative(),
  execution: ExecutionPageSchema,
});

/** Envelope schema of `get_execution` (and `llm-log show`). */
export const GetExecutionEnvelopeSchema: z.ZodType<QueryEnvelope<GetExecutionData | EmptyData>> =
  queryEnvelopeSchema(GetExecutionDataSchema);

/** One line of `llm-log list`: a record without its envelope, plus the error code if any. */
export interface ExecutionSummary {
  /** UUID v4 of the run. */
  execution_id: string;
  /** MCP name of the tool. */
  tool: string;
  /** `cli` or `mcp` (absent in records written before origins were kept). */
  origin?: ExecutionOrigin;
  /** ISO 8601 UTC time the run started. */
  timestamp: string;
  /** Wall time in milliseconds. */
  duration_ms: number;
  /** How the run ended. */
  status: ExecutionStatus;
  /** Code of the error that stopped the run, when it failed. */
  error_code?: string;
  /** The arguments of the run. */
  arguments: Record<string, unknown>;
}

/** zod schema of {@linkcode ExecutionSummary}. */
export const ExecutionSummarySchema: z.ZodType<ExecutionSummary> = z.object({
  execution_id: z.uuid(),
  tool: z.string(),
  origin: z.enum(["cli", "mcp"]).optional(),
  timestamp: z.iso.datetime(),
  duration_ms: z.number().nonnegative(),
  status: z.enum(["ok", "error", "partial", "approved", "rejected", "cancelled"]),
  error_code: z.string().optional(),
  arguments: z.record(z.string(), z.unknown()),
});

/** Data of `llm-log list`: the runs that pass the filters, newest first. */
export interface ExecutionListData {
  /** Runs listed here. */
  count: number;
  /** Runs in the log that pass the filters (more than `count` when the limit cut the list). */
  total: number;
  /** The runs, newest first. */
  executions: ExecutionSummary[];
}

/** zod schema of {@linkcode ExecutionListData}. */
export const ExecutionListDataSchema: z.ZodType<ExecutionListData> = z.object({
  count: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  executions: z.array(ExecutionSummarySchema),
});

/** Envelope schema of `llm-log` (`list` or `show`). */
export const LogEnvelopeSchema: z.ZodType<
  QueryEnvelope<ExecutionListData | GetExecutionData | EmptyData>
> = queryEnvelopeSchema(z.union([ExecutionListDataSchema, GetExecutionDataSchema]));
