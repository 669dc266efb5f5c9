/**
 * One execution log for every run (`<root>/.llm/log`), through real subprocesses with the exact
 * permission flags a user gives: a read-only run needs no write permission and logs only when
 * it may write the store; a transform always logs; `llm-log list`/`show` read it back, and the
 * MCP server's `get_execution` finds a command-line run; concurrent writers never tear a
 * record; a linked `.llm` is never written through.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type ExecutionListData,
  type ExecutionRecord,
  ExecutionRecordSchema,
  type GetExecutionData,
  LogEnvelopeSchema,
} from "../schema/mod.ts";
import { ExecutionLog, LOG_FILE, ROTATED_LOG_FILE } from "../core/execution_log.ts";
import type { Diagnostic } from "../schema/mod.ts";
import { makeTree, parseJson, REPO, runEntry } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

const FILES = { "src/a.ts": "export const alpha = 1;\n", "src/b.ts": "const beta = 2;\n" };

function logLines(root: string): ExecutionRecord[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(join(root, ".llm", "log", LOG_FILE));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return text.split("\n").filter(Boolean).map((line) =>
    ExecutionRecordSchema.parse(JSON.parse(line))
  );
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function logCommand(root: string, args: string[]) {
  const result = await runEntry("tools/log/main.ts", args, {
    cwd: root,
    permissions: [`--allow-read=${root}`],
  });
  return {
    result,
    envelope: result.code === 0 ? LogEnvelopeSchema.parse(parseJson(result)) : undefined,
  };
}

Deno.test("log: a read-only run with --allow-read only succeeds and logs nothing, --log only notes it", async () => {
  const root = await makeTree(FILES);
  try {
    const plain = await runEntry("tools/search/main.ts", ["alpha"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stderr, "");
    const asked = await runEntry("tools/search/main.ts", ["alpha", "--log"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(asked.code, 0, asked.stderr);
    assert.equal(parseJson(asked).status, "ok");
    assert.match(asked.stderr, /^llm-search: note: LMS-IO-020: .*--allow-write=/m);
    assert.ok(!exists(join(root, ".llm")), "nothing written");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("log: a read-only run with read scoped to a sub-folder prints nothing about the log", async () => {
  const root = await makeTree({ "examples/a.ts": "// TODO: x\n" });
  try {
    // The README's first set-up command: read covers examples/, not the working directory.
    const result = await runEntry("mod.ts", ["TODO", "examples"], {
      cwd: root,
      permissions: [`--allow-read=${join(root, "examples")}`],
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(parseJson(result).status, "ok");
    assert.equal(result.stderr, "");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("log: a read-only run logs when --allow-write=.llm is given; llm-log shows it", async () => {
  const root = await makeTree(FILES);
  try {
    const run = await runEntry("tools/search/main.ts", ["alpha", "--format", "jsonl"], {
      cwd: root,
      permissions: [`--allow-read=${root}`, "--allow-write=.llm"],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const summary = lines.at(-1);
    const [record] = logLines(root);
    assert.equal(record.execution_id, summary.execution_id);
    assert.equal(record.tool, "search");
    assert.equal(record.origin, "cli");
    assert.deepEqual(record.argv, ["alpha", "--format", "jsonl"]);
    assert.deepEqual((record.arguments as { patterns: string[] }).patterns, ["alpha"]);
    // The streamed matches are in the logged envelope's data.
    const data = (record.envelope as unknown as { data: { matches: unknown[] } }).data;
    assert.equal(data.matches.length, lines.length - 1);
    assert.equal(Deno.readTextFileSync(join(root, ".llm", "log", ".gitignore")), "*\n");

    const { result, envelope } = await logCommand(root, ["show", record.execution_id]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((envelope!.data as GetExecutionData).execution, record);
    assert.equal(logLines(root).length, 1, "reading the log is not logged");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("log: a transform always logs; llm-log list filters by tool, status and time", async () => {
  const root = await makeTree(FILES);
  const write = [`--allow-read=${root}`, `--allow-write=${root}`];
  try {
    const ok = await runEntry(
      "tools/transform/main.ts",
      ["--file", "src/a.ts", "--old", "alpha", "--new", "gamma"],
      { cwd: root, permissions: write },
    );
    assert.equal(ok.code, 0, ok.stderr);
    const refused = await runEntry(
      "tools/transform/main.ts",
      ["--file", "src/a.ts", "--old", "missing", "--new", "x"],
      { cwd: root, permissions: write },
    );
    assert.notEqual(refused.code, 0);
    const search = await runEntry("tools/search/main.ts", ["gamma"], {
      cwd: root,
      permissions: write,
    });
    assert.equal(search.code, 0, search.stderr);
    const okId = parseJson(ok).execution_id as string;
    const refusedEnvelope = parseJson(refused);

    const { envelope } = await logCommand(root, [
      "list",
      "--tool",
      "llm-transform",
      "--status",
      "ok",
    ]);
    const listed = envelope!.data as ExecutionListData;
    assert.deepEqual(listed.executions.map((run) => run.execution_id), [okId]);
    assert.equal(listed.executions[0].tool, "transform");

    const all = (await logCommand(root, [])).envelope!.data as ExecutionListData; // list: default
    assert.equal(all.total, 3);
    assert.deepEqual(all.executions.map((run) => run.tool), ["search", "transform", "transform"]);
    const failed = all.executions[1];
    assert.equal(failed.status, refusedEnvelope.status);
    assert.equal(failed.error_code, (refusedEnvelope.error as { code: string }).code);

    const later = (await logCommand(root, ["list", "--since", "2999-01-01"])).envelope!;
    assert.equal((later.data as ExecutionListData).count, 0);
    const recent = (await logCommand(root, ["list", "--since", "1h", "--limit", "1"])).envelope!;
    assert.deepEqual(
      [(recent.data as ExecutionListData).count, (recent.data as ExecutionListData).total],
      [1, 3],
    );
    const badTime = await logCommand(root, ["list", "--since", "yesterday"]);
    assert.equal(badTime.result.code, 2);
    assert.match(badTime.result.stdout, /LML-ARG-002/);

    const shown = await logCommand(root, ["show", okId]);
    const record = (shown.envelope!.data as GetExecutionData).execution;
    assert.deepEqual(record.envelope, parseJson(ok));
    const missing = await logCommand(root, ["show", crypto.randomUUID()]);
    assert.equal(missing.result.code, 2);
    assert.match(missing.result.stdout, /LML-REF-001/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("log: the MCP server's get_execution finds a command-line run of its root", async () => {
  const root = await makeTree(FILES);
  try {
    const run = await runEntry("tools/search/main.ts", ["beta"], {
      cwd: root,
      permissions: [`--allow-read=${root}`, `--allow-write=${root}/.llm`],
    });
    const id = parseJson(run).execution_id as string;
    // A read-only server: it cannot write the store but reads it.
    const server = await connect({ root, permissions: [`--allow-read=${REPO},${root}`] });
    try {
      const fetched = await server.client.callTool({
        name: "get_execution",
        arguments: { execution_id: id, detail: "full" },
      }) as { isError?: boolean; structuredContent: { data: GetExecutionData } };
      assert.ok(!fetched.isError, JSON.stringify(fetched.structuredContent));
      assert.equal(fetched.structuredContent.data.execution.origin, "cli");
      assert.deepEqual(fetched.structuredContent.data.execution.envelope, parseJson(run));
    } finally {
      await server.close();
    }
    assert.equal(logLines(root).length, 1, "a read-only server writes nothing");

    // A server that may write .llm logs its calls in the same store.
    const writer = await connect({
      root,
      permissions: [`--allow-read=${REPO},${root}`, `--allow-write=${root}/.llm`],
    });
    try {
      await writer.client.callTool({ name: "search", arguments: { patterns: ["alpha"] } });
    } finally {
      await writer.close();
    }
    assert.deepEqual(logLines(root).map((record) => record.origin), ["cli", "mcp"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

async function writers(dir: string, count: number, each: number, bytes: number, cap: number) {
  const runs = Array.from({ length: count }, (_, index) =>
    new Deno.Command("deno", {
      args: [
        "run",
        "--quiet",
        `--config=${join(REPO, "deno.json")}`,
        `--allow-read=${REPO},${dir}`,
        `--allow-write=${dir}`,
        join(REPO, "tests", "fixtures", "log_writer.ts"),
        dir,
        String(each),
        String(bytes),
        String(cap),
        `w${index}`,
      ],
    }).output());
  for (const output of await Promise.all(runs)) {
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  }
}

function storeLines(dir: string): string[] {
  return [ROTATED_LOG_FILE, LOG_FILE].flatMap((name) => {
    try {
      return Deno.readTextFileSync(join(dir, name)).split("\n").filter(Boolean);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
  });
}

Deno.test("log: concurrent writer processes never interleave or tear records", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Records of 200 KiB, far above PIPE_BUF, from 4 processes at once.
    await writers(dir, 4, 10, 200_000, 1 << 30);
    const lines = storeLines(dir);
    assert.equal(lines.length, 40);
    const seen = new Set<string>();
    for (const line of lines) {
      const record = ExecutionRecordSchema.parse(JSON.parse(line));
      seen.add(`${record.arguments.writer}:${record.arguments.index}`);
    }
    assert.equal(seen.size, 40, "every record of every writer, once");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("log: concurrent writers rotating at a small cap keep both files whole and capped", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Many rotations: without the lock two writers rotate at once (one fails: the file is gone)
    // or both append after checking the size, passing the cap.
    await writers(dir, 6, 150, 1_000, 8_000);
    for (const name of [LOG_FILE, ROTATED_LOG_FILE]) {
      assert.ok(Deno.statSync(join(dir, name)).size <= 8_000, name);
    }
    const lines = storeLines(dir);
    assert.ok(lines.length > 0);
    for (const line of lines) ExecutionRecordSchema.parse(JSON.parse(line));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("log: a linked .llm is never written through, and llm-log refuses it", async () => {
  const root = await makeTree(FILES);
  const outside = await Deno.makeTempDir();
  try {
    await Deno.symlink(outside, join(root, ".llm"));
    const run = await runEntry("tools/search/main.ts", ["alpha"], {
      cwd: root,
      permissions: [`--allow-read=${root}`, `--allow-write=${root}/.llm`],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /LMS-PERM-020: .*symbolic link/);
    assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing written outside the root");
    const listed = await logCommand(root, ["list"]);
    assert.equal(listed.result.code, 4);
    assert.match(listed.result.stdout, /LML-PERM-020/);

    // A linked .llm/log under a real .llm is refused too.
    await Deno.remove(join(root, ".llm"));
    await Deno.mkdir(join(root, ".llm"));
    await Deno.symlink(outside, join(root, ".llm", "log"));
    const again = await runEntry("tools/search/main.ts", ["alpha"], {
      cwd: root,
      permissions: [`--allow-read=${root}`, `--allow-write=${root}/.llm`],
    });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /LMS-PERM-020/);
    assert.deepEqual([...Deno.readDirSync(outside)], []);

    // So is a log file that is a link (to a file outside the root).
    await Deno.remove(join(root, ".llm", "log"));
    await Deno.mkdir(join(root, ".llm", "log"));
    const victim = join(outside, "victim.txt");
    await Deno.writeTextFile(victim, "secret\n");
    await Deno.symlink(victim, join(root, ".llm", "log", LOG_FILE));
    const linkedFile = await runEntry("tools/search/main.ts", ["alpha"], {
      cwd: root,
      permissions: [`--allow-read=${root}`, `--allow-write=${root}/.llm`],
    });
    assert.equal(linkedFile.code, 0, linkedFile.stderr);
    assert.match(linkedFile.stderr, /LMS-PERM-020: .*executions\.jsonl is a symbolic link/);
    assert.equal(await Deno.readTextFile(victim), "secret\n");
    const listedFile = await logCommand(root, ["list"]);
    assert.equal(listedFile.result.code, 4);
    assert.ok(!listedFile.result.stdout.includes("secret"));
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("log: a server's --log-dir under a linked .llm is refused; the log stays in memory", async () => {
  const root = await makeTree(FILES);
  const outside = await Deno.makeTempDir();
  try {
    await Deno.symlink(outside, join(root, ".llm"));
    const warnings: Diagnostic[] = [];
    const log = new ExecutionLog({
      dir: join(root, ".llm", "mcp-log"),
      warn: (diagnostic) => warnings.push(diagnostic),
    });
    assert.equal(log.dir, undefined);
    assert.equal(warnings[0].code, "MCP-IO-020");
    assert.match(warnings[0].message, /\.llm is a symbolic link/);
    assert.deepEqual([...Deno.readDirSync(outside)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
