import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryCache } from "../core/cache.ts";
import { Walker } from "../core/walk/walker.ts";
import { makeTree } from "./helpers.ts";

const PAST = new Date(Date.now() - 60_000);

/** Sets every directory's (and ignore file's) mtime a minute back, so a walk may be cached. */
async function settle(root: string, paths: string[]): Promise<void> {
  for (const path of paths) await Deno.utime(join(root, path), PAST, PAST);
}

function walk(root: string, cache: MemoryCache): string[] {
  const walker = new Walker({ tool: "llm-search", prefix: "LMS", cwd: root, cache });
  return [...walker.entries()].map((entry) => entry.filePath);
}

Deno.test("a cached walk is reused while its directories are unchanged", async () => {
  const root = await makeTree({ "a.txt": "", "sub/b.txt": "" });
  try {
    await settle(root, ["sub", "."]);
    const cache = new MemoryCache();
    assert.deepEqual(walk(root, cache), ["a.txt", "sub/b.txt"]);
    // A file added behind the cache's back, with its directory's mtime put back: a reused walk
    // cannot see it, which proves the second walk came from the cache.
    await Deno.writeTextFile(join(root, "sub", "hidden-from-cache.txt"), "");
    await settle(root, ["sub"]);
    assert.deepEqual(walk(root, cache), ["a.txt", "sub/b.txt"]);
    assert.deepEqual(walk(root, new MemoryCache()), [
      "a.txt",
      "sub/b.txt",
      "sub/hidden-from-cache.txt",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("adding or removing an entry, or editing an ignore file, invalidates a cached walk", async () => {
  const root = await makeTree({ ".ignore": "*.log\n", "a.txt": "", "b.log": "", "sub/c.txt": "" });
  try {
    await settle(root, ["sub", ".ignore", "."]);
    const cache = new MemoryCache();
    assert.deepEqual(walk(root, cache), ["a.txt", "sub/c.txt"]);
    await Deno.writeTextFile(join(root, "sub", "new.txt"), "");
    assert.deepEqual(walk(root, cache), ["a.txt", "sub/c.txt", "sub/new.txt"]);
    await settle(root, ["sub"]);
    walk(root, cache);
    // Edited in place: the directory's mtime stays, the ignore file's stamp does not.
    await Deno.writeTextFile(join(root, ".ignore"), "*.txt\n");
    await settle(root, ["."]);
    assert.deepEqual(walk(root, cache), ["b.log"]);
    await Deno.remove(join(root, "sub"), { recursive: true });
    assert.deepEqual(walk(root, cache), ["b.log"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walks with different options are cached apart; a fresh tree is not cached", async () => {
  const root = await makeTree({ "a.ts": "", "b.rs": "" });
  try {
    await settle(root, ["."]);
    const cache = new MemoryCache();
    const typed = (types: string[]) =>
      [...new Walker({ tool: "llm-search", prefix: "LMS", cwd: root, cache, types }).entries()]
        .map((entry) => entry.filePath);
    assert.deepEqual(typed(["ts"]), ["a.ts"]);
    assert.deepEqual(typed(["rust"]), ["b.rs"]);
    assert.deepEqual(typed(["ts"]), ["a.ts"]);
    // Just modified: its mtime is too recent to trust, so nothing is stored and a change that
    // keeps the mtime within the same millisecond cannot be missed.
    await Deno.writeTextFile(join(root, "c.ts"), "");
    assert.deepEqual(typed(["ts"]), ["a.ts", "c.ts"]);
    await Deno.writeTextFile(join(root, "d.ts"), "");
    assert.deepEqual(typed(["ts"]), ["a.ts", "c.ts", "d.ts"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a walk that stats cached entries fills copies: the cache keeps them as recorded", async () => {
  const root = await makeTree({ "a.txt": "abc", "sub/b.txt": "" });
  try {
    await settle(root, ["sub", "."]);
    const cache = new MemoryCache();
    const entries = (
      stat: boolean,
    ) => [...new Walker({ tool: "llm-search", prefix: "LMS", cwd: root, cache, stat }).entries()];
    const recorded = entries(false);
    assert.deepEqual(recorded.map((entry) => entry.size), [undefined, undefined]);
    assert.deepEqual(entries(true).map((entry) => entry.size), [3, 0]);
    const again = entries(false);
    assert.deepEqual(again.map((entry) => entry.size), [undefined, undefined]);
    assert.equal(again[0], entries(false)[0], "cached entries are yielded, not copied");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a walk in any order lists the same entries, and never serves a walk in path order", async () => {
  const files = Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`d${i % 3}/f${String(i).padStart(2, "0")}.txt`, ""]),
  );
  const root = await makeTree(files);
  try {
    await settle(root, ["d0", "d1", "d2", "."]);
    const cache = new MemoryCache();
    const anyOrder = (host: MemoryCache) =>
      [...new Walker({
        tool: "llm-discover",
        prefix: "LMD",
        cwd: root,
        cache: host,
        anyOrder: true,
      })
        .entries()].map((entry) => entry.filePath);
    const listed = anyOrder(cache);
    const sorted = Object.keys(files).sort();
    assert.deepEqual([...listed].sort(), sorted);
    // The directories list their entries in an order of their own (ext4 hashes the names):
    // a path-order walk served from the recorded one would come out in that order.
    assert.deepEqual(walk(root, cache), sorted);
    assert.deepEqual(anyOrder(cache), listed);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
