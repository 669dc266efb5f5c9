/**
 * `llm-symbols index` on inputs that broke it on the Linux tree, reproduced on small fixtures:
 * grammar scanners that call C functions the parser runtime lacks, a runtime that traps while
 * linking a grammar, failing files parsed again on every run, walk options forgotten by the
 * MCP server's refresh.
 */
import assert from "node:assert/strict";
import { MemoryCache } from "../core/cache.ts";
import { changedPaths } from "../tools/mcp/scope.ts";
import { liveIndex } from "../core/symbol_index/live.ts";
import { findSymbols } from "../tools/symbols/queries.ts";
import { symbolsIndexTool } from "../tools/symbols/tool.ts";
import { extractFacts } from "../core/symbol_index/extract.ts";
import { indexStatus, verifyIndex } from "../tools/symbols/freshness.ts";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import { makeTree } from "./helpers.ts";

/** A bash script with a `case` statement: its scanner calls `isalpha`. */
const CASE_SCRIPT =
  'case "$1" in\n*1*)\n\tset -x\n\t;;\nesac\nbuild() {\n\tmake "$@"\n}\nbuild all\n';

Deno.test("bash: a case statement parses (the scanner's isalpha is provided)", async () => {
  const facts = await extractFacts("bash", CASE_SCRIPT);
  assert.deepEqual(facts.symbols.map((symbol) => symbol.name), ["build"]);
  assert.equal(facts.parse_errors, 0);
});

