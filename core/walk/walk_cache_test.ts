import assert from "node:assert/strict";
import { join } from "node:path";
import { MemoryCache } from "../cache.ts";
import { cachedWalk, mtimeOf, storeWalk, type WalkRecord } from "./walk_cache.ts";

/** The names a walk stamps in each directory above its root (`Walker`'s `#stampAncestors`). */
const ANCESTOR_NAMES = [".gitignore", ".ignore", ".llmignore", ".git", ".git/info/exclude"];

/** A tree top/a/b/root and a cache holding its walk, recorded by a process that reads all. */
interface Scenario {
  top: string;
  a: string;
  b: string;
  root: string;
  cache: MemoryCache;
}

/**
 * Records a walk of top/a/b/root with a `.gitignore` in `ignoreIn` ("a", "b" or none), as the
 * repository index's builder does (made before any test narrows its permissions).
 */
function scenario(ignoreIn?: "a" | "b"): Scenario {
  const top = Deno.realPathSync(Deno.makeTempDirSync());
  const a = join(top, "a");
  const b = join(a, "b");
  const root = join(b, "root");
  Deno.mkdirSync(root, { recursive: true });
  if (ignoreIn) Deno.writeTextFileSync(join(ignoreIn === "a" ? a : b, ".gitignore"), "*.log\n");
  const ancestorStamps = new Map<string, number>();
  for (const dir of [b, a, top]) {
    for (const name of ANCESTOR_NAMES) {
      ancestorStamps.set(join(dir, name), mtimeOf(join(dir, name)));
    }
  }
  const record: WalkRecord = {
    entries: [],
    diagnostics: [],
    stamps: new Map([[root, mtimeOf(root)]]),
    ancestorStamps,
  };
  const cache = new MemoryCache();
  // Stored long after the stamps were taken, so the racy-stamp rule keeps it.
  storeWalk(cache, "walk", record, Date.now() + 10_000);
  return { top, a, b, root, cache };
}

const held = scenario("a");
const changed = scenario("a");
const bare = scenario();
const aboveA = scenario("a");
const aboveB = scenario("b");

Deno.test("a stored walk whose stamps hold is returned, and one whose ignore file changed is not", () => {
  assert.ok(cachedWalk(held.cache, "walk"));
  Deno.utimeSync(join(changed.a, ".gitignore"), 1, 1);
  assert.equal(cachedWalk(changed.cache, "walk"), undefined);
});

Deno.test({
  name: "a walk from wider permissions is used when the folders this run may not read held nothing",
  permissions: { read: [bare.root] },
  fn() {
    assert.ok(cachedWalk(bare.cache, "walk"));
  },
});

Deno.test({
  name: "a walk from wider permissions is not used when a folder this run may not read held rules",
  permissions: { read: [aboveA.root] },
  fn() {
    assert.equal(cachedWalk(aboveA.cache, "walk"), undefined);
  },
});

Deno.test({
  name: "rules in a folder this run reads are checked by their stamps, whatever lies above it",
  permissions: { read: [aboveB.b] },
  fn() {
    assert.ok(cachedWalk(aboveB.cache, "walk"));
  },
});

Deno.test({
  name: "a walk stamping a tree path this process may not read is not used, nor thrown on",
  permissions: { read: [bare.root] },
  fn() {
    const cache = new MemoryCache();
    const outside = join(bare.top, "elsewhere");
    storeWalk(cache, "walk", {
      entries: [],
      diagnostics: [],
      stamps: new Map([[bare.root, mtimeOf(bare.root)], [outside, -1]]),
      ancestorStamps: new Map(),
    }, Date.now() + 10_000);
    assert.equal(cachedWalk(cache, "walk"), undefined);
  },
});
