/**
 * The fast paths of `llm-search`, `llm-discover` and `llm-transform` (flags checked by their
 * flag tables, no zod loaded) against their full paths (`runCli` with the zod input schemas), as
 * a user runs them, with the scoped permissions of the README: the same output, exit code and
 * written bytes for ordinary and refused command lines; the module graph each entrypoint loads
 * before its fast path answers holds no zod; and the request fields spelled out in the
 * transform's `request.ts` are its input schema's.
 */
import assert from "node:assert/strict";
import { fastLine, FLAG_TABLES } from "../core/cli_fast.ts";
import { discoverPositionals } from "../tools/discover/run.ts";
import { searchPositionals } from "../tools/search/run.ts";
import { TransformInput } from "../tools/transform/input.ts";
import { REQUEST_FIELDS } from "../tools/transform/request.ts";
import type { PositionalMapper } from "../core/tool.ts";
import { makeTree, runEntry, staticGraph } from "./helpers.ts";
import { snapshot } from "./transform_helpers.ts";

const FILES: Record<string, string> = {
  "a.txt": "alpha beta alpha\n",
  "src/main.c": "int main(void) {\n  return 0;\n}\n",
  "src/util.py": "def alpha():\n    return 'beta'\n",
  ".hidden/alpha.txt": "alpha\n",
  ".gitignore": "ignored/\n",
  "ignored/alpha.txt": "alpha\n",
  "plan.json": JSON.stringify({
    edits: [{ file_path: "a.txt", byte_start: 0, byte_end: 5, new_text: "ALPHA" }],
  }),
};

interface Entry {
  /** The tool's name (its flag table's and the registry's). */
  tool: string;
  /** Its entrypoint. */
  entry: string;
  /** Its positional mapping. */
  positionals?: PositionalMapper;
  /** It writes: run with write permission and `--root`. */
  writes?: boolean;
  /** Command lines, ordinary and refused; each runs on a fresh copy of `FILES`. */
  cases: string[][];
}

const ENTRIES: Entry[] = [
  {
    tool: "llm-search",
    entry: "tools/search/main.ts",
    positionals: searchPositionals,
    cases: [
      ["alpha"],
      ["alpha", "--format", "text"],
      ["-e", "alpha", "-e", "beta", "src", "a.txt"],
      ["-F", "-w", "-i", "ALPHA", "--hidden", "--no-ignore", "--format", "jsonl"],
      ["alpha", "-c"],
      ["alpha", "-l", "--limit", "1"],
      ["-U", "main\\(void\\) \\{\\n", "--with-checksums"],
      ["beta", "-C", "1", "--glob", "*.py"],
      ["nothing-here"],
      ["("],
      ["alpha", "--max-filesize", "1K"],
      ["alpha", "--limit", "-1"],
      ["alpha", "--unknown"],
      ["--help"],
    ],
  },
  {
    tool: "llm-discover",
    entry: "tools/discover/main.ts",
    positionals: discoverPositionals,
    cases: [
      ["alpha"],
      ["main", "src", "--format", "text"],
      ["", "--limit", "0"],
      ["^src .py$"],
      ["--kind", "dir", "src"],
      ["alpha", "--hidden", "--no-ignore", "-e", "txt"],
      ["alpha", "--max-filesize", "1K"],
      ["alpha", "--case", "loud"],
      ["--help"],
    ],
  },
  {
    tool: "llm-transform",
    entry: "tools/transform/main.ts",
    writes: true,
    cases: [
      ["--file", "a.txt", "--old", "beta", "--new", "BETA"],
      ["--file", "a.txt", "--old", "alpha", "--new", "A"],
      ["--file", "a.txt", "--old", "alpha", "--new", "A", "--all", "--format", "text"],
      ["--file", "a.txt", "--old", "nothing", "--new", "x"],
      ["--path", "a.txt", "--old-string", "beta", "--new-string", "", "--dry-run"],
      ["--file", "a.txt", "--span", "6:10", "--with", "BETA"],
      ["--file", "a.txt", "--span", "6:10", "--with", "B", "--expect", "sha256:00"],
      ["--file", "src/main.c", "--old", "return 0;", "--new", "return 0", "--validate", "syntax"],
      ["--file", "src/main.c", "--old", "0;", "--new", "1;", "--validate", "syntax"],
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
    ],
  },
];

/** The output with what differs between any two runs (ids, times, the temporary root) named. */
function normalized(text: string, root: string): string {
  return text
    .replaceAll(root, "<root>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .replace(/"(timestamp|created_at|updated_at)":"[^"]*"/g, '"$1":""');
}

/** Runs `entry` (with `prefix` before `args`) in a fresh tree, with the README's permissions. */
async function runIn(entry: string, prefix: string[], args: string[], writes: boolean) {
  const root = await makeTree(FILES);
  try {
    const permissions = [`--allow-read=${root}`, ...(writes ? [`--allow-write=${root}`] : [])];
    const rooted = writes ? ["--root", root, ...args] : args;
    const run = await runEntry(entry, [...prefix, ...rooted], { cwd: root, permissions });
    return {
      stdout: normalized(run.stdout, root),
      stderr: normalized(run.stderr, root),
      code: run.code,
      files: await snapshot(root),
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

for (const { tool, entry, positionals, writes = false, cases } of ENTRIES) {
  Deno.test(`${tool} answers (and writes) the same by its fast path and by its full path`, async () => {
    const table = FLAG_TABLES[tool];
    assert.ok(table, `${tool} has no flag table`);
    let fastAnswered = 0;
    for (const args of cases) {
      const answered = fastLine(table, positionals, args) !== undefined;
      if (answered) fastAnswered++;
      const label = `${JSON.stringify(args)} (${answered ? "fast" : "full"} path)`;
      const fast = await runIn(entry, [], args, writes);
      const full = await runIn("tests/fixtures/full_cli.ts", [tool], args, writes);
      assert.equal(fast.stdout, full.stdout, label);
      assert.equal(fast.stderr, full.stderr, label);
      assert.equal(fast.code, full.code, label);
      assert.deepEqual(fast.files, full.files, label);
    }
    assert.ok(fastAnswered >= cases.length / 2, `only ${fastAnswered} cases took the fast path`);
  });

  Deno.test(`${tool} loads no zod and no parser before its fast path answers`, async () => {
    const graph = await staticGraph(entry);
    assert.ok(graph.some((specifier) => specifier.endsWith("/core/cli_fast.ts")));
    const heavy = graph.filter((specifier) => /npm:\/?(zod|web-tree-sitter)@/.test(specifier));
    assert.deepEqual(heavy, [], "the fast path's static imports reach zod or the parser");
  });
}

Deno.test("the full path's oracle loads zod (so the graph checks above can see it)", async () => {
  const full = await staticGraph("tests/fixtures/full_cli.ts");
  assert.ok(full.some((specifier) => specifier.startsWith("npm:") && specifier.includes("zod@")));
});

Deno.test("the request fields of the transform's request.ts are its input schema's, less the run options", () => {
  const runOptions = new Set(["root", "dry_run", "validate", "allow_build_scripts"]);
  const fields = Object.keys(TransformInput.shape).filter((field) => !runOptions.has(field));
  assert.deepEqual([...REQUEST_FIELDS], fields);
});
