/**
 * `.llm/` belongs to the toolkit (contract §11): every mutating tool, as a real
 * `deno run --no-prompt` subprocess with `--allow-read=<root> --allow-write=<root>`, and the
 * MCP `write` tool, refuses a path that lies in `<root>/.llm/` — named so, reached through
 * `..`, or through a symbolic link — with its `*-PERM-013` code, exit 4, and writes nothing
 * (previews and validate_only included); the journals the transaction writes there keep
 * working (a write after the refusals is journaled and undone). The rule lives in the
 * transaction every writer commits through, so a writer that resolves its paths some other way
 * gets it too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256 } from "../schema/mod.ts";
import { commitChanges } from "../core/transaction/mod.ts";
import { transactionCodes } from "../core/transaction/codes.ts";
import { makeTree, parseJson, runEntry } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

const TRANSACTION_CODES = transactionCodes("LMT");

interface Envelope {
  status: string;
  execution_id: string;
  error?: { code: string; message: string; file?: string };
}

function scoped(root: string): string[] {
  return [`--allow-read=${root}`, `--allow-write=${root}`];
}

async function cli(
  root: string,
  entry: string,
  args: string[],
): Promise<{ code: number; envelope: Envelope }> {
  const result = await runEntry(entry, args, { cwd: root, permissions: scoped(root) });
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
  return { code: result.code, envelope: parseJson(result) as unknown as Envelope };
}

/** The toolkit's own records in `.llm/`, which its runs update: the run log and the indexes. */
const RECORDS = /^\.llm\/(log|index\.db.*|trigram\.idx)$/;

