/**
 * The indexed file list stands in for the walk only while it is true: the walker takes it when
 * every directory and ignore file keeps its stamp (and gets the entries and diagnostics a real
 * walk gives), and walks for real once one changed. `llm-discover` answers the same with or
 * without it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { openIndex, openIndexListing } from "../core/trigram/reader.ts";
import { IndexWalkSource } from "../core/trigram/walk_source.ts";
import { Walker } from "../core/walk/walker.ts";
import { copyEntry } from "../core/walk/walk_entry.ts";
import { discover } from "../tools/discover/engine.ts";
import { makeTree, parseJson, runEntry } from "./helpers.ts";

const FILES: Record<string, string> = {
  ".gitignore": "*.log\n[bad\n",
  "src/main.c": "int main;\n",
  "src/util/str.c": "char *s;\n",
  "src/debug.log": "ignored\n",
  ".hidden/x.txt": "hidden\n",
  "README.md": "# readme\n",
};

function age(root: string): void {
  const past = Date.now() / 1000 - 3600;
  for (const path of [...Object.keys(FILES), "src/util", "src", ".hidden", ".llm", "."]) {
    Deno.utimeSync(join(root, path), past, past);
  }
}

async function indexedRoot(): Promise<string> {
  const root = await makeTree(FILES);
  Deno.mkdirSync(join(root, ".git"));
  Deno.mkdirSync(join(root, ".llm"));
  age(root);
  buildTrigramIndex({ root });
  return root;
}

function walk(root: string, cache?: IndexWalkSource, includeDirs = false) {
  const walker = new Walker({ tool: "llm-discover", prefix: "LMD", cwd: root, cache, includeDirs });
  // Plain copies: the listing's entries compute some fields when read.
  const entries = [...walker.entries()].map(copyEntry);
  return { entries, diagnostics: walker.diagnostics };
}

Deno.test("the indexed walk is served while its stamps hold and equals a real walk", async () => {
  const root = await indexedRoot();
  try {
    const path = join(root, ".llm", "trigram.idx");
    const listing = openIndexListing(path)!;
    const index = openIndex(path)!;
    for (const includeDirs of [false, true]) {
      for (
        const [opened, oneShot] of [[listing, true], [listing, false], [index, false]] as const
      ) {
        const source = new IndexWalkSource(opened, "llm-discover", "LMD", oneShot);
        const served = walk(root, source, includeDirs);
        assert.equal(source.served, true);
        assert.deepEqual(served, walk(root, undefined, includeDirs));
        assert.deepEqual(served.diagnostics.map((d) => d.code), ["LMD-IO-005"]);
      }
    }
    Deno.writeTextFileSync(join(root, "src", "util", "new.c"), "int n;\n");
    const source = new IndexWalkSource(index, "llm-discover", "LMD");
    const walked = walk(root, source);
    assert.equal(source.served, false);
    assert.ok(walked.entries.some((entry) => entry.filePath === "src/util/new.c"));
    const hidden = new Walker({ tool: "t", prefix: "LMD", cwd: root, hidden: true, cache: source });
    assert.ok([...hidden.entries()].some((entry) => entry.filePath === ".hidden/x.txt"));
    assert.equal(source.served, false);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("a walk that stats the listing's entries gets plain copies with every field", async () => {
  const root = await indexedRoot();
  try {
    const listing = openIndexListing(join(root, ".llm", "trigram.idx"))!;
    const source = new IndexWalkSource(listing, "llm-discover", "LMD", true);
    const walker = new Walker({ tool: "t", prefix: "LMD", cwd: root, cache: source, stat: true });
    const entries = [...walker.entries()];
    assert.equal(source.served, true);
    const real = Deno.realPathSync(root);
    assert.deepEqual(
      entries.map(({ filePath, absPath, name, depth, size }) => ({
        filePath,
        absPath,
        name,
        depth,
        size,
      })),
      walk(root).entries.map(({ filePath, name, depth }) => ({
        filePath,
        absPath: join(real, filePath),
        name,
        depth,
        size: Deno.statSync(join(root, filePath)).size,
      })),
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("llm-discover answers the same with and without the index", async () => {
  const root = await indexedRoot();
  try {
    for (const query of ["main", "str", "", "read"]) {
      const withIndex = await discover({ query, cwd: root });
      const without = await discover({ query, cwd: root, useIndex: false });
      assert.deepEqual(withIndex, without);
    }
    Deno.removeSync(join(root, "src", "main.c"));
    const withIndex = await discover({ query: "main", cwd: root });
    assert.deepEqual(withIndex, await discover({ query: "main", cwd: root, useIndex: false }));
    assert.equal(withIndex.data.count, 0);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("llm-discover --no-index never opens the index", async () => {
  const root = await indexedRoot();
  try {
    const path = join(root, ".llm", "trigram.idx");
    Deno.writeFileSync(path, Deno.readFileSync(path).subarray(0, 200));
    const run = async (extra: string[]) => {
      const result = await runEntry("tools/discover/main.ts", ["main", ...extra], { cwd: root });
      assert.equal(result.code, 0, result.stderr);
      return parseJson(result) as unknown as {
        diagnostics: { code: string }[];
        data: { results: { path: string }[] };
      };
    };
    const codes = (run: { diagnostics: { code: string }[] }) => run.diagnostics.map((d) => d.code);
    // LMD-IO-005 is the .gitignore's bad line, met by the walk.
    const damaged = await run([]);
    assert.deepEqual(codes(damaged), ["LMD-IO-010", "LMD-IO-005"]);
    const skipped = await run(["--no-index"]);
    assert.deepEqual(codes(skipped), ["LMD-IO-005"]);
    assert.deepEqual(skipped.data.results, damaged.data.results);
    assert.equal(skipped.data.results[0].path, "src/main.c");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

/** Sets every path under `top` (and `top`) an hour back: no stamp is racy. */
function ageAll(top: string): void {
  const past = Date.now() / 1000 - 3600;
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isDirectory) visit(join(dir, entry.name));
      Deno.utimeSync(join(dir, entry.name), past, past);
    }
  };
  visit(top);
  Deno.utimeSync(top, past, past);
}

