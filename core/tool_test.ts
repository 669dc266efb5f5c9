import assert from "node:assert/strict";
import { z } from "zod";
import { queryEnvelope, queryEnvelopeSchema } from "../schema/envelope.ts";
import { defineTool, type InputSchema, type ToolDefinition, zodSchemas } from "./tool.ts";

const OUTPUT = queryEnvelopeSchema(z.object({ count: z.number(), text: z.string() }));

function definition(input: InputSchema<{ text: string }>): ToolDefinition<{ text: string }> {
  return {
    name: "llm-echo",
    mcpName: "echo",
    title: "Echo",
    description: "Echoes.",
    prefix: "LMS",
    kind: "query",
    permissions: [],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    input,
    output: OUTPUT,
    cli: { usage: "TEXT", examples: [] },
    run: (parsed) =>
      Promise.resolve({ envelope: queryEnvelope("llm-echo", { count: 1, text: parsed.text }, []) }),
  };
}

Deno.test("a defined tool's schemas are zod's, reached through zodSchemas", () => {
  const input = z.object({ text: z.string() });
  const tool = defineTool(definition(input));
  assert.equal(zodSchemas(tool).input, input);
  assert.equal(zodSchemas(tool).output, OUTPUT);
  assert.deepEqual(Object.keys(tool.input.shape), ["text"]);
});

Deno.test("defineTool refuses an input schema that only looks like one", () => {
  const lookalike: InputSchema<{ text: string }> = {
    "~standard": { version: 1, vendor: "hand-made" },
    shape: {},
    safeParse: (value) => ({ success: true, data: value as { text: string } }),
  };
  assert.throws(() => defineTool(definition(lookalike)), {
    name: "TypeError",
    message: "llm-echo: the input schema is not a zod object schema",
  });
});
