/**
 * The MCP server keeps the repository index fresh with a file watcher: across edits, additions,
 * deletions, renames (of files and of folders, away and back), ignore-rule changes and the
 * server's own transforms made between calls, its searches answer exactly as a search without
 * the index, and say that the watcher (not a stat of every file) told the changed files. Where
 * no watcher can start, the same holds with a stat of every file and an `LMS-IO-011` note.
 * Last, through the real server (call workers, stdio): a file written just before a call is
 * never missed.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { LiveTrigramIndex } from "../core/trigram/live.ts";
import { ExecutionLog } from "../core/execution_log.ts";
import { warmCache } from "../tools/mcp/call_protocol.ts";
import { queryScope } from "../tools/mcp/scope.ts";
import { ToolServer } from "../tools/mcp/server.ts";
import { TOOLS } from "../tools/registry.ts";
import { search } from "../tools/search/engine.ts";
import { discover } from "../tools/discover/engine.ts";
import type { Diagnostic } from "../schema/diagnostic.ts";
import type { SearchData } from "../schema/search.ts";
import { Random } from "./search_regex_gen.ts";
import { connect } from "./mcp_helpers.ts";

const WORDS = ["PM_RESUME", "spin_lock", "copy_process", "abc", "KAS", "x_1"];
const DIRS = ["", "a", "a/b", "c", "logs"];
/** An hour ago: the tree is older than any clock tick an edit may share. */
const PAST = Date.now() / 1000 - 3600;

function text(random: Random): string {
  const lines = Array.from(
    { length: 1 + random.int(6) },
    () => Array.from({ length: 1 + random.int(4) }, () => random.pick(WORDS)).join(" "),
  );
  return lines.join("\n") + "\n";
}

function write(path: string, content: string): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeTextFileSync(path, content);
}

/** The files (or the folders, root included) of the tree, hidden ones left out. */
function listFiles(root: string, folders = false): string[] {
  const found: string[] = folders ? [root] : [];
  const visit = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) visit(path);
      if (entry.isDirectory === folders) found.push(path);
    }
  };
  visit(root);
  return found.sort();
}

/** An indexed git work tree, every file and folder stamped an hour old. */
function indexedRoot(random: Random, extra: Record<string, string> = {}): string {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "llm-index-watch-" }));
  Deno.mkdirSync(join(root, ".git"));
  Deno.mkdirSync(join(root, ".llm"));
  Deno.writeTextFileSync(join(root, ".gitignore"), "*.log\nlogs/\n");
  for (let i = 0; i < 30; i++) {
    write(join(root, random.pick(DIRS), `f${i}.${random.pick(["c", "txt", "log"])}`), text(random));
  }
  for (const [path, content] of Object.entries(extra)) write(join(root, path), content);
  ageTree(root, 0);
  buildTrigramIndex({ root });
  return root;
}

/**
 * Stamps everything `offset` seconds after an hour ago, so the next walk is kept (a walk that
 * saw a recent change is not); an offset other than the index's keeps edits' stamps distinct.
 */
function ageTree(root: string, offset: number): void {
  const time = PAST + offset;
  for (const file of [...listFiles(root), join(root, ".gitignore"), join(root, ".git")]) {
    Deno.utimeSync(file, time, time);
  }
  for (const dir of listFiles(root, true).reverse()) Deno.utimeSync(dir, time, time);
}

/** One change made outside the server (some by another process); returns what it did. */
async function mutate(random: Random, root: string, step: number): Promise<string> {
  const files = listFiles(root);
  const file = random.pick(files);
  switch (random.int(7)) {
    case 0:
      write(file, text(random));
      return `rewrite ${file}`;
    case 1: {
      // Another process appends.
      const line = `${random.pick(WORDS)} appended\n`;
      const shell = new Deno.Command("sh", {
        args: ["-c", `printf '${line}' >> "$1"`, "sh", file],
      });
      assert.equal((await shell.output()).code, 0);
      return `append (sh) ${file}`;
    }
    case 2: {
      const path = join(root, random.pick(DIRS), `new${step}.${random.pick(["c", "log"])}`);
      write(path, text(random));
      return `add ${path}`;
    }
    case 3:
      Deno.removeSync(file);
      return `delete ${file}`;
    case 4: {
      const to = join(root, random.pick(DIRS), `moved${step}.c`);
      Deno.mkdirSync(dirname(to), { recursive: true });
      Deno.renameSync(file, to);
      return `rename ${file} -> ${to}`;
    }
    case 5: {
      // A folder renamed away, a file edited there, the folder renamed back.
      const folder = join(root, random.pick(["a", "c"]));
      const away = join(root, `away${step}`);
      try {
        Deno.renameSync(folder, away);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return `no folder ${folder}`;
        throw error;
      }
      const inside = listFiles(away);
      if (inside.length) write(random.pick(inside), text(random));
      Deno.renameSync(away, folder);
      return `folder ${folder} away and back`;
    }
    default: {
      Deno.writeTextFileSync(join(root, ".gitignore"), random.pick(["*.log\n", "a/\n", ""]));
      return "rules";
    }
  }
}

