/**
 * `llm-transform --validate` as a real subprocess with `--allow-read=<root> --allow-write=<root>`:
 * by default the syntax gate refuses an edit that breaks a file's parse (the whole plan, with
 * the gate's line and column, nothing written), lets through an edit of a file that did not
 * parse before either (with a warning), and `none` turns it off; `all` adds the compiler gate.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { MutationEnvelope, TransformOutput, TransformResult } from "../schema/mod.ts";
import { sha256 } from "../schema/mod.ts";
import { transformTool } from "../tools/transform/tool.ts";
import { assertValidEnvelope, hasCommand, makeTree, parseJson, runEntry } from "./helpers.ts";
import { snapshot } from "./transform_helpers.ts";

const ENTRY = "tools/transform/main.ts";

interface Run {
  code: number;
  envelope: MutationEnvelope<TransformOutput>;
}

async function run(root: string, args: string[], extra: string[] = []): Promise<Run> {
  const result = await runEntry(ENTRY, args, {
    cwd: root,
    permissions: [`--allow-read=${root}`, `--allow-write=${root}`, ...extra],
  });
  const envelope = parseJson(result);
  assertValidEnvelope(transformTool, envelope);
  return { code: result.code, envelope: envelope as unknown as MutationEnvelope<TransformOutput> };
}

const MAIN_C = "int main(void) {\n  return 0;\n}\n";
const UTIL_PY = "def f():\n    return 1\n";

Deno.test("transform validate: an edit that breaks a file's syntax refuses the whole plan, nothing written", async () => {
  const root = await makeTree({ "main.c": MAIN_C, "util.py": UTIL_PY });
  try {
    const before = await snapshot(root);
    const plan = {
      edits: [
        // Valid on its own: util.py stays Python.
        { file_path: "util.py", byte_start: 20, byte_end: 21, new_text: "2" },
        // Drops the `;` after `return 0`: main.c no longer parses.
        { file_path: "main.c", byte_start: 27, byte_end: 28, new_text: "" },
      ],
    };
    assert.equal(MAIN_C.slice(27, 28), ";");
    assert.equal(UTIL_PY.slice(20, 21), "1");
    const refused = await run(root, [
      "--edits",
      JSON.stringify(plan.edits),
      "--validate",
      "syntax",
    ]);
    assert.equal(refused.code, 3, JSON.stringify(refused.envelope));
    assert.equal(refused.envelope.status, "error");
    assert.equal(refused.envelope.error?.code, "LMT-V-013");
    const syntax = refused.envelope.diagnostics.find((d) => d.code === "LMT-AST-101");
    assert.ok(syntax, JSON.stringify(refused.envelope.diagnostics));
    assert.deepEqual([syntax.file, syntax.line, syntax.column], ["main.c", 2, 10]);
    const result = refused.envelope.result as TransformResult;
    assert.deepEqual(
      result.files.map((file) => [file.file_path, file.status]),
      [["main.c", "error"], ["util.py", "skipped"]],
    );
    assert.deepEqual(await snapshot(root), before, "nothing was written");

    const dry = await run(root, [
      "--edits",
      JSON.stringify(plan.edits),
      "--dry-run",
      "--validate",
      "syntax",
    ]);
    assert.equal(dry.code, 3, "a dry run is refused the same way");

    // No gate is the default (a gate costs a grammar load on every command line).
    const unchecked = await run(root, ["--edits", JSON.stringify(plan.edits)]);
    assert.equal(unchecked.code, 0, JSON.stringify(unchecked.envelope));
    assert.equal(await Deno.readTextFile(join(root, "main.c")), MAIN_C.replace("0;", "0"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("transform validate: a replacement that breaks syntax is refused; a file broken before is not", async () => {
  const broken = "def f(:\n    return 1\n";
  const root = await makeTree({ "a.ts": "export const x = [1, 2];\n", "b.py": broken });
  try {
    const syntax = ["--validate", "syntax"];
    const refused = await run(root, ["--file", "a.ts", "--old", "2]", "--new", "2", ...syntax]);
    assert.equal(refused.code, 3, JSON.stringify(refused.envelope));
    assert.equal(refused.envelope.error?.code, "LMT-V-013");
    assert.equal(await Deno.readTextFile(join(root, "a.ts")), "export const x = [1, 2];\n");

    const mended = await run(root, [
      "--file",
      "b.py",
      "--old",
      "return 1",
      "--new",
      "return 2",
      ...syntax,
    ]);
    assert.equal(mended.code, 0, JSON.stringify(mended.envelope));
    const warning = mended.envelope.diagnostics.find((d) => d.code === "LMT-V-014");
    assert.equal(warning?.level, "warning");
    assert.equal(sha256(await Deno.readFile(join(root, "b.py"))), sha256(broken.replace("1", "2")));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name:
    "transform validate: all adds the gcc gate, which refuses what parses but does not compile (needs gcc)",
  ignore: !hasCommand("gcc"),
  fn: async () => {
    const root = await makeTree({ "main.c": MAIN_C });
    try {
      const args = ["--file", "main.c", "--old", "return 0;", "--new", "return missing;"];
      const parsed = await run(root, [...args, "--dry-run"], ["--allow-run=gcc"]);
      assert.equal(parsed.code, 1, "the syntax gate alone lets it through");
      const compiled = await run(root, [...args, "--validate", "all"], ["--allow-run=gcc"]);
      assert.equal(compiled.code, 3, JSON.stringify(compiled.envelope));
      const gcc = compiled.envelope.diagnostics.find((d) => d.code === "LMT-V-101");
      assert.ok(gcc, JSON.stringify(compiled.envelope.diagnostics));
      assert.equal(gcc.line, 2);
      assert.equal(await Deno.readTextFile(join(root, "main.c")), MAIN_C);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
