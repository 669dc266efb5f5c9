/**
 * The two output envelopes of contract §3: their zod schemas here, their types and builders in
 * `envelope_build.ts` (re-exported).
 *
 * @module
 */
import { z } from "zod";
import { DiagnosticSchema, MutationErrorSchema } from "./diagnostic_schema.ts";
import type { EmptyData, MutationEnvelope, QueryData, QueryEnvelope } from "./envelope_build.ts";

export * from "./envelope_build.ts";

/** zod schema of {@linkcode EmptyData}. */
export const EmptyDataSchema: z.ZodType<EmptyData> = z.strictObject({ count: z.literal(0) });

const envelopeHead = {
  schema_version: z.string(),
  execution_id: z.uuid(),
  tool: z.string(),
  timestamp: z.iso.datetime(),
  diagnostics: z.array(DiagnosticSchema),
};

/**
 * The query envelope schema for a tool's data schema. The data of a failed run may instead be
 * `{ count: 0 }`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { queryEnvelopeSchema } from "@llm/search/schema";
 * const schema = queryEnvelopeSchema(z.object({ count: z.number(), names: z.array(z.string()) }));
 * ```
 */
export function queryEnvelopeSchema<D extends QueryData>(
  data: z.ZodType<D>,
): z.ZodType<QueryEnvelope<D | EmptyData>> {
  return z.object({
    ...envelopeHead,
    status: z.enum(["ok", "error", "partial"]),
    data: z.union([data, EmptyDataSchema]),
    partial: z.literal(true).optional(),
  });
}

/**
 * The mutation envelope schema for a tool's result schema.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { mutationEnvelopeSchema } from "@llm/search/schema";
 * const schema = mutationEnvelopeSchema(z.object({ applied_count: z.number() }));
 * ```
 */
export function mutationEnvelopeSchema<R>(
  result: z.ZodType<R>,
): z.ZodType<MutationEnvelope<R>> {
  return z.object({
    ...envelopeHead,
    operation_type: z.string(),
    status: z.enum(["ok", "error", "partial", "approved", "rejected"]),
    message: z.string(),
    workspace: z.string().optional(),
    result: result.optional(),
    error: MutationErrorSchema.optional(),
  });
}
