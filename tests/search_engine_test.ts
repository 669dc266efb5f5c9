import assert from "node:assert/strict";
import { join } from "node:path";
import { search, type SearchOptions } from "../tools/search/main.ts";
import type { SearchMatch } from "../schema/mod.ts";
import { makeTree } from "./helpers.ts";

const encode = (text: string) => new TextEncoder().encode(text);

async function find(files: Record<string, string | Uint8Array>, options: Partial<SearchOptions>) {
  const root = await makeTree(files);
  try {
    return await search({ patterns: [], cwd: root, threads: 1, limit: 0, ...options });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** The bytes a span covers in `content`. */
function covered(content: Uint8Array, match: SearchMatch): Uint8Array {
  return content.subarray(match.span.byte_start, match.span.byte_end);
}

Deno.test("CRLF files: spans stop before \\r\\n and lines count \\r\\n once", async () => {
  const content = "one\r\ntwo target\r\nthree\r\n";
  const { data } = await find({ "a.txt": content }, { patterns: ["target"] });
  const [match] = data.matches;
  assert.equal(match.span.start_line, 2);
  assert.equal(match.span.start_col, 4);
  assert.equal(match.span.byte_start, 9);
  assert.equal(match.line_text, "two target\r");
  assert.equal(new TextDecoder().decode(covered(encode(content), match)), "target");
});

Deno.test("a BOM is counted in byte offsets and columns", async () => {
  const content = new Uint8Array([0xef, 0xbb, 0xbf, ...encode("hit\nhit")]);
  const { data } = await find({ "bom.txt": content }, { patterns: ["hit"] });
  assert.deepEqual(
    data.matches.map((m) => [m.span.byte_start, m.span.start_line, m.span.start_col]),
    [
      [3, 1, 3],
      [7, 2, 0],
    ],
  );
});

Deno.test("2-, 3- and 4-byte characters before and inside matches keep byte offsets exact", async () => {
  const content = "é€😀 naïve→😀x\n";
  const bytes = encode(content);
  const { data } = await find({ "u.txt": content }, { patterns: ["naïve→😀", "x"] });
  assert.equal(data.matches.length, 2);
  const [first, second] = data.matches;
  assert.equal(first.span.byte_start, 10);
  assert.equal(first.span.byte_end, 10 + encode("naïve→😀").length);
  assert.equal(first.matched_text, "naïve→😀");
  assert.deepEqual(covered(bytes, first), encode("naïve→😀"));
  assert.equal(first.span.start_col, 10);
  assert.deepEqual(covered(bytes, second), encode("x"));
});

Deno.test("invalid UTF-8 never crashes; offsets refer to the raw bytes", async () => {
  const content = new Uint8Array([
    0x61,
    0xff,
    0xfe,
    0x62,
    0xe2,
    0x82,
    0x20,
    0x6e,
    0x65,
    0x65,
    0x64,
    0x6c,
    0x65,
    0x0a,
  ]);
  const { data } = await find({ "bad.bin.txt": content }, { patterns: ["needle", "b"] });
  assert.deepEqual(data.matches.map((m) => [m.span.byte_start, m.span.byte_end]), [[3, 4], [
    7,
    13,
  ]]);
  assert.equal(data.matches[1].matched_text, "needle");
  assert.equal(data.matches[0].line_text, "a\uFFFD\uFFFDb\uFFFD needle");
});

Deno.test("empty files and files without a final newline", async () => {
  const { data } = await find({ "empty.txt": "", "tail.txt": "a\nlast" }, { patterns: ["last$"] });
  assert.equal(data.files_searched, 2);
  assert.equal(data.matches.length, 1);
  assert.deepEqual(
    [data.matches[0].span.end_line, data.matches[0].span.end_col, data.matches[0].span.byte_end],
    [2, 4, 6],
  );
});

Deno.test("a 5 MB single-line file: the match is found and line_text is a window around it", async () => {
  const line = "x".repeat(5_000_000) + "NEEDLE" + "y".repeat(1000);
  const { data } = await find({ "big.txt": line }, { patterns: ["NEEDLE"], maxColumns: 100 });
  const [match] = data.matches;
  assert.equal(match.span.byte_start, 5_000_000);
  assert.equal(match.line_truncated, true);
  assert.ok(match.line_text.length <= 100);
  assert.ok(match.line_text.includes("NEEDLE"));
  assert.equal(match.line_text_start_col, 5_000_000 - 50);
});

Deno.test("binary files (NUL in the first 8 KiB) are skipped, not searched", async () => {
  const binary = new Uint8Array([...encode("needle"), 0, 1, 2]);
  const { data } = await find({ "b.dat": binary, "t.txt": "needle" }, { patterns: ["needle"] });
  assert.deepEqual(data.matches.map((m) => m.span.file_path), ["t.txt"]);
  assert.equal(data.files_searched, 1);
});

Deno.test("-w matches whole words, including at the very start and end of the file", async () => {
  const { data } = await find({ "w.txt": "foo foobar barfoo foo" }, {
    patterns: ["foo"],
    wordRegexp: true,
  });
  assert.deepEqual(data.matches.map((m) => m.span.byte_start), [0, 18]);
  const unicode = await find({ "u.txt": "éfoo foo" }, { patterns: ["foo"], wordRegexp: true });
  assert.deepEqual(unicode.data.matches.map((m) => m.span.byte_start), [6]);
});

Deno.test("without -U a match never crosses a line; with -U it spans lines", async () => {
  const files = { "m.txt": "start\nend\nstart end\n" };
  const single = await find(files, { patterns: ["start\\s+end"] });
  assert.deepEqual(single.data.matches.map((m) => m.span.start_line), [3]);
  const multi = await find(files, { patterns: ["start\\s+end"], multiline: true });
  assert.deepEqual(multi.data.matches.map((m) => [m.span.start_line, m.span.end_line]), [[1, 2], [
    3,
    3,
  ]]);
  assert.equal(multi.data.matches[0].matched_text, "start\nend");
});

Deno.test("-F, -i and smart case", async () => {
  const files = { "c.txt": "a.b A.B axb\n" };
  const fixed = await find(files, { patterns: ["a.b"], fixedStrings: true });
  assert.deepEqual(fixed.data.matches.map((m) => m.matched_text), ["a.b"]);
  const insensitive = await find(files, {
    patterns: ["a.b"],
    fixedStrings: true,
    ignoreCase: true,
  });
  assert.deepEqual(insensitive.data.matches.map((m) => m.matched_text), ["a.b", "A.B"]);
  const smartLower = await find(files, { patterns: ["a\\.b"], smartCase: true });
  assert.equal(smartLower.data.matches.length, 2);
  const smartUpper = await find(files, { patterns: ["A\\.B"], smartCase: true });
  assert.equal(smartUpper.data.matches.length, 1);
});

Deno.test("-m counts matching lines per file; --limit cuts the listing and reports the total", async () => {
  const files = { "a.txt": "x x\nx\nx\n", "b.txt": "x\n" };
  const capped = await find(files, { patterns: ["x"], maxCount: 1 });
  assert.deepEqual(capped.data.matches.map((m) => [m.span.file_path, m.span.byte_start]), [
    ["a.txt", 0],
    ["a.txt", 2],
    ["b.txt", 0],
  ]);
  const limited = await find(files, { patterns: ["x"], limit: 2 });
  assert.equal(limited.partial, true);
  assert.equal(limited.data.count, 2);
  assert.equal(limited.data.total, 5);
  assert.equal(limited.data.match_count, 5);
});

Deno.test("context lines before and after, cut at the file edges", async () => {
  const { data } = await find({ "c.txt": "1\n2\nhit\n4\n" }, {
    patterns: ["hit"],
    before: 5,
    after: 5,
  });
  const [match] = data.matches;
  assert.deepEqual(match.context_before, [{ line: 1, text: "1" }, { line: 2, text: "2" }]);
  assert.deepEqual(match.context_after, [{ line: 4, text: "4" }]);
});

Deno.test("files-with-matches and count modes", async () => {
  const files = { "a.txt": "x x\nx\n", "b.txt": "y\n", "c.txt": "x\n" };
  const listed = await find(files, { patterns: ["x"], mode: "files" });
  assert.deepEqual(listed.data.files, ["a.txt", "c.txt"]);
  const counted = await find(files, { patterns: ["x"], mode: "counts" });
  assert.deepEqual(counted.data.counts, [
    { file_path: "a.txt", lines: 2, matches: 3 },
    { file_path: "c.txt", lines: 1, matches: 1 },
  ]);
});

Deno.test("--with-checksums gives sha256 of the span and the file", async () => {
  const { data } = await find({ "a.txt": "abc" }, { patterns: ["b"], withChecksums: true });
  const { sha256 } = await import("../schema/mod.ts");
  assert.deepEqual(data.matches[0].checksums, {
    checksum_before: sha256("b"),
    file_checksum_before: sha256("abc"),
  });
});

Deno.test("walker: nested .gitignore with a negation inside a git work tree, hidden folders", async () => {
  const files = {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "*.log\nbuild/\n",
    "src/.gitignore": "!keep.log\n",
    "src/keep.log": "hit",
    "src/drop.log": "hit",
    "build/out.txt": "hit",
    ".hidden/secret.txt": "hit",
    "src/main.txt": "hit",
  };
  const plain = await find(files, { patterns: ["hit"] });
  assert.deepEqual(plain.data.matches.map((m) => m.span.file_path), [
    "src/keep.log",
    "src/main.txt",
  ]);
  const hidden = await find(files, { patterns: ["hit"], walk: { hidden: true } });
  assert.ok(hidden.data.matches.some((m) => m.span.file_path === ".hidden/secret.txt"));
  assert.ok(!hidden.data.matches.some((m) => m.span.file_path.startsWith(".git/")));
  const all = await find(files, { patterns: ["hit"], walk: { noIgnore: true } });
  assert.deepEqual(all.data.matches.map((m) => m.span.file_path), [
    "build/out.txt",
    "src/drop.log",
    "src/keep.log",
    "src/main.txt",
  ]);
});

Deno.test(".gitignore outside a git work tree is not read; .ignore and .llmignore always are", async () => {
  const { data } = await find({
    ".gitignore": "a.txt\n",
    ".ignore": "b.txt\n",
    ".llmignore": "c.txt\n",
    "a.txt": "hit",
    "b.txt": "hit",
    "c.txt": "hit",
  }, { patterns: ["hit"] });
  assert.deepEqual(data.matches.map((m) => m.span.file_path), ["a.txt"]);
});

Deno.test("globs: later globs win, negation prunes; types and depth and size limits", async () => {
  const files = {
    "a.ts": "hit",
    "b.rs": "hit",
    "deep/c.ts": "hit",
    "deep/deeper/d.ts": "hit",
    "big.ts": "hit" + "x".repeat(5000),
  };
  const globbed = await find(files, {
    patterns: ["hit"],
    walk: { globs: ["*.ts", "!deep/**", "deep/deeper/*.ts"] },
  });
  assert.deepEqual(globbed.data.matches.map((m) => m.span.file_path), ["a.ts", "big.ts"]);
  const typed = await find(files, { patterns: ["hit"], walk: { types: ["rust"] } });
  assert.deepEqual(typed.data.matches.map((m) => m.span.file_path), ["b.rs"]);
  const notTyped = await find(files, { patterns: ["hit"], walk: { typesNot: ["ts"] } });
  assert.deepEqual(notTyped.data.matches.map((m) => m.span.file_path), ["b.rs"]);
  const shallow = await find(files, { patterns: ["hit"], walk: { maxDepth: 2, maxFilesize: 100 } });
  assert.deepEqual(shallow.data.matches.map((m) => m.span.file_path), [
    "a.ts",
    "b.rs",
    "deep/c.ts",
  ]);
});

Deno.test("symlink loops are survived; links are followed only with --follow and only inside the root", async () => {
  const root = await makeTree({ "dir/a.txt": "hit" });
  const outside = await makeTree({ "secret.txt": "hit" });
  try {
    await Deno.symlink(join(root, "dir"), join(root, "dir", "loop"));
    await Deno.symlink(outside, join(root, "out"));
    const plain = await search({ patterns: ["hit"], cwd: root, threads: 1 });
    assert.deepEqual(plain.data.matches.map((m) => m.span.file_path), ["dir/a.txt"]);
    const followed = await search({
      patterns: ["hit"],
      cwd: root,
      threads: 1,
      walk: { follow: true },
    });
    assert.deepEqual(followed.data.matches.map((m) => m.span.file_path), ["dir/a.txt"]);
    const codes = followed.diagnostics.map((d) => d.code);
    assert.ok(codes.includes("LMS-IO-003"));
    assert.ok(followed.diagnostics.some((d) => d.message.includes("loop")));
    assert.ok(followed.diagnostics.some((d) => d.message.includes("outside the root")));
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("worker and inline searches give identical results in the same order", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 900; i++) files[`d${i % 7}/f${i}.txt`] = `line ${i}\nneedle ${i}\n`;
  const root = await makeTree(files);
  try {
    const inline = await search({ patterns: ["needle \\d+"], cwd: root, threads: 1, limit: 0 });
    const strip = (matches: SearchMatch[]) => matches.map((m) => [m.span.span_id, m.matched_text]);
    assert.equal(inline.data.match_count, 900);
    // All on workers, the first files here and the rest on workers, all here.
    for (const inlineMs of [0, 1, 3, 60_000]) {
      const pooled = await search({
        patterns: ["needle \\d+"],
        cwd: root,
        threads: 2,
        limit: 0,
        inlineMs,
      });
      assert.deepEqual(strip(pooled.data.matches), strip(inline.data.matches), `${inlineMs} ms`);
      assert.equal(pooled.data.files_searched, inline.data.files_searched);
    }
    const paths = inline.data.matches.map((m) => m.span.file_path);
    assert.deepEqual(paths, [...paths].sort());
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("files around the read-buffer size are searched whole (buffer growth keeps the bytes)", async () => {
  const sizes = [(1 << 20) - 3, 1 << 20, (1 << 20) + 1000, (1 << 21) + 77, 3 << 20];
  const files: Record<string, string> = {};
  for (const size of sizes) files[`f${size}.txt`] = "x".repeat(size - 7) + "NEEDLE\n";
  for (let i = 0; i < 3; i++) files[`small${i}.txt`] = "NEEDLE\n";
  const { data } = await find(files, { patterns: ["NEEDLE"] });
  assert.equal(data.match_count, sizes.length + 3);
  for (const match of data.matches.filter((m) => m.span.file_path.startsWith("f"))) {
    assert.equal(match.span.byte_start, Number(match.span.file_path.slice(1, -4)) - 7);
  }
});

Deno.test("counted repetitions are spelled out without changing what matches", async () => {
  const files = { "r.txt": "ABCD123 AB12 ABCDE1234 aaaa a\n" };
  for (
    const [pattern, expected] of [
      ["[A-Z]{4}[0-9]{3}", ["ABCD123", "BCDE123"]],
      ["[A-Z]{2,3}\\d{2}", ["ABCD12".slice(1), "AB12", "CDE12"]],
      ["a{2,}", ["aaaa"]],
      ["a{1,2}?", ["a", "a", "a", "a", "a"]],
    ] as const
  ) {
    const { data } = await find(files, { patterns: [pattern] });
    assert.deepEqual(data.matches.map((m) => m.matched_text), expected, pattern);
  }
});

Deno.test("a directory named explicitly inside an ignored directory is still walked", async () => {
  const root = await makeTree({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "vendor/\n",
    "vendor/pkg/a.txt": "hit",
    "src/b.txt": "hit",
  });
  try {
    const named = await search({ patterns: ["hit"], cwd: root, paths: ["vendor/pkg"], threads: 1 });
    assert.deepEqual(named.data.matches.map((m) => m.span.file_path), ["vendor/pkg/a.txt"]);
    const all = await search({ patterns: ["hit"], cwd: root, threads: 1 });
    assert.deepEqual(all.data.matches.map((m) => m.span.file_path), ["src/b.txt"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("empty matches follow ripgrep: none right after a match, none past the final line break", async () => {
  const files = { "e.txt": "abc\n\nxy\n" };
  const positions = async (pattern: string, multiline = false) =>
    (await find(files, { patterns: [pattern], multiline })).data.matches.map((m) => [
      m.span.start_line,
      m.span.start_col,
      m.span.end_col,
    ]);
  const everywhere = [[1, 0, 0], [1, 1, 1], [1, 2, 2], [1, 3, 3], [2, 0, 0], [3, 0, 0], [3, 1, 1], [
    3,
    2,
    2,
  ]];
  assert.deepEqual(await positions(""), everywhere);
  assert.deepEqual(await positions("", true), everywhere);
  assert.deepEqual(await positions("x*"), [[1, 0, 0], [1, 1, 1], [1, 2, 2], [1, 3, 3], [2, 0, 0], [
    3,
    0,
    1,
  ], [3, 2, 2]]);
  const empty = await find({ "none.txt": "" }, { patterns: [""] });
  assert.equal(empty.data.match_count, 0);
});

Deno.test("ripgrep spellings JavaScript reads differently: POSIX classes and leading inline flags", async () => {
  const files = { "p.txt": "abc 123 [:a] MUTEX mutex\n" };
  const texts = async (pattern: string) =>
    (await find(files, { patterns: [pattern] })).data.matches.map((m) => m.matched_text);
  assert.deepEqual(await texts("[[:digit:]]+"), ["123"]);
  assert.deepEqual(await texts("[[:alpha:]]+"), ["abc", "a", "MUTEX", "mutex"]);
  assert.deepEqual(await texts("[^[:space:][:alpha:]]+"), ["123", "[:", "]"]);
  assert.deepEqual(await texts("(?i)mutex"), ["MUTEX", "mutex"]);
  assert.deepEqual(await texts("[:a]"), ["a", ":", "a"], "a plain class stays a plain class");
});

Deno.test("a cancelled search stops with the signal's reason, on the inline and the worker path", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 450; i++) files[`f${i}.txt`] = "hit\n";
  const root = await makeTree(files);
  try {
    // On this thread alone, on workers alone, and on this thread first.
    for (const [threads, inlineMs] of [[1, undefined], [2, 0], [2, undefined]]) {
      const controller = new AbortController();
      controller.abort(new Error("client cancelled"));
      await assert.rejects(
        search({ patterns: ["hit"], cwd: root, threads, inlineMs, signal: controller.signal }),
        /client cancelled/,
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a large file searched in line-aligned pieces gives the same matches as one piece", async () => {
  const lines = Array.from(
    { length: 30_000 },
    (_, i) => `${"é".repeat(i % 3)}row ${i} ${i % 7 === 0 ? "" : "x"}`,
  );
  const text = lines.join("\n") + "\n" + "z".repeat(200_000) + " 42\n";
  const bytes = encode(text);
  const { data } = await find({ "big.txt": text }, { patterns: ["\\d+"] });
  let unit = 0;
  let byte = 0;
  const expected = [...text.matchAll(/\d+/g)].map((m) => {
    byte += encode(text.slice(unit, m.index)).length;
    unit = m.index;
    return byte;
  });
  assert.equal(data.match_count, expected.length);
  assert.deepEqual(data.matches.map((m) => m.span.byte_start), expected);
  const last = data.matches[data.matches.length - 1];
  assert.deepEqual([last.span.start_line, last.matched_text], [30_001, "42"]);
  assert.deepEqual(covered(bytes, last), encode("42"));
});
