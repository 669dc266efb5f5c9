/**
 * The stamps a freshness check compares are stats made during the run, whichever thread made
 * them: the worker's share equals `Deno.statSync`, and a file it could not stat (deleted, or
 * changed after) is stat'ed again on the calling thread.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { openIndex } from "../core/trigram/reader.ts";
import { EntryStats } from "../core/trigram/entry_stats.ts";
import { makeTree } from "./helpers.ts";

Deno.test("stamps from the worker equal stats on the calling thread", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`d${i % 4}/f${i}.txt`] = "x".repeat(i);
  const root = await makeTree(files);
  try {
    buildTrigramIndex({ root });
    const index = openIndex(join(root, ".llm", "trigram.idx"))!;
    Deno.removeSync(join(root, "d3/f39.txt"));
    Deno.writeTextFileSync(join(root, "d3/f35.txt"), "changed after indexing");
    const stamps = new EntryStats(index, root, true, 0);
    // Give the worker time to claim the (single) chunk, so its stamps are the ones compared.
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      for (const [id, path] of index.paths.entries()) {
        if (path === "." || !path.includes("/")) continue;
        const absPath = join(root, path);
        const stamp = stamps.of(id, absPath);
        let expected: [number, number] | undefined;
        try {
          const info = Deno.statSync(absPath);
          expected = [info.size, info.mtime!.getTime()];
        } catch {
          expected = undefined;
        }
        assert.deepEqual(stamp, expected, path);
      }
    } finally {
      stamps.close();
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("the worker stats only the files asked for; the others are stat'ed when asked", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`d${i % 4}/f${i}.${i % 2 ? "c" : "txt"}`] = "x".repeat(i);
  const root = await makeTree(files);
  try {
    buildTrigramIndex({ root });
    const index = openIndex(join(root, ".llm", "trigram.idx"))!;
    const stamps = new EntryStats(index, root, true, 0, (path) => path.endsWith(".c"));
    await stamps.workerDone;
    try {
      // Grown after the worker ran: a wanted file keeps the worker's stamp, another is new.
      for (const path of ["d1/f1.c", "d2/f2.txt"]) {
        Deno.writeTextFileSync(join(root, path), "grown after the worker ran");
      }
      for (const [path, size] of [["d1/f1.c", 1], ["d2/f2.txt", 26]] as const) {
        const id = index.idOf(path)!;
        assert.equal(stamps.of(id, join(root, path))?.[0], size, path);
      }
    } finally {
      stamps.close();
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
