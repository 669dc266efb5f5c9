/**
 * Bounded work and coded refusals of llm-discover (issue 11, §3 and §4): a query too large to
 * score cheaply or that is not text is refused with a code naming the limit, an abort signal
 * stops a walk within 200 ms, and no malformed input ends in an internal error.
 *
 * @module
 */
import assert from "node:assert/strict";
import { discover } from "../tools/discover/engine.ts";
import { MAX_QUERY_BYTES, MAX_QUERY_TERMS } from "../core/fuzzy/query.ts";
import { discoverTool } from "../tools/discover/tool.ts";
import { fuzzTool, refusal } from "./fuzz_helpers.ts";
import { makeTree, runEntry } from "./helpers.ts";

const TREE = {
  "src/walker.ts": "",
  "src/scorer.ts": "",
  "README.md": "",
};

Deno.test("a query over the byte or term limit is refused with LMD-QRY-001", async () => {
  const dir = await makeTree(TREE);
  try {
    const long = await refusal(() => discover({ query: "a".repeat(100_000), cwd: dir }));
    assert.equal(long.code, "LMD-QRY-001");
    assert.match(long.message, new RegExp(`limit of ${MAX_QUERY_BYTES}`));
    const many = await refusal(() =>
      discover({ query: Array(MAX_QUERY_TERMS + 1).fill("a").join(" "), cwd: dir })
    );
    assert.equal(many.code, "LMD-QRY-001");
    assert.match(many.message, new RegExp(`limit of ${MAX_QUERY_TERMS}`));
    // At the limits the query runs.
    const atBytes = await discover({ query: "w".repeat(MAX_QUERY_BYTES), cwd: dir });
    assert.equal(atBytes.data.total, 0);
    const atTerms = await discover({
      query: Array(MAX_QUERY_TERMS).fill("w").join(" "),
      cwd: dir,
    });
    assert.equal(atTerms.data.results[0].path, "src/walker.ts");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: a 100 KB query exits 2 with LMD-QRY-001, not an internal error", async () => {
  const dir = await makeTree(TREE);
  try {
    const result = await runEntry("tools/discover/main.ts", ["a".repeat(100_000)], { cwd: dir });
    assert.equal(result.code, 2, result.stderr.slice(0, 300));
    assert.equal(JSON.parse(result.stdout).diagnostics[0].code, "LMD-QRY-001");
    assert.ok(result.stderr.length < 2000, "the refusal echoes the query");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a query that is not text is refused (LMD-QRY-002); U+FFFD is a warning", async () => {
  const dir = await makeTree(TREE);
  try {
    const nul = await refusal(() => discover({ query: "walk\0er", cwd: dir }));
    assert.equal(nul.code, "LMD-QRY-002");
    assert.equal(nul.details.column, 4);
    const surrogate = await refusal(() => discover({ query: "walk\ud800", cwd: dir }));
    assert.equal(surrogate.code, "LMD-QRY-002");
    const replaced = await discover({ query: "walk\ufffd", cwd: dir });
    assert.deepEqual(replaced.diagnostics.map((d) => d.code), ["LMD-QRY-003"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli: a query argument that is not valid UTF-8 gets the LMD-QRY-003 warning", async () => {
  const dir = await makeTree(TREE);
  try {
    // Deno hands an argument with invalid UTF-8 over with U+FFFD in place of the bad byte; the
    // test spawns through a shell-free command with the raw bytes.
    const command = new Deno.Command("bash", {
      args: [
        "-c",
        `deno run --quiet --no-prompt --allow-read "$0" "$(printf 'walk\\xffer')"`,
        new URL("../tools/discover/main.ts", import.meta.url).pathname,
      ],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    });
    const output = await command.output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const envelope = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.deepEqual(envelope.diagnostics.map((d: { code: string }) => d.code), ["LMD-QRY-003"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an abort signal stops a discovery within 200 ms", async () => {
  const files: Record<string, string> = {};
  // 30,000 files with long names: a run long enough that the walk, which looks for an abort
  // every 50 ms, sees one (20,000 short names took 55 ms on a fast machine: no look at all).
  for (let d = 0; d < 150; d++) {
    for (let f = 0; f < 200; f++) {
      files[`d${d}/some/deeper/sub/folder/file_${f}_name_and_a_longer_tail.ts`] = "";
    }
  }
  const dir = await makeTree(files);
  try {
    const already = new AbortController();
    already.abort(new DOMException("cancelled", "AbortError"));
    const early = await discover({ query: "name", cwd: dir, signal: already.signal })
      .then(() => undefined, (error) => error);
    assert.equal((early as Error | undefined)?.name, "AbortError");

    const started = performance.now();
    await discover({ query: "fi na", cwd: dir });
    const whole = performance.now() - started;
    // The first look comes 50 ms in (125 ms for the whole run on the machine that set this).
    assert.ok(whole > 70, `a whole run takes ${whole.toFixed(0)} ms: make the tree larger`);
    const controller = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort(new DOMException("cancelled", "AbortError"));
    }, 5);
    const error = await discover({ query: "fi na", cwd: dir, signal: controller.signal })
      .then(() => undefined, (error) => error);
    assert.ok(abortedAt > 0, "the run ended before the abort");
    assert.equal((error as Error | undefined)?.name, "AbortError");
    const latency = performance.now() - abortedAt;
    assert.ok(latency < 200, `stopped ${latency.toFixed(0)} ms after the abort`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const BAD_STRINGS = [
  "",
  " ",
  "|",
  "| |",
  "!",
  "^",
  "$",
  "^$",
  "'",
  "''",
  "!'",
  "\\ ",
  "\0",
  "a\0b",
  "\ud800",
  "\udfff x",
  "\ufffd",
  "é".repeat(3000),
  "a".repeat(5000),
  Array(500).fill("a").join(" "),
  Array(500).fill("|").join(" "),
  "../../etc/passwd",
  "/dev/null",
  ".",
  "\n",
  "\t",
];
const FIELDS: Record<string, unknown[]> = {
  query: BAD_STRINGS,
  paths: [["."], [""], ["/dev/null"], ["missing"], "x", ["a\0b"], ["é".repeat(3000)]],
  kind: ["file", "dir", "nope", 1],
  extension: [[""], ["\0"], [".ts"], ["ts", "TS"], "ts"],
  limit: [-1, 0, 1, 1.5, NaN, Infinity, 2 ** 53],
  case: ["smart", "sensitive", "nope", ""],
};

Deno.test("fuzz: 400 malformed inputs end in an envelope or a coded error, never an internal one", async () => {
  const dir = await makeTree(TREE);
  try {
    await fuzzTool(discoverTool, dir, {
      fields: FIELDS,
      runs: 400,
      seed: 7,
      maxFields: 3,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
