import { deepStrictEqual, equal, rejects } from "node:assert/strict";
import { writeRepositoryIndex } from "./refresh.ts";
import { indexRoot } from "../symbol_index/indexer.ts";
import { startRepositoryBuild } from "./repository_build.ts";

/**
 * A root with a few source and text files, its `.llm/` made and its times an hour old: a build
 * trusts the walk it records only when no folder changed just before it, and two builds compared
 * here must see the same.
 */
function fixture(): string {
  const root = Deno.makeTempDirSync();
  for (let i = 0; i < 5; i++) {
    Deno.writeTextFileSync(`${root}/f${i}.c`, `int f${i}(void) { return g${i}(); }\n`);
    Deno.writeTextFileSync(`${root}/notes${i}.txt`, `note ${i} ${"x".repeat(i * 100)}\n`);
  }
  Deno.mkdirSync(`${root}/.llm`);
  const hourAgo = new Date(Date.now() - 3_600_000);
  Deno.utimeSync(root, hourAgo, hourAgo);
  return root;
}

/** A repository index result without its wall time. */
function withoutTime<T extends { duration_ms: number }>(result: T | undefined) {
  if (!result) return undefined;
  const { duration_ms: _, ...rest } = result;
  return rest;
}

Deno.test("repository index: the worker build writes what the calling thread's build writes", async () => {
  const root = fixture();
  try {
    const inline = writeRepositoryIndex(root, {});
    const inlineBytes = Deno.readFileSync(`${root}/.llm/trigram.idx`).length;
    const pooled = await startRepositoryBuild(root, {}).outcome();
    deepStrictEqual(withoutTime(pooled.result), withoutTime(inline.result));
    deepStrictEqual(pooled.diagnostics, inline.diagnostics);
    equal(Deno.readFileSync(`${root}/.llm/trigram.idx`).length, inlineBytes);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("repository index: an aborted worker build rejects with the reason and writes nothing", async () => {
  const root = fixture();
  try {
    const controller = new AbortController();
    const build = startRepositoryBuild(root, {}, controller.signal);
    controller.abort(new Error("stopped"));
    await rejects(build.outcome(), /stopped/);
    deepStrictEqual([...Deno.readDirSync(`${root}/.llm`)], []);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("index: the repository index of a run with workers equals that of a run without", async () => {
  const root = fixture();
  try {
    const inline = await indexRoot({ root, db: ".llm/inline.db", threads: 0 });
    Deno.removeSync(`${root}/.llm/trigram.idx`);
    const pooled = await indexRoot({ root, db: ".llm/pooled.db", threads: 2 });
    deepStrictEqual(
      withoutTime(pooled.result.trigram_index),
      withoutTime(inline.result.trigram_index),
    );
    deepStrictEqual(
      pooled.result.written,
      inline.result.written.map((written) =>
        written.file_path.startsWith(".llm/inline.db")
          ? { file_path: written.file_path.replace("inline", "pooled") }
          : written
      ),
    );
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
