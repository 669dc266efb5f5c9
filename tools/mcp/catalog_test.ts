import assert from "node:assert/strict";
import { TOOLS } from "../registry.ts";
import { catalogEntry } from "./catalog.ts";

/** Every (key, value, parent) of a JSON value, depth first. */
function* entries(value: unknown): Generator<[string, unknown, Record<string, unknown>]> {
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    yield [key, child, value as Record<string, unknown>];
    yield* entries(child);
  }
}

Deno.test("outputSchemas leave out zod's safe-integer bounds and the patterns beside a format", () => {
  for (const tool of TOOLS) {
    const { outputSchema } = catalogEntry(tool).descriptor;
    for (const [key, value, parent] of entries(outputSchema)) {
      const bound = (key === "maximum" || key === "minimum") && typeof parent.type === "string";
      assert.ok(
        !(bound && Math.abs(value as number) === Number.MAX_SAFE_INTEGER),
        `${tool.mcpName}: ${key} ${value}`,
      );
      assert.ok(
        !(key === "pattern" && typeof parent.format === "string"),
        `${tool.mcpName}: a pattern beside format ${parent.format}`,
      );
    }
  }
});
