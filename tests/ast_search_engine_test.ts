/**
 * The ast-search engine as a library: byte-exact spans in multi-byte and invalid UTF-8 text,
 * queries over several languages, workers giving the same answer as one thread, and a
 * long-lived host's cache skipping unchanged files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryCache } from "../core/cache.ts";
import { astSearch, closeSharedPool } from "../tools/ast-search/main.ts";
import { INLINE_BYTES } from "../tools/ast-search/engine.ts";
import {
  type FileOutcome,
  FileSearcher,
  type SearchSpec,
} from "../tools/ast-search/file_search.ts";
import { ParsePool } from "../tools/ast-search/pool.ts";
import { makeTree } from "./helpers.ts";

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

Deno.test("engine: spans count UTF-8 bytes, also after invalid UTF-8", async () => {
  const prefix = '# café ☕ 😀\nS = "é😀"\n';
  const invalid = new Uint8Array([...encoder.encode("# "), 0xff, 0xfe, ...encoder.encode("\n")]);
  const body = "def g():\n    return 'ü'\n";
  const dir = await makeTree({
    "multi.py": `${prefix}def f():\n    return "ü"\n`,
    "bad.py": new Uint8Array([...invalid, ...encoder.encode(body)]),
  });
  try {
    const { data } = await astSearch({ cwd: dir, kinds: ["function"], threads: 1 });
    const [bad, multi] = data.matches;
    assert.equal(bad.name, "g");
    assert.equal(bad.span.byte_start, invalid.length);
    assert.equal(bad.span.byte_end, invalid.length + byteLength(body) - 1);
    assert.deepEqual([bad.span.start_line, bad.span.start_col], [2, 0]);
    assert.equal(multi.name, "f");
    assert.equal(multi.span.byte_start, byteLength(prefix));
    assert.equal(multi.captures[0].span.byte_start, byteLength(prefix) + 4);
    assert.deepEqual([multi.span.end_line, multi.span.end_col], [4, byteLength('    return "ü"')]);
    // A capture inside multi-byte text: the string literal on line 2.
    const strings = await astSearch({
      cwd: dir,
      paths: ["multi.py"],
      query: "(string) @s",
      threads: 1,
    });
    const literal = strings.data.matches[0];
    assert.equal(literal.text, '"é😀"');
    assert.equal(literal.span.byte_start, byteLength("# café ☕ 😀\nS = "));
    assert.equal(literal.span.byte_end - literal.span.byte_start, byteLength('"é😀"'));
    assert.equal(literal.span.start_col, 4);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("engine: a query is compiled per language; where it does not compile, a warning", async () => {
  const dir = await makeTree({
    "a.c": "int f(void) { return 0; }\n",
    "b.py": "def g():\n    pass\n",
    "c.js": "function h() {}\n",
  });
  try {
    const { data, diagnostics } = await astSearch({
      cwd: dir,
      query: "(function_definition) @fn",
      threads: 1,
    });
    assert.deepEqual(data.matches.map((match) => match.span.file_path), ["a.c", "b.py"]);
    assert.deepEqual(data.languages, ["c", "python"]);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].code, "LMA-QRY-001");
    assert.equal(diagnostics[0].level, "warning");
    assert.match(diagnostics[0].message, /^javascript files skipped/);
    // --language parses a named file of any name as that language: `function h() {}` is a
    // C function definition too.
    const named = await astSearch({
      cwd: dir,
      paths: ["c.js", "a.c", "b.py"],
      language: "c",
      query: "(function_definition) @fn",
      semantics: true,
    });
    assert.deepEqual(
      named.data.matches.map((match) => `${match.span.file_path} ${match.semantics?.language}`),
      ["a.c c", "c.js c"],
    );
    assert.equal(named.data.files_searched, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** C files of `count` functions each, `files` of them, larger together than INLINE_BYTES. */
function generated(files: number, count: number): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let file = 0; file < files; file++) {
    let text = `#include "common.h"\n\nstruct state_${file} { int depth; };\n\n`;
    for (let i = 0; i < count; i++) {
      text += `static int walk_${file}_${i}(struct state_${file} *s, const char *name)\n{\n` +
        `\tif (!s || !name) return -1; /* ${"·".repeat(i % 40)} */\n` +
        `\treturn s->depth + ${i};\n}\n\n`;
    }
    tree[`src/f${file}.c`] = text;
  }
  return tree;
}

