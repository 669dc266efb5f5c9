/**
 * The live index a long-lived host keeps in its cache (`core/symbol_index/live.ts`), in process: one
 * open database and one watcher per index, fresh before each query, and nothing left open once
 * the host closes its cache (counted by the process's inotify watches, on Linux).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryCache } from "../core/cache.ts";
import { indexRoot } from "../core/symbol_index/indexer.ts";
import { liveIndex } from "../core/symbol_index/live.ts";
import { findSymbols, findUses } from "../tools/symbols/queries.ts";
import { makeTree } from "./helpers.ts";

const FILES: Record<string, string> = {
  "lib.c": "int helper(void) { return 1; }\n",
  "main.c": "int helper(void);\nint main(void) { return helper(); }\n",
};

const linux = Deno.build.os === "linux";

/**
 * Folders this process watches (inotify watches over its inotify descriptors), read by a shell:
 * Deno asks for --allow-all to read /proc/self itself.
 */
async function watches(): Promise<number> {
  const fds = `/proc/${Deno.pid}/fd`;
  const script = `for fd in ${fds}/*; do [ "$(readlink "$fd")" = anon_inode:inotify ] && ` +
    `grep '^inotify' "/proc/${Deno.pid}/fdinfo/\${fd##*/}"; done; true`;
  const output = await new Deno.Command("sh", {
    args: ["-c", script],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(output.stdout).split("\n").filter(Boolean).length;
}

async function found(cache: MemoryCache, root: string, name: string): Promise<string[]> {
  try {
    const { data } = await findSymbols({ root, cache }, name, "exact");
    return data.results.map((symbol) => symbol.span.file_path);
  } catch (error) {
    if ((error as { code?: string }).code === "MAG-REF-001") return [];
    throw error;
  }
}

Deno.test("live index: one per database, fresh after edits, closed with the cache", async () => {
  const root = await makeTree(FILES);
  await indexRoot({ root, threads: 0 });
  const before = linux ? await watches() : 0;
  const cache = new MemoryCache();
  try {
    assert.equal(liveIndex(cache, root, undefined), liveIndex(cache, root, undefined));
    assert.deepEqual(await found(cache, root, "helper"), ["lib.c"]);
    await Deno.writeTextFile(join(root, "lib.c"), "int assist(void) { return 1; }\n");
    await Deno.writeTextFile(join(root, "main.c"), "int main(void) { return assist(); }\n");
    assert.deepEqual(await found(cache, root, "helper"), []);
    const callers = await findUses({ root, cache }, "assist", { callsOnly: true });
    assert.deepEqual(callers.data.results.map((use) => use.caller?.name), ["main"]);
    await Deno.writeTextFile(join(root, "extra.c"), "void extra(void) {}\n");
    assert.deepEqual(await found(cache, root, "extra"), ["extra.c"]);
    await Deno.remove(join(root, "extra.c"));
    assert.deepEqual(await found(cache, root, "extra"), []);
    await Deno.mkdir(join(root, "pkg"));
    await Deno.writeTextFile(join(root, "pkg/new.c"), "void fresh(void) {}\n");
    assert.deepEqual(await found(cache, root, "fresh"), ["pkg/new.c"]);
    await Deno.writeTextFile(join(root, "pkg/new.c"), "void renewed(void) {}\n");
    assert.deepEqual(await found(cache, root, "renewed"), ["pkg/new.c"], "a new folder is watched");
    if (linux) assert.ok(await watches() > before, "the root is watched");
  } finally {
    cache.close();
  }
  if (linux) assert.equal(await watches(), before, "the watcher is closed with the cache");
});

Deno.test("live index: an edit deep in a folder just before a query is always seen", async () => {
  const root = await makeTree({ "a/b/c/deep.c": "int v0(void) { return 0; }\n", ...FILES });
  await indexRoot({ root, threads: 0 });
  const cache = new MemoryCache();
  try {
    assert.deepEqual(await found(cache, root, "v0"), ["a/b/c/deep.c"]);
    for (let round = 1; round <= 40; round++) {
      Deno.writeTextFileSync(join(root, "a/b/c/deep.c"), `int v${round}(void) { return 0; }\n`);
      assert.deepEqual(await found(cache, root, `v${round}`), ["a/b/c/deep.c"], `round ${round}`);
    }
  } finally {
    cache.close();
  }
});

Deno.test("live index: a missing index is built on first need by a host that may write it", async () => {
  // A host that may not write it answers MAG-IO-013 (tests/index_first_need_test.ts).
  const root = await makeTree(FILES);
  const cache = new MemoryCache();
  const outcome = await findSymbols({ root, cache }, "helper", "exact");
  assert.ok(outcome.diagnostics.some((d) => d.code === "MAG-IO-028"));
  assert.ok(Deno.statSync(join(root, ".llm", "index.db")).isFile);
  const again = await findSymbols({ root, cache }, "helper", "exact");
  assert.ok(!again.diagnostics.some((d) => d.code === "MAG-IO-028"));
  cache.close();
});
