import assert from "node:assert/strict";
import { EditPlanSchema, parseEditPlan } from "./edit_plan.ts";

Deno.test("edit plans parse with legacy names and report violations by JSON path", () => {
  const parsed = parseEditPlan({
    edits: [{
      file: "a.txt",
      byte_start: 0,
      byte_end: 1,
      new_content: "b",
      expected_checksum: "A".repeat(64),
    }],
  });
  assert.ok(parsed.success);
  assert.equal(parsed.data.edits[0].file_path, "a.txt");
  assert.equal(parsed.data.edits[0].new_text, "b");
  const bad = parseEditPlan({ edits: [{ file_path: "a", byte_start: -1, byte_end: 2 }] });
  assert.ok(!bad.success);
  const paths = bad.error.issues.map((issue) => issue.path.join("."));
  assert.ok(paths.includes("edits.0.byte_start"));
  assert.ok(paths.includes("edits.0.new_text"));
  assert.ok(!EditPlanSchema.safeParse({ edits: [] }).success);
});
