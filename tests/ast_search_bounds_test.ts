/**
 * Bounded work and coded refusals of llm-ast-search (issue 11, §3 and §4): inputs too large or
 * too deep for tree-sitter are skipped or refused with a code naming the limit, a parser that
 * aborts on one file does not take the files after it down, an abort signal stops a run within
 * 200 ms, and no malformed input ends in an internal error.
 *
 * @module
 */
import assert from "node:assert/strict";
import { astSearch, type AstSearchResult } from "../tools/ast-search/engine.ts";
import { astSearchTool } from "../tools/ast-search/tool.ts";
import { fuzzTool, refusal } from "./fuzz_helpers.ts";
import { makeTree, runEntry } from "./helpers.ts";

const MIB = 1024 * 1024;

function codes(result: AstSearchResult): string[] {
  return result.diagnostics.map((diagnostic) => diagnostic.code);
}

/** Small files each defining a few functions. */
function functions(count: number, prefix = "f"): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    files[`${prefix}${i}.js`] = `function ${prefix}${i}() { return ${i}; }\n`.repeat(5);
  }
  return files;
}

Deno.test("a file over --max-parse-bytes is skipped with LMA-AST-005; raising it parses the file", async () => {
  const big = "function big() { return 1; }\n".repeat(2000);
  const dir = await makeTree({ "big.js": big, ...functions(3) });
  try {
    const cut = await astSearch({ cwd: dir, kinds: ["function"], limit: 0, maxParseBytes: 4096 });
    assert.deepEqual(codes(cut), ["LMA-AST-005"]);
    assert.equal(cut.partial, true);
    assert.equal(cut.data.files_searched, 3);
    assert.equal(cut.data.match_count, 15);
    const diagnostic = cut.diagnostics[0];
    assert.equal(diagnostic.file, "big.js");
    assert.match(diagnostic.message, /max-parse-bytes 4096/);
    assert.match(diagnostic.remediation ?? "", new RegExp(`--max-parse-bytes ${big.length}`));
    // The remedy works.
    const whole = await astSearch({
      cwd: dir,
      kinds: ["function"],
      limit: 0,
      maxParseBytes: big.length,
    });
    assert.deepEqual(codes(whole), []);
    assert.equal(whole.partial, false);
    assert.equal(whole.data.match_count, 2015);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a parse that outgrows --max-parse-memory is stopped with LMA-AST-006, not an abort", async () => {
  // One node per byte: about 300 bytes of parser heap per byte of input.
  const dir = await makeTree({ "dense.js": ";".repeat(300_000), ...functions(2) });
  try {
    const result = await astSearch({
      cwd: dir,
      kinds: ["function"],
      limit: 0,
      threads: 1,
      maxParseMemory: 16 * MIB,
    });
    assert.deepEqual(codes(result), ["LMA-AST-006"]);
    assert.equal(result.diagnostics[0].file, "dense.js");
    assert.equal(result.partial, true);
    assert.equal(result.data.match_count, 10);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a query made quadratic by a huge error node stops at --file-timeout (LMA-AST-007)", async () => {
  // 30,000 unclosed parentheses: one error node with 30,000 children, over which tree-sitter's
  // query cursor is quadratic (100,000 took 60 s before the limit).
  const dir = await makeTree({ "open.js": "x=" + "(".repeat(30_000) + "\n", ...functions(2) });
  try {
    const started = performance.now();
    const result = await astSearch({
      cwd: dir,
      query: "(identifier) @id",
      limit: 0,
      threads: 1,
      fileTimeoutMs: 300,
    });
    assert.ok(performance.now() - started < 4000, "the limit did not stop the query");
    assert.deepEqual(codes(result), ["LMA-AST-007"]);
    assert.equal(result.diagnostics[0].file, "open.js");
    assert.equal(result.partial, true);
    assert.equal(result.data.files_searched, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("100,000 nested brackets parse and are searched past (no stack overflow)", async () => {
  const depth = 100_000;
  const dir = await makeTree({
    "deep.js": "x=" + "(".repeat(depth) + "1" + ")".repeat(depth) + ";\nfunction after() {}\n",
    "deep_array.js": "x=" + "[".repeat(depth) + "]".repeat(depth) + ";\nfunction after() {}\n",
    "deep.c": "int x = " + "(".repeat(depth) + "1" + ")".repeat(depth) +
      ";\nint after(void) { return 0; }\n",
    "deep.py": "x = " + "(".repeat(depth) + "1" + ")".repeat(depth) + "\ndef after(): pass\n",
  });
  try {
    const result = await astSearch({ cwd: dir, kinds: ["function"], limit: 0, threads: 1 });
    assert.deepEqual(codes(result), []);
    assert.deepEqual(result.data.matches.map((match) => match.name), [
      "after",
      "after",
      "after",
      "after",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a query nested past the limit is refused (LMA-QRY-004) and the parser stays usable", async () => {
  const dir = await makeTree(functions(1));
  try {
    // 3,000 levels overflow tree-sitter's query compiler, which corrupted the thread's runtime.
    const deep = "(".repeat(3000) + "identifier" + ")".repeat(3000) + " @x";
    const error = await refusal(() => astSearch({ cwd: dir, query: deep, language: "js" }));
    assert.equal(error.code, "LMA-QRY-004");
    assert.equal(error.details.line, 1);
    assert.equal(error.details.column, 256);
    // Parentheses inside strings and comments do not count.
    const quoted = `((identifier) @x (#not-eq? @x "${"(".repeat(500)}"))\n; ${"[".repeat(500)}\n`;
    const ok = await astSearch({ cwd: dir, query: quoted, language: "js", threads: 1 });
    assert.equal(ok.data.match_count, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs the engine in a process of its own (its parser runtime may abort). */
async function probe(options: Record<string, unknown>, runs = 1): Promise<
  { result?: AstSearchResult; error?: { code?: string; message: string } }[]
> {
  const output = await runEntry("tests/fixtures/ast_search_probe.ts", [
    JSON.stringify(options),
    String(runs),
  ], { permissions: ["--allow-read"] });
  assert.equal(output.code, 0, output.stderr);
  assert.doesNotMatch(output.stderr, /Aborted|RuntimeError|^\s+at /m);
  return JSON.parse(output.stdout);
}

Deno.test("a parser that aborts on one file is replaced: the files after it are searched", async () => {
  // A real out-of-memory abort of the WASM runtime: the heap may not grow past 64 MiB, and the
  // memory limit that would stop the parse first is out of the way.
  const dir = await makeTree({
    "a_dense.js": ";".repeat(400_000),
    "b_dense.js": ";".repeat(400_000),
    ...functions(6),
  });
  try {
    for (const threads of [1, 3]) {
      const [answer] = await probe({
        cwd: dir,
        kinds: ["function"],
        limit: 0,
        threads,
        parallelBytes: 0,
        parserHeapCeiling: 64 * MIB,
        maxParseMemory: 1536 * MIB,
      });
      assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      const result = answer.result!;
      assert.deepEqual(codes(result), ["LMA-AST-008", "LMA-AST-008"], `threads ${threads}`);
      assert.deepEqual(result.diagnostics.map((d) => d.file), ["a_dense.js", "b_dense.js"]);
      assert.equal(result.data.files_searched, 6, `threads ${threads}`);
      assert.equal(result.data.match_count, 30, `threads ${threads}`);
      assert.equal(result.partial, true);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("after an abort, a later run in the same process is refused with LMA-AST-008", async () => {
  const dir = await makeTree({ "dense.js": ";".repeat(400_000), ...functions(1) });
  try {
    const answers = await probe({
      cwd: dir,
      kinds: ["function"],
      threads: 1,
      parserHeapCeiling: 64 * MIB,
      maxParseMemory: 1536 * MIB,
    }, 2);
    assert.deepEqual(codes(answers[0].result!), ["LMA-AST-008"]);
    assert.equal(answers[1].error?.code, "LMA-AST-008");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an abort signal stops a run within 200 ms, workers included", async () => {
  const files: Record<string, string> = {};
  const body = "int f(int a) { return a * 2 + (a >> 1); }\n".repeat(600);
  for (let i = 0; i < 150; i++) files[`f${i}.c`] = body;
  const dir = await makeTree(files);
  try {
    for (const threads of [1, 2]) {
      const controller = new AbortController();
      let abortedAt = 0;
      setTimeout(() => {
        abortedAt = performance.now();
        controller.abort(new DOMException("cancelled", "AbortError"));
      }, 400);
      const error = await astSearch({
        cwd: dir,
        kinds: ["function"],
        threads,
        parallelBytes: 0,
        signal: controller.signal,
      }).then(() => undefined, (error) => error);
      const latency = performance.now() - abortedAt;
      assert.ok(abortedAt > 0, "the run ended before the abort: make the tree larger");
      assert.equal((error as Error | undefined)?.name, "AbortError");
      assert.ok(
        latency < 200,
        `threads ${threads}: stopped ${latency.toFixed(0)} ms after the abort`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bad names, queries and languages are coded refusals or warnings", async () => {
  const dir = await makeTree({ ...functions(1), "lib.c": "int lib(void) { return 0; }\n" });
  try {
    const nulName = await refusal(() => astSearch({ cwd: dir, name: "f\0" }));
    assert.equal(nulName.code, "LMA-QRY-003");
    assert.equal(nulName.details.column, 1);
    const badName = await refusal(() => astSearch({ cwd: dir, name: "ab(c|d" }));
    assert.equal(badName.code, "LMA-QRY-003");
    assert.equal(badName.details.column, 2);
    const nulQuery = await refusal(() => astSearch({ cwd: dir, query: "(identifier)\0 @x" }));
    assert.equal(nulQuery.code, "LMA-QRY-001");
    assert.equal(nulQuery.details.column, 12);
    const folder = await refusal(() => astSearch({ cwd: dir, queryFile: "." }));
    assert.equal(folder.code, "LMA-IO-004");
    const other = await astSearch({
      cwd: dir,
      paths: ["lib.c"],
      kinds: ["function"],
      language: "python",
    });
    assert.deepEqual(codes(other).filter((code) => code !== "LMA-AST-001"), ["LMA-ARG-012"]);
    assert.equal(other.diagnostics.find((d) => d.code === "LMA-ARG-012")?.file, "lib.c");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Values that have broken or could break a tool, for the fuzz below. */
const BAD_STRINGS = [
  "",
  " ",
  "\0",
  "a\0b",
  "(",
  ")",
  "[",
  "\\",
  "*",
  "(?<",
  "\\p{Nope}",
  "\ud800",
  "\ufffd",
  "(".repeat(3000),
  "[".repeat(300) + "(identifier)",
  '((identifier) @x (#match? @x "("))',
  "((identifier) @x (#eq? @x))",
  "(identifier) @x (#bogus? @x)",
  "(nope) @x",
  "(identifier field: (identifier))",
  '"unterminated',
  "@",
  "x".repeat(100_000),
  "../../etc/passwd",
  "/dev/null",
  ".",
  "-1",
  "NaN",
];
const BAD_NUMBERS = [-1, 0, 1, 1.5, NaN, Infinity, 2 ** 53, -0];
const FIELDS: Record<string, unknown[]> = {
  query: BAD_STRINGS,
  query_file: BAD_STRINGS,
  name: BAD_STRINGS,
  language: [...BAD_STRINGS, "c", "python", "yaml", "C++"],
  kind: [["function"], ["nope"], [""], ["\0"], "function", 3],
  paths: [["."], [""], ["/dev/null"], ["missing"], [".", "."], "x", ["a\0b"], ["é".repeat(3000)]],
  limit: BAD_NUMBERS,
  max_parse_bytes: BAD_NUMBERS,
  max_parse_memory: [...BAD_NUMBERS, 63, 64, 1536, 2048],
  file_timeout: BAD_NUMBERS,
  context_lines: BAD_NUMBERS,
  max_columns: BAD_NUMBERS,
  threads: BAD_NUMBERS,
  with_context: [true, false, "yes", 1],
};

Deno.test("fuzz: 300 malformed inputs end in an envelope or a coded error, never an internal one", async () => {
  const dir = await makeTree({ ...functions(2), "lib.c": "int lib(void) { return 0; }\n" });
  try {
    await fuzzTool(astSearchTool, dir, {
      fields: FIELDS,
      runs: 300,
      seed: 11,
      maxFields: 4,
      complete: (input, next) => {
        if (next() < 0.5) input.kind ??= ["function"];
        if (next() < 0.5) input.file_timeout ??= 2000;
      },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: malformed flags exit 2 with a coded error and no stack trace", async () => {
  const dir = await makeTree(functions(1));
  const cases: [string, string[]][] = [
    ["LMA-QRY-003", ["--name", "a(b", "--kind", "function"]],
    ["LMA-ARG-002", ["--kind", "nope"]],
    ["LMA-ARG-002", ["--max-parse-bytes=-5", "--kind", "function"]],
    ["LMA-ARG-002", ["--max-parse-memory", "4096", "--kind", "function"]],
    ["LMA-ARG-001", ["--file-timeout", "abc", "--kind", "function"]],
    ["LMA-QRY-004", ["(".repeat(3000) + "identifier" + ")".repeat(3000), "-l", "js"]],
    ["LMA-IO-004", ["--query-file", ".", "-l", "js"]],
  ];
  try {
    for (const [code, args] of cases) {
      const result = await runEntry("tools/ast-search/main.ts", args, { cwd: dir });
      assert.equal(result.code, 2, `${args.join(" ").slice(0, 80)}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, /^\s+at |INT-001/m);
      const envelope = JSON.parse(result.stdout);
      assert.equal(envelope.diagnostics[0].code, code, args.join(" ").slice(0, 80));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
