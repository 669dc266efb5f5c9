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
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { queryEnvelope, queryEnvelopeSchema } from "@llm/search/schema";
 * const schema = queryEnvelopeSchema(z.object({ count: z.number(), names: z.array(z.string()) }));
 * const envelope = queryEnvelope("llm-demo", { count: 1, names: ["a"] }, []);
 * assert.ok(schema.safeParse(envelope).success);
 * assert.ok(!schema.safeParse({ ...envelope, status: "done" }).success);
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
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { mutationEnvelope, mutationEnvelopeSchema } from "@llm/search/schema";
 * const schema = mutationEnvelopeSchema(z.object({ applied_count: z.number() }));
 * const envelope = mutationEnvelope("llm-demo", {
 *   operation_type: "edit", status: "ok", message: "1 edit", result: { applied_count: 1 },
 * });
 * assert.ok(schema.safeParse(envelope).success);
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
