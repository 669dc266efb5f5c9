import assert from "node:assert/strict";
import { discover } from "../tools/discover/main.ts";
import { discoverTool } from "../tools/discover/tool.ts";
import type { DiscoverData } from "../schema/mod.ts";
import { assertValidEnvelope, makeTree, parseJson, runEntry, withoutRunFields } from "./helpers.ts";

const ENTRY = "tools/discover/main.ts";

const FIXTURE: Record<string, string> = {
  "core/walk/walker.ts": "export class Walker {}\n",
  "core/walk/ignore_rules.ts": "// rules\n",
  "tests/walker_test.ts": "// test\n",
  "docs/walking.md": "# walking\n",
  "docs/café/naïve.md": "accents\n",
  "README.md": "# readme\n",
  "src/main.ts": "main\n",
  "src/deep/er/still/mainly.ts": "deeper main\n",
  ".hidden/walker.ts": "hidden\n",
  "vendor/walker.ts": "ignored\n",
  ".ignore": "vendor/\n",
};

interface Envelope {
  status: string;
  partial?: boolean;
  data: DiscoverData;
  diagnostics: { code: string; level: string; message: string; remediation?: string }[];
}

async function withTree(body: (root: string) => Promise<void>): Promise<void> {
  const root = await makeTree(FIXTURE);
  try {
    await body(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function run(root: string, args: string[]): Promise<Envelope> {
  const result = await runEntry(ENTRY, args, { cwd: root, permissions: [`--allow-read=${root}`] });
  assert.equal(result.code, 0, result.stderr);
  const envelope = parseJson(result);
  assertValidEnvelope(discoverTool, envelope);
  return envelope as unknown as Envelope;
}

Deno.test("scoped --allow-read=<root> under --no-prompt is enough; the envelope validates", async () => {
  await withTree(async (root) => {
    const envelope = await run(root, ["walker"]);
    assert.equal(envelope.status, "ok");
    const { data } = envelope;
    assert.equal(data.query, "walker");
    assert.equal(data.count, data.results.length);
    assert.equal(data.total, data.count);
    const first = data.results[0];
    assert.equal(first.path, "core/walk/walker.ts");
    assert.equal(first.reason, "exact basename");
    assert.equal(first.kind, "file");
    assert.equal(first.size, "export class Walker {}\n".length);
    assert.deepEqual(first.positions, [10, 11, 12, 13, 14, 15]);
    assert.ok(first.score > 0 && first.score <= 1);
    const paths = data.results.map((result) => result.path);
    assert.ok(!paths.includes(".hidden/walker.ts"), "hidden files are skipped");
    assert.ok(!paths.includes("vendor/walker.ts"), ".ignore is honoured");
    for (let i = 1; i < data.results.length; i++) {
      const [a, b] = [data.results[i - 1], data.results[i]];
      assert.ok(
        a.raw_score > b.raw_score || (a.raw_score === b.raw_score && a.path < b.path),
        "sorted by score desc, then path asc",
      );
    }
  });
});

Deno.test("identical input gives identical output, ids and timestamps aside", async () => {
  await withTree(async (root) => {
    const args = ["ma", "--limit", "0"];
    const options = { cwd: root, permissions: [`--allow-read=${root}`] };
    const [one, two] = [await runEntry(ENTRY, args, options), await runEntry(ENTRY, args, options)];
    assert.equal(withoutRunFields(one.stdout), withoutRunFields(two.stdout));
  });
});

Deno.test("an empty query lists files in path order, cut by the limit with partial and total", async () => {
  await withTree(async (root) => {
    const envelope = await run(root, ["", "--limit", "3"]);
    assert.equal(envelope.status, "partial");
    assert.equal(envelope.partial, true);
    assert.deepEqual(envelope.data.results.map((result) => result.path), [
      "README.md",
      "core/walk/ignore_rules.ts",
      "core/walk/walker.ts",
    ]);
    assert.equal(envelope.data.count, 3);
    assert.equal(envelope.data.total, 8);
    assert.ok(envelope.data.results.every((result) => result.reason === "listed"));
    const all = await run(root, ["--limit", "0"]);
    assert.equal(all.status, "ok");
    assert.equal(all.partial, undefined);
    assert.equal(all.data.count, 8);
  });
});

Deno.test("the limit keeps the best results, not the first ones walked", async () => {
  await withTree(async (root) => {
    const envelope = await run(root, ["main", "--limit", "1"]);
    assert.deepEqual(envelope.data.results.map((result) => result.path), ["src/main.ts"]);
    assert.equal(envelope.data.total, 2);
    assert.equal(envelope.partial, true);
  });
});

Deno.test("walker filters pass through: --hidden, --no-ignore, --glob, --type, --max-depth, -e", async () => {
  await withTree(async (root) => {
    const paths = async (args: string[]) =>
      (await run(root, args)).data.results.map((result) => result.path).sort();
    assert.ok((await paths(["walker", "--hidden"])).includes(".hidden/walker.ts"));
    assert.ok((await paths(["walker", "--no-ignore"])).includes("vendor/walker.ts"));
    assert.deepEqual(await paths(["walker", "-g", "tests/**"]), ["tests/walker_test.ts"]);
    assert.deepEqual(await paths(["", "-t", "md"]), [
      "README.md",
      "docs/café/naïve.md",
      "docs/walking.md",
    ]);
    assert.deepEqual(await paths(["", "-d", "1"]), ["README.md"]);
    assert.deepEqual(
      await paths(["", "-e", "MD", "-e", ".ts", "-g", "!core/**", "-g", "!src/**"]),
      [
        "README.md",
        "docs/café/naïve.md",
        "docs/walking.md",
        "tests/walker_test.ts",
      ],
    );
  });
});

Deno.test("--kind dir finds directories (size null), not the root itself", async () => {
  await withTree(async (root) => {
    const envelope = await run(root, ["walk", "--kind", "dir"]);
    assert.deepEqual(
      envelope.data.results.map((result) => [result.path, result.kind, result.size]),
      [
        ["core/walk", "dir", null],
      ],
    );
    const listing = await run(root, ["", "--kind", "dir", "--limit", "0"]);
    assert.ok(!listing.data.results.some((result) => result.path === "."));
    assert.ok(listing.data.results.some((result) => result.path === "src/deep/er"));
  });
});

Deno.test("extended syntax and non-ASCII through the command line", async () => {
  await withTree(async (root) => {
    const envelope = await run(root, ["naive .md$ !walk"]);
    assert.deepEqual(envelope.data.results.map((result) => result.path), ["docs/café/naïve.md"]);
    assert.deepEqual(envelope.data.results[0].positions, [11, 12, 13, 15, 16, 17, 18, 19]);
    const sensitive = await run(root, ["Walker"]);
    assert.equal(sensitive.data.total, 0, "smart case: no path has a capital W");
    const forced = await run(root, ["Walker", "--case", "insensitive"]);
    assert.ok(forced.data.total > 0);
  });
});

Deno.test("paths given on the command line: the query matches below them, positions index the whole path", async () => {
  await withTree(async (root) => {
    const envelope = await run(root, ["mainly", "src/deep"]);
    const [result] = envelope.data.results;
    assert.equal(result.path, "src/deep/er/still/mainly.ts");
    assert.deepEqual(result.positions, [18, 19, 20, 21, 22, 23]);
    assert.equal(result.reason, "exact basename");
    const borrowing = await run(root, ["srcmain", "src/deep"]);
    assert.equal(borrowing.data.total, 0, "the named directory's own path is not matched");
    const anchored = await run(root, ["^er/", "src/deep"]);
    assert.equal(anchored.data.total, 1, "^ anchors at the top of the named directory");
    const named = await run(root, ["main", "src/main.ts"]);
    assert.equal(named.data.results[0].reason, "exact basename");
  });
});

Deno.test("--format jsonl writes one result per line, then the summary", async () => {
  await withTree(async (root) => {
    const result = await runEntry(ENTRY, ["walker", "--format", "jsonl"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const summary = lines.pop();
    assert.equal(summary.type, "summary");
    assert.equal(summary.data.count, lines.length);
    assert.ok(lines.every((line) => line.type === "result" && typeof line.path === "string"));
  });
});

Deno.test("a path outside the permitted root is LMD-PERM-001, exit 4, no stack trace", async () => {
  await withTree(async (root) => {
    const outside = await makeTree({ "x.ts": "" });
    try {
      const result = await runEntry(ENTRY, ["x", outside], {
        cwd: root,
        permissions: [`--allow-read=${root}`],
      });
      assert.equal(result.code, 4);
      const envelope = parseJson(result) as unknown as Envelope;
      assertValidEnvelope(discoverTool, envelope);
      assert.equal(envelope.diagnostics[0].code, "LMD-PERM-001");
      assert.match(envelope.diagnostics[0].remediation ?? "", /--allow-read/);
      assert.ok(!result.stderr.includes("    at "), "no stack trace");
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});

Deno.test("a missing path is an LMD-IO-001 error diagnostic, exit 2", async () => {
  await withTree(async (root) => {
    const result = await runEntry(ENTRY, ["x", "nope"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(result.code, 2, result.stderr);
    const envelope = parseJson(result) as unknown as Envelope;
    assertValidEnvelope(discoverTool, envelope);
    assert.equal(envelope.status, "error");
    assert.equal(envelope.diagnostics[0].code, "LMD-IO-001");
  });
});

Deno.test("the engine is a plain library function", async () => {
  await withTree(async (root) => {
    const outcome = await discover({ query: "readme", cwd: root });
    assert.equal(outcome.data.results[0].path, "README.md");
    assert.equal(outcome.data.results[0].reason, "exact basename");
    assert.equal(outcome.partial, false);
  });
});

Deno.test("the walk's diagnostics come in path order, whatever order the folders list them in", async () => {
  // Six folders, each with an ignore file holding a bad glob: the walk, in the order each
  // directory lists its entries, meets their warnings in that order (ext4 hashes the names).
  const folders = ["d0", "d1", "d2", "d3", "d4", "d5"];
  const root = await makeTree(
    Object.fromEntries(folders.flatMap((d) => [[`${d}/.ignore`, "[bad\n"], [`${d}/x.ts`, ""]])),
  );
  try {
    const { diagnostics } = await run(root, ["x"]);
    const files = diagnostics.map((d) => (d as { file?: string }).file);
    assert.deepEqual(files, folders.map((d) => `${d}/.ignore`));
    assert.ok(diagnostics.every((d) => d.code === "LMD-IO-005"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
