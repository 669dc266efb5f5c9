/**
 * `llm-transform`'s fast path (flags checked by its flag table, no zod loaded) against its full
 * path (`runCli` with the zod input schema), as a user runs them, with the scoped permissions of
 * the README: the same output, exit code and written bytes for ordinary and refused command
 * lines; the module graph loaded before the fast path answers holds no zod; and the request
 * fields spelled out in `request.ts` are the input schema's.
 */
import assert from "node:assert/strict";
import { fastLine, FLAG_TABLES } from "../core/cli_fast.ts";
import { TransformInput } from "../tools/transform/input.ts";
import { REQUEST_FIELDS } from "../tools/transform/request.ts";
import { makeTree, runEntry, staticGraph } from "./helpers.ts";
import { snapshot } from "./transform_helpers.ts";

const FILES: Record<string, string> = {
  "a.txt": "alpha beta alpha\n",
  "src/main.c": "int main(void) {\n  return 0;\n}\n",
  "plan.json": JSON.stringify({
    edits: [{ file_path: "a.txt", byte_start: 0, byte_end: 5, new_text: "ALPHA" }],
  }),
};

/** Command lines, ordinary and refused; each runs on a fresh copy of `FILES`. */
const CASES: string[][] = [
  ["--file", "a.txt", "--old", "beta", "--new", "BETA"],
  ["--file", "a.txt", "--old", "alpha", "--new", "A"],
  ["--file", "a.txt", "--old", "alpha", "--new", "A", "--all", "--format", "text"],
  ["--file", "a.txt", "--old", "nothing", "--new", "x"],
  ["--path", "a.txt", "--old-string", "beta", "--new-string", "", "--dry-run"],
  ["--file", "a.txt", "--span", "6:10", "--with", "BETA"],
  ["--file", "a.txt", "--span", "6:10", "--with", "B", "--expect", "sha256:00"],
  ["--file", "src/main.c", "--old", "return 0;", "--new", "return 0", "--validate", "syntax"],
  [
    "--file",
    "src/main.c",
    "--old",
    "0;",
    "--new",
    "1;",
    "--validate",
    "syntax",
    "--format",
    "jsonl",
  ],
  ["--plan", "plan.json"],
  ["--plan", "missing.json"],
  ["--recover"],
  ["--recover", "--file", "a.txt"],
  ["--undo", "0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11"],
  ["--file", "a.txt", "--old", "alpha", "--new", "A", "--count", "2"],
  ["--edits", '[{"file_path":"a.txt","byte_start":0,"byte_end":1,"new_text":"x"}]'],
  ["--file", "a.txt", "--old", "beta", "--new", "B", "--validate", "everything"],
  ["--file", "../outside.txt", "--old", "a", "--new", "b"],
  ["--file", "a.txt", "--old"],
  ["--unknown"],
  ["--help"],
  ["--explain", "LMT-V-007"],
];

/** The output with what differs between any two runs (ids, times, the temporary root) named. */
function normalized(text: string, root: string): string {
  return text
    .replaceAll(root, "<root>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .replace(/"(timestamp|created_at|updated_at)":"[^"]*"/g, '"$1":""');
}

/** Runs `entry` with `args` in a fresh tree, with the README's scoped permissions. */
async function runIn(entry: string, args: string[]) {
  const root = await makeTree(FILES);
  try {
    const permissions = [`--allow-read=${root}`, `--allow-write=${root}`];
    const run = await runEntry(entry, ["--root", root, ...args], { cwd: root, permissions });
    const files = await snapshot(root);
    return {
      stdout: normalized(run.stdout, root),
      stderr: normalized(run.stderr, root),
      code: run.code,
      files,
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("llm-transform answers and writes the same by the fast path and by the full path", async () => {
  const table = FLAG_TABLES["llm-transform"];
  assert.ok(table, "llm-transform has no flag table");
  let fastAnswered = 0;
  for (const args of CASES) {
    const answered = fastLine(table, undefined, ["--root", "/r", ...args]) !== undefined;
    if (answered) fastAnswered++;
    const label = `${JSON.stringify(args)} (${answered ? "fast" : "full"} path)`;
    const fast = await runIn("tools/transform/main.ts", args);
    const full = await runIn("tests/fixtures/transform_full_cli.ts", args);
    assert.equal(fast.stdout, full.stdout, label);
    assert.equal(fast.stderr, full.stderr, label);
    assert.equal(fast.code, full.code, label);
    assert.deepEqual(fast.files, full.files, label);
  }
  assert.ok(fastAnswered >= 10, `only ${fastAnswered} command lines took the fast path`);
});

Deno.test("llm-transform loads no zod and no parser before its fast path answers", async () => {
  const graph = await staticGraph("tools/transform/main.ts");
  assert.ok(graph.some((specifier) => specifier.endsWith("/core/cli_fast.ts")));
  const heavy = graph.filter((specifier) => /npm:\/?(zod|web-tree-sitter)@/.test(specifier));
  assert.deepEqual(heavy, [], "the fast path's static imports reach zod or the parser");
  const full = await staticGraph("tests/fixtures/transform_full_cli.ts");
  assert.ok(full.some((specifier) => specifier.startsWith("npm:") && specifier.includes("zod@")));
});

Deno.test("the request fields of request.ts are the input schema's, less the run options", () => {
  const runOptions = new Set(["root", "dry_run", "validate"]);
  const fields = Object.keys(TransformInput.shape).filter((field) => !runOptions.has(field));
  assert.deepEqual([...REQUEST_FIELDS], fields);
});
