/**
 * Bounded work: a catastrophically backtracking pattern is matched in linear time under a
 * budget, exactly; a search past its budget stops inside the file it is matching, with partial
 * results; an aborted search stops at once; a generous budget changes nothing. Each holds on the
 * calling thread as in workers (a run scoped to the project cannot start them).
 */
import assert from "node:assert/strict";
import { search } from "../tools/search/engine.ts";
import { runEntry } from "./helpers.ts";
import { CATASTROPHIC, SLOW_PATTERN, slowText } from "./slow_search.ts";

async function catastrophicTree(): Promise<string> {
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(`${root}/a.txt`, "aaa\nbbb\n");
  // 2^30 ways to split the a's: V8's (a+)+$ takes seconds on this line, and 2^40 on the next.
  await Deno.writeTextFile(`${root}/b.txt`, "a".repeat(30) + "b\n" + CATASTROPHIC.line);
  await Deno.writeTextFile(`${root}/c.txt`, "x@y\n");
  return root;
}

/**
 * A tree whose search by SLOW_PATTERN takes seconds: `files` files of `megabytes` MB (more than
 * 400 files: a search with more than one thread takes workers).
 */
async function slowTree(files: number, megabytes = 1): Promise<string> {
  const root = await Deno.makeTempDir();
  await Deno.writeTextFile(`${root}/a.txt`, "aaab\n");
  const text = slowText(megabytes);
  for (let i = 0; i < files; i++) {
    await Deno.writeTextFile(`${root}/s${String(i).padStart(3, "0")}.txt`, text);
  }
  return root;
}

Deno.test("a catastrophic pattern under a budget is matched in linear time, exactly", async () => {
  const root = await catastrophicTree();
  try {
    for (const pattern of ["(a+)+$", "(a|a)+$"]) {
      for (const threads of [1, 2]) {
        const started = Date.now();
        const result = await search({ patterns: [pattern], cwd: root, timeoutMs: 60_000, threads });
        const elapsed = Date.now() - started;
        assert.ok(elapsed < 5_000, `${pattern}: took ${elapsed} ms`);
        assert.equal(result.partial, false);
        // The same matches as a pattern that matches what it matches and never backtracks.
        const twin = await search({ patterns: ["a+$"], cwd: root });
        const spans = (r: typeof result) => r.data.matches.map((m) => m.span);
        assert.deepEqual(spans(result), spans(twin), pattern);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

for (
  const [mode, permissions] of [["scoped to the tree (no workers)", "scoped"], [
    "unscoped",
    "unscoped",
  ]] as const
) {
  Deno.test(`--timeout on the CLI, ${mode}: a catastrophic pattern ends at once, exactly`, async () => {
    const root = await catastrophicTree();
    try {
      const started = Date.now();
      const result = await runEntry(
        "tools/search/main.ts",
        ["--timeout", "2000", "--", CATASTROPHIC.pattern, "."],
        {
          cwd: root,
          permissions: [permissions === "scoped" ? `--allow-read=${root}` : "--allow-read"],
        },
      );
      assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
      assert.equal(result.code, 0, result.stderr);
      const envelope = JSON.parse(result.stdout) as {
        status: string;
        data: { matches: { span: { file_path: string; start_line: number } }[] };
      };
      assert.equal(envelope.status, "ok");
      assert.deepEqual(
        envelope.data.matches.map((m) => `${m.span.file_path}:${m.span.start_line}`),
        ["a.txt:1"],
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });

  Deno.test(`--timeout on the CLI, ${mode}: a search past its budget stops inside the file, partial`, async () => {
    const root = await slowTree(4);
    try {
      const started = Date.now();
      const result = await runEntry(
        "tools/search/main.ts",
        ["--timeout", "300", "--threads", "1", "--", SLOW_PATTERN, "."],
        {
          cwd: root,
          permissions: [permissions === "scoped" ? `--allow-read=${root}` : "--allow-read"],
        },
      );
      const elapsed = Date.now() - started;
      assert.equal(result.code, 0, result.stderr);
      const envelope = JSON.parse(result.stdout) as {
        status: string;
        diagnostics: { code: string; file?: string }[];
      };
      assert.equal(envelope.status, "partial");
      const warning = envelope.diagnostics.find((d) => d.code === "LMS-QRY-003");
      assert.match(warning?.file ?? "", /^s\d+\.txt$/, JSON.stringify(envelope.diagnostics));
      // Deno's start and the walk aside, the 4 s of matching stopped at 300 ms.
      assert.ok(elapsed < 3_500, `took ${elapsed} ms`);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  });
}

Deno.test("a pattern that needs backtracking is refused under a budget (LMS-QRY-004), run without one", async () => {
  const root = await catastrophicTree();
  try {
    for (const pattern of ["(a)\\1", "a(?=bb)", "(?<=aa)b"]) {
      await assert.rejects(
        search({ patterns: [pattern], cwd: root, timeoutMs: 1_000 }),
        (error: Error & { code?: string }) => error.code === "LMS-QRY-004",
        pattern,
      );
      await search({ patterns: [pattern], cwd: root });
    }
    const result = await runEntry("tools/search/main.ts", ["--timeout", "2000", "(a)\\1"], {
      cwd: root,
    });
    assert.equal(result.code, 2, result.stdout);
    assert.match(result.stdout, /LMS-QRY-004/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an abort stops a long search within 200 ms of the signal, inline and on workers", async () => {
  // 450 files of 20 KB: about 9 s of matching, on the calling thread (one thread) or workers.
  const root = await slowTree(450, 0.02);
  try {
    for (const threads of [1, 2]) {
      const controller = new AbortController();
      const running = search({
        patterns: [SLOW_PATTERN],
        cwd: root,
        timeoutMs: 60_000,
        threads,
        signal: controller.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const aborted = Date.now();
      controller.abort();
      await assert.rejects(running);
      assert.ok(Date.now() - aborted < 200, `stopped after ${Date.now() - aborted} ms`);
    }
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

Deno.test("plain text cut by its budget: every file is answered, named, or counted as not searched", async () => {
  const root = await Deno.makeTempDir();
  try {
    // 150 matching files of 240 KB, a small walk searched on the calling thread: whatever the
    // machine's speed, a budget of 1 ms ends before the last file (the walk itself is done).
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
      timeoutMs: 1,
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
