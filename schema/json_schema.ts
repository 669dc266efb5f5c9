/**
 * JSON Schema documents of every public schema, derived from the zod schemas, so a client in
 * any language can validate what the tools print and what they accept.
 *
 * @module
 */
import { z } from "zod";
import { CompactAstSearchEnvelopeSchema } from "./ast_search.ts";
import { DiagnosticSchema } from "./diagnostic_schema.ts";
import { CompactDiscoverEnvelopeSchema } from "./discover.ts";
import { EditPlanSchema } from "./edit_plan.ts";
import { JournalManifestSchema } from "./journal.ts";
import { ExecutionRecordSchema, GetExecutionEnvelopeSchema, LogEnvelopeSchema } from "./mcp.ts";
import { CompactSearchEnvelopeSchema } from "./search.ts";
import { SpanSchema } from "./span.ts";
import { CompactTransformEnvelopeSchema } from "./transform.ts";

/** A JSON Schema document. */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a zod schema: draft 2020-12, with the input shape (`io: "input"`) for
 * inputs, so defaulted fields are optional there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { toJsonSchema } from "@llm/search/schema";
 * assert.equal(toJsonSchema(z.object({ a: z.string() }), "output").type, "object");
 * ```
 */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as JsonSchema;
}

/** The shared schemas that are not tied to one tool, by file stem. */
export const SHARED_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  span: SpanSchema,
  diagnostic: DiagnosticSchema,
  "edit-plan": EditPlanSchema,
  "journal-manifest": JournalManifestSchema,
  "mcp-execution-record": ExecutionRecordSchema,
  "mcp-get-execution.output": GetExecutionEnvelopeSchema,
  "llm-log.output": LogEnvelopeSchema,
  "llm-search.compact.output": CompactSearchEnvelopeSchema,
  "llm-ast-search.compact.output": CompactAstSearchEnvelopeSchema,
  "llm-discover.compact.output": CompactDiscoverEnvelopeSchema,
  "llm-transform.compact.output": CompactTransformEnvelopeSchema,
};
