/**
 * The warm cache the MCP server hands every run: stamped entries, invalidation by path, and the
 * racy-entry guard that keeps a same-size edit in the same mtime tick from going unseen.
 */
import assert from "node:assert/strict";
import { MemoryCache } from "./cache.ts";

Deno.test("mcp cache: stamps, invalidation by path and in full", () => {
  const cache = new MemoryCache(10, 1_000);
  const old = Date.now() - 60_000;
  cache.set("parse", "/r/a.ts", { size: 3, mtimeMs: old }, "tree a");
  cache.set("matches", "/r/a.ts", { size: 3, mtimeMs: old }, ["m"]);
  cache.set("parse", "/r/b.ts", { size: 4, mtimeMs: old }, "tree b");
  assert.equal(cache.get("parse", "/r/a.ts", { size: 3, mtimeMs: old }), "tree a");
  assert.equal(cache.get("parse", "/r/a.ts", { size: 3, mtimeMs: old + 1 }), undefined);
  assert.equal(cache.get("parse", "/r/a.ts", { size: 5, mtimeMs: old }), undefined);
  cache.invalidate("/r/a.ts");
  assert.equal(cache.get("parse", "/r/a.ts", { size: 3, mtimeMs: old }), undefined);
  assert.equal(cache.get("matches", "/r/a.ts", { size: 3, mtimeMs: old }), undefined);
  assert.equal(cache.get("parse", "/r/b.ts", { size: 4, mtimeMs: old }), "tree b");
  cache.invalidate();
  assert.equal(cache.get("parse", "/r/b.ts", { size: 4, mtimeMs: old }), undefined);
});

Deno.test("mcp cache: entries of files modified just before they were stored are not trusted", () => {
  const guarded = new MemoryCache(10, 1_000);
  const fresh = { size: 3, mtimeMs: Date.now() };
  guarded.set("parse", "/r/a.ts", fresh, "tree");
  assert.equal(guarded.get("parse", "/r/a.ts", fresh), undefined, "racily clean: recompute");
  const withChecksum = { ...fresh, checksum: "sha256:" + "0".repeat(64) };
  guarded.set("parse", "/r/c.ts", withChecksum, "tree");
  assert.equal(guarded.get("parse", "/r/c.ts", withChecksum), "tree", "a checksum settles it");
  const older = { size: 3, mtimeMs: Date.now() - 5_000 };
  guarded.set("parse", "/r/b.ts", older, "tree");
  assert.equal(guarded.get("parse", "/r/b.ts", older), "tree");

  const unguarded = new MemoryCache(10);
  unguarded.set("parse", "/r/a.ts", fresh, "tree");
  assert.equal(unguarded.get("parse", "/r/a.ts", fresh), "tree", "no window: plain stamps");
});

Deno.test("mcp cache: bounded by entries, oldest path out first", () => {
  const cache = new MemoryCache(2);
  const stamp = { size: 1, mtimeMs: 1 };
  cache.set("n", "/a", stamp, 1);
  cache.set("n", "/b", stamp, 2);
  cache.set("n", "/c", stamp, 3);
  assert.equal(cache.get("n", "/a", stamp), undefined);
  assert.equal(cache.get("n", "/c", stamp), 3);
});
