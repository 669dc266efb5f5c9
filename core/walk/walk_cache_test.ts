import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryCache } from "../cache.ts";
import { cachedWalk, mtimeOf, storeWalk, type WalkRecord } from "./walk_cache.ts";

/** A walk of `root` stamped, as a process that may read everything records it. */
function recordedWalk(root: string, outside: string): WalkRecord {
  return {
    entries: [],
    diagnostics: [],
    stamps: new Map([[root, mtimeOf(root)]]),
    ancestorStamps: new Map([[join(outside, ".gitignore"), mtimeOf(join(outside, ".gitignore"))]]),
  };
}

const root = Deno.makeTempDirSync();
const outside = Deno.makeTempDirSync();
const cache = new MemoryCache();
// Stored long after the stamps were taken, so the racy-stamp rule keeps it.
storeWalk(cache, "walk", recordedWalk(root, outside), Date.now() + 10_000);

Deno.test("a stored walk whose stamps hold is returned", () => {
  assert.ok(cachedWalk(cache, "walk"));
});

Deno.test({
  name: "a stored walk stamping a path this process may not read is not used, nor thrown on",
  permissions: { read: [root] },
  fn() {
    assert.equal(cachedWalk(cache, "walk"), undefined);
  },
});