Deno.test("engine: parse workers give exactly the single-thread answer", async () => {
  const files = generated(6, 300);
  const size = Object.values(files).reduce((sum, text) => sum + byteLength(text), 0);
  assert.ok(size < INLINE_BYTES && size > 64 * 1024);
  const dir = await makeTree(files);
  try {
    const strip = (data: unknown) => JSON.stringify(data).replace(/"match_id":"[^"]*"/g, "");
    const options = {
      cwd: dir,
      kinds: ["function", "struct"],
      semantics: true,
      limit: 0,
      // Smaller than the default, so that this small tree is shared with workers.
      parallelBytes: 64 * 1024,
    };
    const one = await astSearch({ ...options, threads: 1 });
    const three = await astSearch({ ...options, threads: 3 });
    assert.equal(one.data.match_count, 6 * 301);
    assert.equal(strip(three.data), strip(one.data));
    assert.deepEqual(three.diagnostics, one.diagnostics);
    // A long-lived host keeps its workers between runs.
    const kept = await astSearch({ ...options, threads: 3, keepWorkers: true });
    const again = await astSearch({ ...options, threads: 3, keepWorkers: true });
    assert.equal(strip(again.data), strip(kept.data));
    assert.equal(strip(kept.data), strip(one.data));
  } finally {
    closeSharedPool();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("engine: a parse worker answers each file as the calling thread does", async () => {
  const dir = await makeTree(generated(3, 20));
  const pool = new ParsePool(1);
  try {
    const spec: SearchSpec = {
      mode: "kind",
      query: "",
      kinds: [],
      semantics: true,
      contextLines: 1,
      checksums: true,
      maxColumns: 80,
    };
    const files = [0, 1, 2].map((i) => ({
      absPath: join(dir, `src/f${i}.c`),
      filePath: `src/f${i}.c`,
      language: "c",
    }));
    const fromWorker: FileOutcome[] = [];
    const failures = await pool.run(
      { spec, languages: ["c"], files, counter: new SharedArrayBuffer(4) },
      (index, outcome, failure) => {
        assert.equal(failure, undefined);
        if (outcome) fromWorker[index] = outcome;
      },
    );
    assert.deepEqual(failures, []);
    const searcher = new FileSearcher(spec);
    for (const [index, file] of files.entries()) {
      assert.deepEqual(fromWorker[index], await searcher.searchFile(file));
    }
    assert.equal(fromWorker[2].matches.length, 21);
    searcher.dispose();
  } finally {
    pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("engine: a host's cache serves unchanged files without reading them", async () => {
  const dir = await makeTree({ "a.c": "int one(void) { return 1; }\n", "b.c": "int b(void);\n" });
  const file = join(dir, "a.c");
  try {
    const cache = new MemoryCache();
    const names = async (withCache: boolean) => {
      const { data } = await astSearch({
        cwd: dir,
        kinds: ["function"],
        cache: withCache ? cache : undefined,
      });
      return data.matches.map((match) => match.name);
    };
    assert.deepEqual(await names(true), ["one"]);
    // Same size, same mtime, other bytes: only a run that reads the file can see the change.
    const { mtime, atime } = await Deno.stat(file);
    await Deno.writeTextFile(file, "int two(void) { return 2; }\n");
    await Deno.utime(file, atime ?? new Date(), mtime ?? new Date());
    assert.deepEqual(await names(true), ["one"]);
    assert.deepEqual(await names(false), ["two"]);
    // A changed stamp (size) is a miss: the file is read again.
    await Deno.writeTextFile(file, "int three(void) { return 3; }\n");
    assert.deepEqual(await names(true), ["three"]);
    // Another query is another namespace.
    const { data } = await astSearch({ cwd: dir, query: "(number_literal) @n", cache });
    assert.deepEqual(data.matches.map((match) => match.text), ["3"]);
  } finally {
    closeSharedPool();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("engine: a cancelled run stops with the signal's reason", async () => {
  const dir = await makeTree({ "a.c": "int f(void) { return 0; }\n" });
  try {
    const controller = new AbortController();
    controller.abort(new Error("cancelled by the client"));
    await assert.rejects(
      astSearch({ cwd: dir, kinds: ["function"], signal: controller.signal }),
      /cancelled by the client/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("engine: coded refusals for kinds, names and languages", async () => {
  const dir = await makeTree({ "a.lua": "local function greet() print('hi') end\n" });
  try {
    const code = (options: Parameters<typeof astSearch>[0]) =>
      astSearch(options).then(() => "ok", (error) => error.code);
    assert.equal(await code({ cwd: dir, kinds: ["function"], language: "lua" }), "LMA-AST-004");
    assert.equal(await code({ cwd: dir, kinds: ["function"], name: "(" }), "LMA-QRY-003");
    assert.equal(await code({ cwd: dir, kinds: ["functions"] }), "LMA-ARG-002");
    assert.equal(await code({ cwd: dir, query: "  " }), "LMA-QRY-002");
    assert.equal(await code({ cwd: dir, query: "(x) @x", language: "elm" }), "LMA-AST-002");
    assert.equal(await code({ cwd: dir, queryFile: "missing.scm" }), "LMA-IO-001");
    // Without --language, a Lua file is no error for --kind: it is summarised in a note.
    const { data, diagnostics } = await astSearch({ cwd: dir, kinds: ["function"] });
    assert.equal(data.files_searched, 0);
    assert.deepEqual(diagnostics.map((d) => `${d.level} ${d.code} ${d.message}`), [
      "note LMA-AST-004 skipped 1 lua file: no definition query for lua",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("engine: a parse worker stops at its run's stop flag, its claims never stopped", async () => {
  // Three files of 3 MB: seconds of parsing each. The claims are left open, as when the call
  // worker that started the job was terminated before it could stop them.
  const big = Array.from({ length: 80_000 }, (_, i) => `int f${i}(int a) { return a + ${i}; }\n`)
    .join("");
  const dir = await makeTree({ "a.c": big, "b.c": big, "c.c": big });
  const pool = new ParsePool(1);
  try {
    const spec: SearchSpec = {
      mode: "kind",
      query: "",
      kinds: ["function"],
      semantics: false,
      contextLines: 0,
      checksums: false,
      maxColumns: 80,
    };
    const files = ["a.c", "b.c", "c.c"].map((name) => ({
      absPath: join(dir, name),
      filePath: name,
      language: "c",
    }));
    const stop = new Int32Array(new SharedArrayBuffer(4));
    let answered = 0;
    const running = pool.run(
      { spec, languages: ["c"], files, counter: new SharedArrayBuffer(4), stopFlag: stop.buffer },
      (_index, outcome) => {
        if (outcome) answered++;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stoppedAt = performance.now();
    Atomics.store(stop, 0, 1);
    await running;
    const took = performance.now() - stoppedAt;
    assert.ok(answered < files.length, `${answered} files answered: the stop came too late`);
    // Stopped inside the parse under way, not after the three files (seconds).
    assert.ok(took < 1_500, `the job ended ${Math.round(took)} ms after its stop flag`);
  } finally {
    pool.close();
    await Deno.remove(dir, { recursive: true });
  }
});