/** Every file under `.llm/` (path → sha256) but the toolkit's own records. */
async function stateFiles(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string, prefix: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${prefix}/${entry.name}`;
      if (RECORDS.test(path)) continue;
      if (entry.isDirectory) await walk(join(dir, entry.name), path);
      else files[path] = sha256(await Deno.readFile(join(dir, entry.name)));
    }
  };
  await walk(join(root, ".llm"), ".llm");
  return files;
}

function assertRefused(run: { code: number; envelope: Envelope }, code: string, what: string) {
  assert.equal(run.code, 4, `${what}: ${JSON.stringify(run.envelope)}`);
  assert.equal(run.envelope.error?.code, code, what);
  assert.match(run.envelope.error!.message, /\.llm\/, the toolkit's state folder/, what);
}

/** A root with a state folder, a file kept in it, and links into it. */
async function rootWithState(): Promise<string> {
  const root = await makeTree({
    ".llm/keep.txt": "kept\n",
    "src/a.txt": "hello\n",
  });
  await Deno.symlink(".llm", join(root, "state"));
  await Deno.symlink(".llm/keep.txt", join(root, "innocent.txt"));
  return root;
}

Deno.test("llm-write refuses every path into .llm/ (LFW-PERM-013); journals keep working", async () => {
  const root = await rootWithState();
  try {
    const before = await stateFiles(root);
    const keep = sha256("kept\n");
    const attempts: [string, string[]][] = [
      ["named", ["--path", ".llm/journal/x.json", "--content", "{}"]],
      ["the folder itself", ["--path", ".llm", "--content", "{}"]],
      ["through ..", ["--path", "src/../.llm/index.db", "--content", "x"]],
      ["through a linked folder", ["--path", "state/x.json", "--content", "{}"]],
      ["through a linked file", [
        "--path",
        "innocent.txt",
        "--content",
        "changed\n",
        "--overwrite",
        "--expected-checksum",
        keep,
      ]],
      ["validate_only", ["--path", ".llm/x.py", "--content", "x = 1\n", "--validate-only"]],
      ["a plan", [
        "--files",
        JSON.stringify([
          { file_path: "ok.txt", content: "ok\n" },
          { file_path: ".llm/journal/forged/manifest.json", content: "{}" },
        ]),
      ]],
    ];
    for (const [what, args] of attempts) {
      assertRefused(await cli(root, "tools/write/main.ts", args), "LFW-PERM-013", what);
    }
    assert.deepEqual(await stateFiles(root), before);
    await assert.rejects(() => Deno.stat(join(root, "ok.txt")), Deno.errors.NotFound);

    const written = await cli(root, "tools/write/main.ts", [
      "--path",
      "ok.txt",
      "--content",
      "o\n",
    ]);
    assert.equal(written.code, 0, JSON.stringify(written.envelope));
    const undone = await cli(root, "tools/write/main.ts", [
      "--undo",
      written.envelope.execution_id,
    ]);
    assert.equal(undone.code, 0, JSON.stringify(undone.envelope));
    await assert.rejects(() => Deno.stat(join(root, "ok.txt")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("llm-transform refuses an edit of a file in .llm/ (LMT-PERM-013), a dry run too", async () => {
  const root = await rootWithState();
  try {
    const before = await stateFiles(root);
    const edit = (file: string) =>
      JSON.stringify([{ file_path: file, byte_start: 0, byte_end: 4, new_text: "gone" }]);
    const attempts: [string, string[]][] = [
      ["--file", ["--file", ".llm/keep.txt", "--old", "kept", "--new", "gone"]],
      ["through a linked file", ["--file", "innocent.txt", "--old", "kept", "--new", "gone"]],
      ["through a linked folder", ["--file", "state/keep.txt", "--span", "0:4", "--with", "x"]],
      ["an edit plan", ["--edits", edit(".llm/keep.txt")]],
      ["a dry run", ["--edits", edit("src/../.llm/keep.txt"), "--dry-run"]],
    ];
    for (const [what, args] of attempts) {
      assertRefused(await cli(root, "tools/transform/main.ts", args), "LMT-PERM-013", what);
    }
    assert.deepEqual(await stateFiles(root), before);
    const edited = await cli(root, "tools/transform/main.ts", [
      "--file",
      "src/a.txt",
      "--old",
      "hello",
      "--new",
      "hi",
    ]);
    assert.equal(edited.code, 0, JSON.stringify(edited.envelope));
    assert.equal(await Deno.readTextFile(join(root, "src/a.txt")), "hi\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("llm-refactor refuses a rename or patch whose file lies in .llm/ (SPL-PERM-013)", async () => {
  // An index built with --follow lists lib.py, a link to a file in .llm/; the refactors that
  // reach it through the index must not write there.
  const root = await makeTree({
    ".llm/lib.py": "def helper():\n    return 1\n",
    "main.py": "from lib import helper\nprint(helper())\n",
  });
  try {
    await Deno.symlink(".llm/lib.py", join(root, "lib.py"));
    // The full command line of llm-symbols reads its own modules: read permission for all.
    const index = await runEntry("tools/symbols/main.ts", ["index", "--follow"], {
      cwd: root,
      permissions: ["--allow-read", `--allow-write=${root}`],
    });
    assert.equal(index.code, 0, index.stdout);
    const before = await stateFiles(root);
    const main = await Deno.readTextFile(join(root, "main.py"));
    const attempts: [string, string[]][] = [
      ["rename", ["rename", "helper", "--to", "twice", "--refresh", "involved"]],
      ["patch", [
        "patch",
        "helper",
        "--file",
        "lib.py",
        "--text",
        "def helper():\n    return 2\n",
        "--refresh",
        "involved",
      ]],
    ];
    for (const [what, args] of attempts) {
      assertRefused(await cli(root, "tools/refactor/main.ts", args), "SPL-PERM-013", what);
    }
    assert.deepEqual(await stateFiles(root), before);
    assert.equal(
      await Deno.readTextFile(join(root, ".llm/lib.py")),
      "def helper():\n    return 1\n",
    );
    assert.equal(await Deno.readTextFile(join(root, "main.py")), main);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the MCP write tool refuses a path into .llm/ (LFW-PERM-013), nothing written", async () => {
  const root = await rootWithState();
  const server = await connect({ root, permissions: scoped(root) });
  try {
    const before = await stateFiles(root);
    for (
      const args of [
        { path: ".llm/journal/x.json", content: "{}" },
        { path: "state/x.json", content: "{}" },
        { files: [{ path: ".llm/index.db", content: "x" }] },
      ]
    ) {
      const answer = await server.client.callTool({
        name: "write",
        arguments: args,
      }) as unknown as {
        isError?: boolean;
        structuredContent: Envelope;
      };
      assert.equal(answer.isError, true, JSON.stringify(answer.structuredContent));
      assert.equal(answer.structuredContent.error?.code, "LFW-PERM-013", JSON.stringify(args));
    }
    assert.deepEqual(await stateFiles(root), before);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the transaction itself refuses a change in .llm/: a new writer gets the rule", async () => {
  const root = await makeTree({ ".llm/keep.txt": "kept\n" });
  try {
    const path = join(root, ".llm", "keep.txt");
    await assert.rejects(
      () =>
        commitChanges([{
          file_path: ".llm/keep.txt",
          path,
          before: new TextEncoder().encode("kept\n"),
          after: new TextEncoder().encode("forged\n"),
        }], {
          root,
          executionId: crypto.randomUUID(),
          tool: "a-new-writer",
          operationType: "edit",
          prefix: "LMT",
          codes: TRANSACTION_CODES,
        }),
      (error: Error & { code?: string }) => error.code === "LMT-PERM-013",
    );
    assert.equal(await Deno.readTextFile(path), "kept\n");
    await assert.rejects(() => Deno.stat(join(root, ".llm", "journal")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
