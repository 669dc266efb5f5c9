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
  // A regular expression (matched by workers under a budget), plain text (matched on the
  // calling thread: a small walk, no backtracking) and fixed strings.
  for (
    const [patterns, fixedStrings] of [[["export function \\w+"], false], [
      ["export function"],
      false,
    ], [["(a+)+$", "x@y"], true]] as const
  ) {
    const options = { patterns, fixedStrings, cwd, paths: ["tools/search"], limit: 0 };
    const plain = await search(options);
    const timed = await search({ ...options, timeoutMs: 60_000 });
    const spans = (r: typeof plain) => r.data.matches.map((m) => m.span);
    assert.deepEqual(spans(timed), spans(plain), patterns.join(" "));
    assert.equal(timed.partial, false);
    assert.deepEqual(timed.diagnostics, plain.diagnostics);
  }
});

Deno.test("plain text searched on the calling thread still stops at the budget, between files", async () => {
  const root = await Deno.makeTempDir();
  try {
    // 399 files of 20 KB: a small walk of 8 MB, searched in well over a millisecond.
    const line = "PM_RESUME " + "x".repeat(90) + "\n";
    for (let i = 0; i < 399; i++) {
      await Deno.writeTextFile(`${root}/f${String(i).padStart(3, "0")}.txt`, line.repeat(200));
    }
    const options = { patterns: ["PM_RESUME"], cwd: root, threads: 2, mode: "files" as const };
    const whole = await search({ ...options, limit: 0 });
    const cut = await search({ ...options, limit: 0, timeoutMs: 1 });
    assert.equal(whole.data.files_matched, 399);
    assert.equal(cut.partial, true);
    assert.ok(cut.data.files_matched < 399, `${cut.data.files_matched} files matched`);
    const [warning] = cut.diagnostics;
    assert.equal(warning.code, "LMS-QRY-003");
    assert.match(warning.message, /search timed out after 1 ms; \d+ queued file\(s\) not searched/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** A pattern that matches what a catastrophic one matches, in linear time. */
const LINEAR_TWIN: Record<string, string> = { "(a+)+$": "a+$" };

Deno.test("plain text in batches on workers: a cut batch is counted among the files not searched", async () => {
  const root = await Deno.makeTempDir();
  try {
    // 150 matching files of 240 KB: a small walk, but over 32 MiB, so a worker matches it in
    // two batches (the walk is then done); counting 2,400 matches a file, the budget ends
    // mid-way, after the worker has started.
    const text = ("PM_RESUME " + "x".repeat(90) + "\n").repeat(2400);
    for (let i = 0; i < 150; i++) {
      await Deno.writeTextFile(`${root}/f${String(i).padStart(3, "0")}.txt`, text);
    }
    const cut = await search({
      patterns: ["PM_RESUME"],
      cwd: root,
      threads: 2,
      mode: "counts",
      limit: 0,
      timeoutMs: 100,
    });
    assert.equal(cut.partial, true);
    const warnings = cut.diagnostics.filter((d) => d.code === "LMS-QRY-003");
    assert.ok(warnings.length > 0);
    assert.doesNotMatch(warnings[0].message, /the rest of the tree/);
    const queued = Number(/(\d+) queued file/.exec(warnings[0].message)?.[1] ?? 0);
    const named = warnings.filter((warning) => warning.file).length;
    // Every file is answered, named as being matched, or counted as not searched.
    assert.equal(cut.data.files_matched + queued + named, 150, warnings[0].message);
    assert.ok(cut.data.files_matched < 150);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

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
