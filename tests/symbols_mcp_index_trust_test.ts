/**
 * The symbol index in llm-mcp is not trusted input, and indexing never starves an interactive
 * call (issue 29, items 9–11). A crafted row or a damaged database is refused with its code
 * (never an internal error), `symbols_index` (served when `--tools` names it) builds it anew, and
 * the server's open index follows the new file. While `symbols_index` is under way on generated
 * files (its refresh claim on `.llm/index.db.lock` is held), a `symbols` find answers at once
 * from the index as written so far, with a note, and a `refactor` rename of the small project
 * waits for that run instead of parsing its files a second time beside it. Both with calls on
 * worker threads and on the main thread (a server that may not read its own modules), where a
 * synchronous parse blocks every other call.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { makeTree, REPO } from "./helpers.ts";
import { connect, type Connected } from "./mcp_helpers.ts";

const FILES: Record<string, string> = {
  "a.py": "def greet(name):\n    return name\n",
  "b.py": "from a import greet\n\ngreet('x')\n",
};

/** The tools these tests call: `symbols_index` is outside the default surface. */
const TOOLS = ["--tools", "symbols,refactor,symbols_index"];

/** A generated file: 500,000 one-line statements, over the node budget (its facts are capped). */
const GENERATED = "x = 1\n".repeat(500_000);

interface Answer {
  isError: boolean;
  envelope: {
    status: string;
    data?: { results?: { span: { file_path: string } }[] };
    result?: { files?: { file_path: string }[] };
    diagnostics: { code: string; level: string; file?: string }[];
  };
}

async function call(server: Connected, name: string, args: Record<string, unknown>) {
  const detail = name === "symbols" ? { detail: "full" } : {};
  const result = await server.client.callTool(
    { name, arguments: { ...args, ...detail } },
    undefined,
    { timeout: 180_000 },
  );
  return { isError: result.isError === true, envelope: result.structuredContent } as Answer;
}

/** Whether another open of the lock file holds it (the test process's own try fails). */
function claimHeld(lockPath: string): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(lockPath, { read: true, write: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  try {
    return !file.tryLockSync(true);
  } finally {
    file.close();
  }
}

for (
  const [calls, read] of [
    ["worker threads", (root: string) => `--allow-read=${root},${REPO}`],
    ["the main thread", (root: string) => `--allow-read=${root}`],
  ] as const
) {
  Deno.test(`symbols in llm-mcp (calls on ${calls}): a query and a rename answer while index runs`, async () => {
    const root = await makeTree(FILES);
    const server = await connect({
      root,
      permissions: [read(root), `--allow-write=${root}`],
      args: TOOLS,
    });
    try {
      const first = await call(server, "symbols_index", {});
      assert.equal(first.isError, false, JSON.stringify(first.envelope));
      for (const name of ["gen1.py", "gen2.py"]) {
        await Deno.writeTextFile(join(root, name), GENERATED);
      }

      let indexDone = false;
      const indexing = call(server, "symbols_index", {}).finally(() => indexDone = true);
      const lockPath = join(root, ".llm", "index.db.lock");
      // The run is under way once it holds the claim (a server without claims goes on after 20 s).
      const deadline = Date.now() + 20_000;
      while (!claimHeld(lockPath) && !indexDone && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }

      const found = await call(server, "symbols", { relation: "find", name: "greet" });
      // Answered while the index run still works through the generated files.
      assert.equal(indexDone, false, "symbols find waited for the index run");
      assert.equal(found.isError, false, JSON.stringify(found.envelope));
      assert.deepEqual(found.envelope.data?.results?.map((r) => r.span.file_path), ["a.py"]);
      assert.ok(found.envelope.diagnostics.some((d) => d.code === "MAG-IO-027"));

      const renamed = await call(server, "refactor", {
        op: "rename",
        symbol: "greet",
        to: "welcome",
        dry_run: true,
        gates: "syntax",
      });
      assert.equal(renamed.isError, false, JSON.stringify(renamed.envelope));
      const changed = renamed.envelope.result?.files?.map((file) => file.file_path);
      assert.deepEqual(changed, ["a.py", "b.py"]);

      const indexed = await indexing;
      assert.equal(indexed.isError, false, JSON.stringify(indexed.envelope));
      const capped = indexed.envelope.diagnostics.filter((d) => d.code === "MAG-IO-026");
      assert.deepEqual(capped.map((d) => d.file), ["gen1.py", "gen2.py"]);
    } finally {
      await server.close();
      await Deno.remove(root, { recursive: true });
    }
  });
}

/** The code of an answer's error, if it is one. */
function failureCode(answer: Answer): string | undefined {
  return answer.envelope.diagnostics.find((d) => d.level === "error")?.code;
}

Deno.test("symbols in llm-mcp: a crafted or damaged index is refused, and symbols_index rebuilds it", async (t) => {
  const root = await makeTree(FILES);
  const db = join(root, ".llm", "index.db");
  const start = () =>
    connect({ root, permissions: [`--allow-read=${root}`, `--allow-write=${root}`], args: TOOLS });
  let server = await start();
  const findGreet = () => call(server, "symbols", { relation: "find", name: "greet" });
  const rebuild = async () => {
    const rebuilt = await call(server, "symbols_index", {});
    assert.equal(rebuilt.isError, false, JSON.stringify(rebuilt.envelope));
    assert.ok(rebuilt.envelope.diagnostics.some((d) => d.code === "MAG-IO-024"));
    // A server whose open index is of the deleted file opens the new one.
    const found = await findGreet();
    assert.equal(found.isError, false, JSON.stringify(found.envelope));
    assert.deepEqual(found.envelope.data?.results?.map((r) => r.span.file_path), ["a.py"]);
  };
  try {
    assert.equal((await call(server, "symbols_index", {})).isError, false);
    assert.equal((await findGreet()).isError, false);

    await t.step("a row naming a file outside the root, under an open index", async () => {
      const sqlite = new DatabaseSync(db);
      sqlite.prepare("UPDATE files SET path = '../../outside/a.py' WHERE path = 'a.py'").run();
      sqlite.close();
      const refused = await findGreet();
      assert.equal(failureCode(refused), "MAG-IO-023", JSON.stringify(refused.envelope));
      await rebuild();
    });

    await t.step("a database cut short", async () => {
      // Closed (so checkpointed), then cut to its first two pages: it opens, its tables do not read.
      await server.close();
      const bytes = Deno.readFileSync(db);
      const page = new DataView(bytes.buffer).getUint16(16);
      Deno.writeFileSync(db, bytes.slice(0, 2 * page));
      server = await start();
      const refused = await findGreet();
      assert.equal(failureCode(refused), "MAG-IO-022", JSON.stringify(refused.envelope));
      await rebuild();
    });
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
