/**
 * Bounded work: a catastrophically backtracking pattern cannot hang a search with a time
 * budget; an aborted search stops at once; a generous budget changes nothing.
 *
 * Deno 2.9.6's `Worker.terminate()` does not interrupt a thread inside a backtracking regular
 * expression (checked: the thread runs on to the end of the match), so the crafted line takes
 * seconds, not forever: long enough to pass every budget here, short enough that the
 * abandoned thread ends soon after the test.
 */
import assert from "node:assert/strict";
import { search } from "../tools/search/engine.ts";
import { runEntry } from "./helpers.ts";

async function catastrophicTree(): Promise<string> {
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(`${root}/a.txt`, "aaa\nbbb\n");
  // 2^30 ways to split the a's: (a+)+$ takes seconds on this line.
  await Deno.writeTextFile(`${root}/b.txt`, "a".repeat(30) + "b\n");
  await Deno.writeTextFile(`${root}/c.txt`, "x@y\n");
  return root;
}

Deno.test("a catastrophic pattern stops at the time budget with partial results and LMS-QRY-003", async () => {
  const root = await catastrophicTree();
  try {
    for (const pattern of ["(a+)+$", "(a|a)+$"]) {
      const started = Date.now();
      // The budget leaves room for a worker to start on a loaded machine (about a second).
      const result = await search({ patterns: [pattern], cwd: root, timeoutMs: 2500 });
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 2500 + 1000, `${pattern}: took ${elapsed} ms`);
      assert.equal(result.partial, true);
      const timeouts = result.diagnostics.filter((d) => d.code === "LMS-QRY-003");
      assert.deepEqual(timeouts.map((d) => d.file), ["b.txt"], pattern);
      if (pattern === "(a+)+$") {
        assert.deepEqual(result.data.matches.map((m) => m.span.file_path), ["a.txt"]);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("--timeout on the CLI: status partial, exit 0, the file named", async () => {
  const root = await catastrophicTree();
  try {
    const result = await runEntry("tools/search/main.ts", ["--timeout", "2500", "(a+)+$"], {
      cwd: root,
    });
    assert.equal(result.code, 0, result.stderr);
    const envelope = JSON.parse(result.stdout) as {
      status: string;
      partial?: true;
      diagnostics: { code: string; file?: string }[];
    };
    assert.equal(envelope.status, "partial");
    assert.equal(envelope.partial, true);
    assert.ok(envelope.diagnostics.some((d) => d.code === "LMS-QRY-003" && d.file === "b.txt"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an abort stops a stuck search within 200 ms of the signal", async () => {
  const root = await catastrophicTree();
  try {
    const controller = new AbortController();
    const running = search({
      patterns: ["(a+)+$"],
      cwd: root,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const aborted = Date.now();
    controller.abort();
    await assert.rejects(running);
    assert.ok(Date.now() - aborted < 200, `stopped after ${Date.now() - aborted} ms`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a generous budget gives the same result as none", async () => {
  const cwd = Deno.cwd();
  const options = { patterns: ["export function \\w+"], cwd, paths: ["tools/search"], limit: 0 };
  const plain = await search(options);
  const timed = await search({ ...options, timeoutMs: 60_000 });
  const spans = (r: typeof plain) => r.data.matches.map((m) => m.span);
  assert.deepEqual(spans(timed), spans(plain));
  assert.equal(timed.partial, false);
  assert.deepEqual(timed.diagnostics, plain.diagnostics);
});

/** A pattern that matches what a catastrophic one matches, in linear time. */
const LINEAR_TWIN: Record<string, string> = { "(a+)+$": "a+$" };

Deno.test("kept worker threads (a long-lived host) give each run the same result as fresh ones", async () => {
  const root = await catastrophicTree();
  try {
    const patterns = ["a", "b+", "x@y", "(a+)+$", "^a", "[ab]{3}"];
    for (const pattern of patterns) {
      const fresh = await search({ patterns: [pattern], cwd: root, timeoutMs: 2500 });
      const kept = await search({
        patterns: [pattern],
        cwd: root,
        timeoutMs: 2500,
        keepWorkers: true,
      });
      const spans = (result: typeof fresh) =>
        result.data.matches.map((m) => [m.span.file_path, m.span.byte_start, m.span.byte_end]);
      assert.equal(kept.partial, fresh.partial, pattern);
      if (!fresh.partial) {
        assert.deepEqual(spans(kept), spans(fresh), pattern);
        continue;
      }
      // A run cut by its budget found what it reached before the cut, which depends on the
      // machine's load (how soon a worker started), kept workers or not: each run's matches
      // are some of those of a pattern that matches the same and ends in linear time.
      const twin = LINEAR_TWIN[pattern];
      assert.ok(twin, `${pattern}: cut by its budget, but only a catastrophic pattern may be`);
      const whole = await search({ patterns: [twin], cwd: root });
      const all = new Set(spans(whole).map((span) => JSON.stringify(span)));
      for (const span of [...spans(kept), ...spans(fresh)]) {
        assert.ok(all.has(JSON.stringify(span)), `${pattern}: ${span}`);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