/** The server's full search data and diagnostics for `pattern`. */
async function served(
  server: ToolServer,
  pattern: string,
): Promise<{ data: SearchData; diagnostics: Diagnostic[] }> {
  const result = await server.callTool("search", { patterns: [pattern], detail: "full" });
  assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
  return result.structuredContent as unknown as { data: SearchData; diagnostics: Diagnostic[] };
}

/** Data and diagnostics without run-specific ids and the index report. */
function comparable(data: SearchData, diagnostics: Diagnostic[]): string {
  const { index: _index, ...rest } = data;
  const matches = rest.matches.map(({ match_id: _id, ...match }) => match);
  return JSON.stringify({ ...rest, matches, diagnostics });
}

async function unindexed(root: string, pattern: string): Promise<string> {
  const plain = await search({ patterns: [pattern], cwd: root, useIndex: false, threads: 1 });
  return comparable(plain.data, plain.diagnostics);
}

/** A server on `root` whose calls run on this thread with a warm cache. */
function inProcessServer(root: string, cache = warmCache()): ToolServer {
  return new ToolServer({
    tools: TOOLS,
    scope: queryScope(root),
    log: new ExecutionLog(),
    cache,
    maxOutputBytes: 10_000_000,
  });
}

Deno.test("mcp index: with the watcher, searches equal unindexed ones across changes between calls", async () => {
  const random = new Random(17_2026);
  const root = indexedRoot(random);
  const server = inProcessServer(root);
  const history: string[] = [];
  let ruledOut = 0;
  let trustedWalks = 0;
  try {
    for (let round = 0; round < 12; round++) {
      if (round > 0) {
        for (let i = random.int(3); i >= 0; i--) {
          history.push(await mutate(random, root, round * 10 + i));
        }
      }
      if (round % 4 === 3) {
        // The next walk is kept and trusted, so the changes after it must invalidate it.
        ageTree(root, round);
        history.push("aged");
      }
      if (round % 3 === 2) {
        // The server's own transform: a word replaced in a file that holds it.
        const holder = listFiles(root).find((path) => Deno.readTextFileSync(path).includes("abc"));
        if (holder) {
          const result = await server.callTool("transform", {
            file: holder.slice(root.length + 1),
            old: "abc",
            new: "PM_RESUME",
            all: true,
          });
          assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
          history.push(`transform ${holder}`);
        }
      }
      for (const pattern of WORDS) {
        const { data, diagnostics } = await served(server, pattern);
        const context = `round ${round}, ${pattern}, after: ${history.join("; ")}`;
        assert.equal(comparable(data, diagnostics), await unindexed(root, pattern), context);
        assert.equal(data.index?.freshness, "watcher", context);
        ruledOut += data.index?.files_ruled_out ?? 0;
        if (round > 0 && data.index?.walk) trustedWalks++;
      }
      // Discover takes the same kept walk.
      const listed = await server.callTool("discover", { query: "f1", detail: "full" });
      const plain = await discover({ query: "f1", cwd: root, useIndex: false });
      const listedData = (listed.structuredContent as { data: unknown }).data;
      assert.deepEqual(
        listedData,
        plain.data,
        `round ${round}, discover, after: ${history.join("; ")}`,
      );
    }
  } finally {
    server.close();
    Deno.removeSync(root, { recursive: true });
  }
  assert.ok(ruledOut > 0, "the index never ruled a file out");
  assert.ok(trustedWalks > 0, "no walk was kept across changes");
});

