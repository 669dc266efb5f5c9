import assert from "node:assert/strict";
import { z } from "zod";
import { EditPlanSchema } from "./edit_plan.ts";
import { field, fieldMeta, pathValues, unwrapField } from "./fields.ts";

Deno.test("fieldMeta reads through wrappers and derived schemas, the outer entry winning", () => {
  const inner = field(z.string(), { path: true, aliases: ["path"] });
  assert.deepEqual(fieldMeta(inner.optional()), { path: true, aliases: ["path"] });
  assert.deepEqual(fieldMeta(inner.describe("File").min(1)), { path: true, aliases: ["path"] });
  const outer = field(inner.optional(), { short: "p", aliases: ["file"] });
  assert.deepEqual(fieldMeta(outer.default("x")), { path: true, short: "p", aliases: ["file"] });
  assert.deepEqual(fieldMeta(z.string()), {});
});

Deno.test("a clone carries its own entry without changing the shared schema's", () => {
  const shared = field(z.boolean().default(false), { aliases: ["all"] });
  const local = field(shared.clone(), { short: "H" });
  assert.deepEqual(fieldMeta(local), { aliases: ["all"], short: "H" });
  assert.deepEqual(fieldMeta(shared), { aliases: ["all"] });
});

Deno.test("unwrapField reaches the base type", () => {
  assert.ok(unwrapField(z.array(z.string()).default([]).optional()) instanceof z.ZodArray);
  assert.ok(unwrapField(z.string().transform(Number)) instanceof z.ZodString);
});

Deno.test("pathValues finds path fields at any depth: lists, objects, unions", () => {
  const input = z.object({
    paths: field(z.array(z.string()).default([]), { path: true }),
    query: z.string(),
    edits: z.union([
      z.array(z.object({ file_path: field(z.string(), { path: true }), text: z.string() })),
      z.string(),
    ]).optional(),
  });
  assert.deepEqual(
    pathValues(input, {
      paths: ["src", "lib"],
      query: "/etc",
      edits: [{ file_path: "a.ts", text: "/tmp" }, { file_path: "src", text: "" }],
    }),
    ["src", "lib", "a.ts"],
  );
  assert.deepEqual(pathValues(input, { query: "x", edits: "[]" }), []);
});

Deno.test("an edit plan's file_path is a path field", () => {
  assert.deepEqual(
    pathValues(EditPlanSchema, { edits: [{ file_path: "../x", byte_start: 0 }] }),
    ["../x"],
  );
});