/** `llm-search needle` in `root`, allowed to read `root` only; its index report and files. */
async function scopedSearch(root: string, extra: string[] = []) {
  const result = await runEntry("tools/search/main.ts", ["needle", ...extra], {
    cwd: root,
    permissions: [`--allow-read=${root}`],
  });
  const envelope = parseJson(result) as {
    data: { index?: { walk: boolean }; matches: { span: { file_path: string } }[] };
  };
  const files = envelope.data.matches.map((match) => match.span.file_path).sort();
  return { walk: envelope.data.index?.walk, files };
}

Deno.test("a search that may read only its root uses the indexed walk unless a folder above held rules", async () => {
  for (const rules of [undefined, "*.log\n"]) {
    const top = await makeTree({ "root/src/a.c": "needle\n", "root/src/b.log": "needle\n" });
    try {
      const root = join(top, "root");
      if (rules) Deno.writeTextFileSync(join(top, ".gitignore"), rules);
      Deno.mkdirSync(join(root, ".llm"));
      ageAll(top);
      // Built by a process that reads everything: the rules above the root shape its walk.
      buildTrigramIndex({ root });
      const indexed = await scopedSearch(root);
      assert.equal(indexed.walk, rules === undefined, `rules above: ${rules}`);
      // The scoped run cannot read the rules above, so it must find what an unindexed run finds.
      assert.deepEqual(indexed.files, (await scopedSearch(root, ["--no-index"])).files);
      assert.deepEqual(indexed.files, ["src/a.c", "src/b.log"]);
    } finally {
      Deno.removeSync(top, { recursive: true });
    }
  }
});