Deno.test("mcp index: without a watcher, every file is stat'ed and the answer says so", async () => {
  const random = new Random(17_2027);
  const root = indexedRoot(random);
  const cache = warmCache();
  cache.resource(`trigram-index\0${root}`, () =>
    new LiveTrigramIndex(root, () => {
      throw new Error("no inotify watches left");
    }));
  const server = inProcessServer(root, cache);
  try {
    for (let round = 0; round < 4; round++) {
      if (round > 0) await mutate(random, root, round);
      for (const pattern of WORDS.slice(0, 3)) {
        const { data, diagnostics } = await served(server, pattern);
        const note = diagnostics.filter((diagnostic) => diagnostic.code === "LMS-IO-011");
        assert.equal(note.length, 1, JSON.stringify(diagnostics));
        assert.match(note[0].message, /no inotify watches left/);
        const others = diagnostics.filter((diagnostic) => diagnostic.code !== "LMS-IO-011");
        assert.equal(comparable(data, others), await unindexed(root, pattern));
        assert.equal(data.index?.freshness, "stamps");
      }
    }
  } finally {
    server.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("mcp index: the server never misses a file written just before a call", async () => {
  const random = new Random(17_2028);
  const root = indexedRoot(random, { "c/racy.c": "nothing\n" });
  const target = join(root, "c", "racy.c");
  const server = await connect({ root, permissions: ["--allow-read", `--allow-write=${root}`] });
  const count = async () => {
    const result = await server.client.callTool({
      name: "search",
      arguments: { patterns: ["PM_RESUME"], paths: ["c"], count: true, detail: "full" },
    });
    const data = (result.structuredContent as { data: SearchData }).data;
    assert.equal(data.index?.freshness, "watcher", JSON.stringify(result.structuredContent));
    return data.counts?.find((row) => row.file_path === "c/racy.c")?.matches ?? 0;
  };
  try {
    await count();
    for (let i = 1; i <= 8; i++) {
      // No wait between the write and the call.
      Deno.writeTextFileSync(target, "PM_RESUME\n".repeat(i % 3));
      assert.equal(await count(), i % 3, `write ${i}`);
    }
    Deno.writeTextFileSync(target, "nothing\n");
    assert.equal(await count(), 0);
    const result = await server.client.callTool({
      name: "transform",
      arguments: { file: "c/racy.c", old: "nothing", new: "PM_RESUME" },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
    assert.equal(await count(), 1, "the transform's edit is seen at once");
  } finally {
    await server.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("mcp index: a search on the server's thread drains the watcher before it answers", async () => {
  const root = indexedRoot(new Random(17_2029), { "c/racy.c": "nothing\n" });
  const target = join(root, "c", "racy.c");
  const server = inProcessServer(root);
  try {
    await served(server, "PM_RESUME");
    for (let i = 1; i <= 20; i++) {
      Deno.writeTextFileSync(target, "PM_RESUME\n".repeat(i % 3));
      // The call starts in the same turn of the event loop as the write.
      const { data, diagnostics } = await served(server, "PM_RESUME");
      assert.equal(data.index?.freshness, "watcher");
      assert.equal(comparable(data, diagnostics), await unindexed(root, "PM_RESUME"), `write ${i}`);
    }
  } finally {
    server.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("mcp index: a server that may not write .llm cannot fence a watcher, so it stats every file", async () => {
  const root = indexedRoot(new Random(17_2030));
  const server = await connect({ root, permissions: ["--allow-read"] });
  try {
    const result = await server.client.callTool({
      name: "search",
      arguments: { patterns: ["PM_RESUME"], detail: "full" },
    });
    const { data, diagnostics } = result.structuredContent as {
      data: SearchData;
      diagnostics: Diagnostic[];
    };
    assert.equal(data.index?.freshness, "stamps");
    const note = diagnostics.find((diagnostic) => diagnostic.code === "LMS-IO-011");
    assert.match(note?.message ?? "", /--allow-write=.*\.llm/, JSON.stringify(diagnostics));
    const others = diagnostics.filter((diagnostic) => diagnostic.code !== "LMS-IO-011");
    assert.equal(comparable(data, others), await unindexed(root, "PM_RESUME"));
  } finally {
    await server.close();
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("mcp index: a transform keeps the walk trusted (a save changes no listing)", async () => {
  const root = indexedRoot(new Random(17_2031), { "c/saved.c": "nothing here\n" });
  const server = inProcessServer(root);
  try {
    assert.equal((await served(server, "PM_RESUME")).data.index?.walk, true);
    const result = await server.callTool("transform", {
      file: "c/saved.c",
      old: "nothing",
      new: "PM_RESUME",
    });
    assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
    const { data, diagnostics } = await served(server, "PM_RESUME");
    assert.equal(data.index?.walk, true, "the kept walk is still trusted");
    assert.equal(comparable(data, diagnostics), await unindexed(root, "PM_RESUME"));
    assert.ok(data.matches.some((match) => match.span.file_path === "c/saved.c"));
  } finally {
    server.close();
    Deno.removeSync(root, { recursive: true });
  }
});
