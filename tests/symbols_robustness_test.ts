/**
 * `llm-symbols index` on inputs that broke it on the Linux tree, reproduced on small fixtures:
 * grammar scanners that call C functions the parser runtime lacks, a runtime that traps while
 * linking a grammar, failing files parsed again on every run, walk options forgotten by the
 * MCP server's refresh.
 */
import assert from "node:assert/strict";
import { extractFacts } from "../tools/symbols/extract.ts";
import { indexRoot } from "../tools/symbols/indexer.ts";
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
