/**
 * `llm-symbols index` keeps the repository index (`.llm/trigram.idx`) while few files changed
 * since its build (the search reads the changed ones directly), and builds it again when there is
 * none, when it is damaged, or when the changes pass the drift bound.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { indexRoot, TRIGRAM_REBUILD_DRIFT } from "../core/symbol_index/indexer.ts";
import { search } from "../tools/search/engine.ts";
import { makeTree } from "./helpers.ts";

const FILES = 120;

async function tree(): Promise<string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`src/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
  return await makeTree(files);
}

const indexPath = (root: string) => join(root, ".llm", "trigram.idx");
const built = async (root: string) =>
  (await indexRoot({ root, threads: 0 })).result.trigram_index !== undefined;

Deno.test("index keeps the repository index after a few edits and rebuilds it past the drift bound", async () => {
  const root = await tree();
  assert.ok(await built(root), "the first run builds it");
  const stamp = Deno.statSync(indexPath(root)).mtime?.getTime();
  await Deno.writeTextFile(join(root, "src/m0.py"), "def f0():\n    return 'edited'\n");
  assert.equal(await built(root), false, "one edit keeps it");
  assert.equal(Deno.statSync(indexPath(root)).mtime?.getTime(), stamp);
  const found = await search({ patterns: ["edited"], cwd: root });
  assert.equal(found.data.match_count, 1, "the edited file is searched directly");
  // Edits accumulate across runs until they pass the bound.
  const bound = Math.floor(TRIGRAM_REBUILD_DRIFT * FILES);
  let rebuilt = false;
  for (let i = 1; i <= bound + 1 && !rebuilt; i++) {
    await Deno.writeTextFile(join(root, `src/m${i}.py`), `def g${i}():\n    return 0\n`);
    rebuilt = await built(root);
  }
  assert.ok(rebuilt, `rebuilt once more than ${bound} files changed since the build`);
});

Deno.test("index rebuilds a damaged or missing repository index", async () => {
  const root = await tree();
  await built(root);
  const bytes = Deno.readFileSync(indexPath(root));
  bytes[bytes.length >> 1] ^= 0xff;
  Deno.writeFileSync(indexPath(root), bytes);
  assert.ok(await built(root), "a damaged index is rebuilt");
  Deno.removeSync(indexPath(root));
  assert.ok(await built(root), "a missing index is rebuilt");
});