Deno.test("index: bash scripts with case statements are indexed, on workers and inline", async () => {
  const files: Record<string, string> = { "data.json": '{"a": [1, 2]}\n' };
  for (let i = 0; i < 4; i++) files[`s${i}.sh`] = CASE_SCRIPT;
  const root = await makeTree(files);
  try {
    for (const threads of [0, 1]) {
      const { result, diagnostics } = await indexRoot({ root, db: `.llm/${threads}.db`, threads });
      assert.deepEqual(diagnostics.map((d) => d.message), [], `threads ${threads}`);
      assert.equal(result.parsed, 5, `threads ${threads}`);
      assert.equal(result.symbols, 4, `threads ${threads}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** LEB128-free bytes of a side module whose `__wasm_call_ctors` traps (`unreachable`). */
function trappingSideModule(): Uint8Array {
  const text = (value: string) => [value.length, ...new TextEncoder().encode(value)];
  const section = (id: number, content: number[]) => [id, content.length, ...content];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    // dylink.0, memory info: no memory, no table.
    ...section(0, [...text("dylink.0"), 1, 4, 0, 0, 0, 0]),
    ...section(1, [1, 0x60, 0, 0]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...text("__wasm_call_ctors"), 0, 0]),
    ...section(10, [1, 3, 0, 0x00, 0x0b]),
  ]);
}

Deno.test("loader: a trap while linking a grammar spends the runtime like a trap while parsing", async () => {
  const worker = new Worker(
    new URL("./fixtures/symbols/link_trap_worker.ts", import.meta.url),
    { type: "module" },
  );
  try {
    const answer = new Promise((resolve) => worker.onmessage = (event) => resolve(event.data));
    worker.postMessage(trappingSideModule());
    assert.deepEqual(await answer, {
      trap: "ParserAbortedError",
      after: "ParserAbortedError",
      aborted: true,
    });
  } finally {
    worker.terminate();
  }
});

const MIB = 1024 * 1024;

Deno.test("index: a failed file is recorded with its content and parsed again only once that changes", async () => {
  // A real out-of-memory abort of the parser runtime: its heap may not grow past 64 MiB. On a
  // worker (threads 1), so the aborted runtime is replaced, not this thread's.
  const dense = ";".repeat(400_000);
  const root = await makeTree({ "dense.js": dense, "ok.py": "def f():\n    pass\n" });
  const run = () => indexRoot({ root, threads: 1, parserHeapCeiling: 64 * MIB });
  try {
    const first = await run();
    assert.equal(first.result.parsed, 1);
    assert.deepEqual(first.diagnostics.map((d) => [d.code, d.file]), [["MAG-IO-015", "dense.js"]]);

    // Unchanged, with a new time: read and hashed, not parsed.
    await Deno.utime(`${root}/dense.js`, new Date(), new Date(Date.now() + 5_000));
    const second = await run();
    assert.equal(second.result.parsed, 0);
    assert.equal(second.result.skipped, 1);
    assert.deepEqual(second.diagnostics.map((d) => d.code), ["MAG-IO-020"]);
    // Same time now: not even read.
    assert.deepEqual((await run()).diagnostics.map((d) => d.code), ["MAG-IO-020"]);

    const status = indexStatus({ root });
    assert.equal(status.data.failed_files, 1);
    assert.deepEqual(status.diagnostics.map((d) => [d.code, d.file]), [["MAG-IO-020", "dense.js"]]);
    assert.match(status.diagnostics[0].message, /ParserAbortedError/);
    assert.equal((await verifyIndex({ root })).data.in_sync, true);

    // Changed content is parsed again (and indexed, under the runtime's own ceiling), as far
    // as the node budget goes: 400,000 empty statements are over it.
    await Deno.writeTextFile(`${root}/dense.js`, "function g() {}\n" + dense);
    const fixed = await indexRoot({ root, threads: 1 });
    assert.equal(fixed.result.parsed, 1);
    assert.deepEqual(fixed.diagnostics.map((d) => [d.code, d.file]), [["MAG-IO-026", "dense.js"]]);
    assert.equal(indexStatus({ root }).data.failed_files, 0);

    // A recorded failure of a file that is gone is forgotten.
    await run();
    await Deno.writeTextFile(`${root}/dense.js`, dense);
    assert.equal((await run()).result.skipped, 1);
    await Deno.remove(`${root}/dense.js`);
    await run();
    assert.equal(indexStatus({ root }).data.failed_files, 0);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("live index: the host's refresh walks with the index run's settings (globs, hidden)", async () => {
  const root = await makeTree({
    "src/a.c": "int kept(void) { return 0; }\n",
    "vendor/b.c": "int vendored(void) { return 0; }\n",
    ".hidden/c.c": "int hidden_one(void) { return 0; }\n",
  });
  const cache = new MemoryCache();
  try {
    await indexRoot({ root, threads: 0, walk: { globs: ["!vendor/"], hidden: true } });
    const names = async () => {
      const { data } = await findSymbols({ root, cache }, "", "prefix");
      return data.results.map((symbol) => symbol.name).sort();
    };
    assert.deepEqual(await names(), ["hidden_one", "kept"]);
    // A new file makes the live index walk again: with the same settings.
    await Deno.writeTextFile(`${root}/vendor/d.c`, "int vendored_too(void) { return 0; }\n");
    await Deno.writeTextFile(`${root}/src/e.c`, "int added(void) { return 0; }\n");
    assert.deepEqual(await names(), ["added", "hidden_one", "kept"]);
    assert.equal(liveIndex(cache, root, undefined).store.counts().files, 3);
  } finally {
    cache.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("index result names the files it wrote, so an MCP host drops only their cache entries", async () => {
  const root = await makeTree({ "a.py": "def f():\n    pass\n" });
  try {
    const { envelope } = await symbolsIndexTool.execute({ threads: 0 }, {
      executionId: crypto.randomUUID(),
      cwd: root,
    });
    const result = (envelope as { result: unknown }).result;
    const real = await Deno.realPath(root);
    assert.deepEqual(changedPaths(real, result), [
      `${real}/.llm/index.db`,
      `${real}/.llm/index.db-wal`,
      `${real}/.llm/index.db-shm`,
      `${real}/.llm/trigram.idx`,
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("index: files after an abort on the calling thread are not recorded as failed", async () => {
  const root = await makeTree({
    "a_dense.js": ";".repeat(400_000),
    "b.py": "def f():\n    pass\n",
  });
  const worker = new Worker(
    new URL("./fixtures/symbols/inline_abort_worker.ts", import.meta.url),
    { type: "module" },
  );
  try {
    const answer = new Promise((resolve) => worker.onmessage = (event) => resolve(event.data));
    worker.postMessage(root);
    // b.py is not parsed (the runtime is spent) but is not blamed: the next run parses it.
    assert.deepEqual(await answer, {
      notIndexed: ["a_dense.js", "b.py"],
      failures: ["a_dense.js"],
    });
  } finally {
    worker.terminate();
    await Deno.remove(root, { recursive: true });
  }
});
