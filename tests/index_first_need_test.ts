/**
 * The index on first need (issue 33, item 4): an MCP server that may write `<root>/.llm` builds
 * the index in the background when it starts on a tree without one, and answers the first
 * `repo_map` with the map (a `MAG-IO-028` note when it waited for or made the build), later
 * calls with no note; a call that comes while a first build goes on elsewhere waits for it up to
 * a bound, then answers partial from the files indexed so far (`MAG-IO-029`); a read-only server
 * answers `MAG-IO-013` saying how to build it. Through the SDK client, as an agent calls it.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { makeTree } from "./helpers.ts";
import { connect, FIXTURE } from "./mcp_helpers.ts";
import { MemoryCache } from "../core/cache.ts";
import { liveIndexOnNeed } from "../core/symbol_index/live.ts";
import { RefreshClaim } from "../core/symbol_index/refresh_claim.ts";
import { IndexStore, locateDb } from "../core/symbol_index/store.ts";
import { repoMapTool } from "../tools/symbols/graph_tool.ts";
import { contextTool } from "../tools/context/tool.ts";

interface Answer {
  status: string;
  diagnostics: { code: string; level: string }[];
}

function answerOf(result: unknown): Answer {
  return (result as { structuredContent: Answer }).structuredContent;
}

Deno.test("mcp: the first repo_map on a fresh tree builds the index and answers the map", async () => {
  const root = await makeTree(FIXTURE);
  const server = await connect({
    root,
    permissions: [`--allow-read`, `--allow-write=${join(root, ".llm")}`],
  });
  try {
    const first = answerOf(await server.client.callTool({ name: "repo_map", arguments: {} }));
    assert.equal(first.status, "ok", JSON.stringify(first));
    // The server began the build when it started: the call waited for it (a note), or came
    // after it (none).
    assert.ok(!first.diagnostics.some((d) => d.code === "MAG-IO-013" || d.code === "MAG-IO-029"));
    assert.ok(Deno.statSync(join(root, ".llm", "index.db")).isFile);
    const second = answerOf(await server.client.callTool({ name: "repo_map", arguments: {} }));
    assert.equal(second.status, "ok");
    assert.ok(!second.diagnostics.some((d) => d.code === "MAG-IO-028"));
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp: a read-only server on a fresh tree says how to build the index", async () => {
  const root = await makeTree(FIXTURE);
  const server = await connect({ root, permissions: [`--allow-read`] });
  try {
    const answer = answerOf(await server.client.callTool({ name: "repo_map", arguments: {} }));
    assert.ok(answer.diagnostics.some((d) => d.code === "MAG-IO-013"), JSON.stringify(answer));
    assert.throws(() => Deno.statSync(join(root, ".llm", "index.db")), Deno.errors.NotFound);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

/** Whether `root` has an index whose first run completed (its `indexed_at` is set). */
function indexBuilt(root: string): boolean {
  try {
    const db = new DatabaseSync(join(root, ".llm", "index.db"), { readOnly: true });
    try {
      return db.prepare("SELECT value FROM meta WHERE key = 'indexed_at'").get() !== undefined;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

Deno.test("mcp: a server that may write the index builds it when it starts, before any call", async () => {
  const root = await makeTree(FIXTURE);
  const server = await connect({
    root,
    permissions: [`--allow-read`, `--allow-write=${join(root, ".llm")}`],
  });
  try {
    for (let waited = 0; !indexBuilt(root) && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(indexBuilt(root), "no index 30 s after the server started");
    const answer = answerOf(await server.client.callTool({ name: "repo_map", arguments: {} }));
    assert.equal(answer.status, "ok");
    assert.ok(!answer.diagnostics.some((d) => d.code === "MAG-IO-028"), "built before the call");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a call during a first build elsewhere waits for it, then answers from the files indexed so far", async () => {
  const root = await makeTree(FIXTURE);
  const location = locateDb(root, undefined, true);
  // A first build under way in another process: the index exists, has no
  // completed run, and its refresh claim is held.
  const store = IndexStore.open(location, "write");
  store.close();
  const claim = await RefreshClaim.take(location);
  const cache = new MemoryCache();
  try {
    const started = Date.now();
    const { notes } = await liveIndexOnNeed(cache, root, undefined, undefined, 300);
    assert.ok(Date.now() - started >= 300, "it waited");
    assert.deepEqual(notes.map((note) => note.code), ["MAG-IO-029"]);
    assert.match(notes[0].message, /covers the 0 file\(s\) indexed so far/);
  } finally {
    claim?.[Symbol.dispose]();
    cache.close();
  }
  // Once the build has ended (the claim is free and a run completed), the wait ends at once.
  const cache2 = new MemoryCache();
  try {
    const { indexRoot } = await import("../core/symbol_index/indexer.ts");
    await indexRoot({ root, threads: 0 });
    const { notes } = await liveIndexOnNeed(cache2, root, undefined, undefined, 300);
    assert.deepEqual(notes, []);
  } finally {
    cache2.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a call with a deadline waits for a first build elsewhere only until it, then answers partial", async () => {
  const root = await makeTree(FIXTURE);
  const location = locateDb(root, undefined, true);
  IndexStore.open(location, "write").close();
  const claim = await RefreshClaim.take(location);
  const cache = new MemoryCache();
  try {
    for (
      const [tool, args] of [[repoMapTool, {}], [contextTool, { task: "greet in French" }]] as const
    ) {
      const started = Date.now();
      const { envelope } = await tool.execute(args, {
        executionId: crypto.randomUUID(),
        cwd: root,
        cache,
        // A call the host needs answered within a second, far under the 20 s wait.
        deadline: Date.now() + 1_000,
      });
      const took = Date.now() - started;
      assert.ok(took < 5_000, `${tool.name} answered after ${took} ms`);
      assert.equal(envelope.status, "partial", JSON.stringify(envelope));
      assert.ok(envelope.diagnostics.some((d) => d.code === "MAG-IO-029"));
    }
  } finally {
    claim?.[Symbol.dispose]();
    cache.close();
    await Deno.remove(root, { recursive: true });
  }
});
