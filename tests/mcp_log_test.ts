/**
 * The execution log: records in memory and in a capped, rotated JSONL file; lookups from a
 * later process; `llm-mcp log show` (the same command as `llm-log`); an unwritable log
 * directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  compactEnvelope,
  type Diagnostic,
  type Envelope,
  type ExecutionRecord,
  ExecutionRecordSchema,
  GetExecutionEnvelopeSchema,
  queryEnvelope,
} from "../schema/mod.ts";
import { ExecutionLog, findExecution, LOG_FILE, ROTATED_LOG_FILE } from "../core/execution_log.ts";
import { searchTool } from "../tools/search/tool.ts";
import { makeTree, parseJson, runEntry } from "./helpers.ts";
import { connect, FIXTURE } from "./mcp_helpers.ts";

function recordOf(text: string): ExecutionRecord {
  const envelope = queryEnvelope("llm-search", { count: 1, text }, []);
  return {
    execution_id: envelope.execution_id,
    tool: "search",
    arguments: { patterns: [text] },
    timestamp: envelope.timestamp,
    duration_ms: 1.5,
    status: envelope.status,
    envelope,
  };
}

function lines(path: string): string[] {
  return Deno.readTextFileSync(path).split("\n").filter(Boolean);
}

Deno.test("mcp log: append-only JSONL, rotated at the cap, read back by a later log", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const warnings: Diagnostic[] = [];
    const log = new ExecutionLog({ dir, maxFileBytes: 4_000, warn: (d) => warnings.push(d) });
    const records = Array.from({ length: 20 }, (_, i) => recordOf(`call ${i} ${"x".repeat(400)}`));
    for (const record of records) log.record(record);
    const live = join(dir, LOG_FILE);
    const rotated = join(dir, ROTATED_LOG_FILE);
    assert.ok(Deno.statSync(live).size <= 4_000);
    assert.ok(Deno.statSync(rotated).size <= 4_000);
    for (const line of [...lines(rotated), ...lines(live)]) {
      assert.ok(ExecutionRecordSchema.safeParse(JSON.parse(line)).success);
    }
    // The files hold the newest records, in call order, oldest file first.
    const onDisk = [...lines(rotated), ...lines(live)].map((line) => JSON.parse(line).execution_id);
    const ids = records.map((record) => record.execution_id);
    assert.deepEqual(onDisk, ids.slice(ids.length - onDisk.length));
    assert.ok(onDisk.length < records.length, "older records were rotated out");

    // A later process (a fresh log on the same directory) finds what the files hold.
    const later = new ExecutionLog({ dir });
    assert.deepEqual(later.get(ids.at(-1)!), records.at(-1));
    assert.deepEqual(later.get(onDisk[0]), records[ids.indexOf(onDisk[0])]);
    assert.equal(later.get(ids[0]), undefined, "rotated out of both files");
    // The first log still has everything in memory.
    assert.deepEqual(log.get(ids[0]), records[0]);

    // A record larger than the cap stays whole in memory; the file gets it without its results.
    const huge = { ...recordOf("y".repeat(5_000)), arguments: { patterns: ["y+"] } };
    log.record(huge);
    assert.equal(warnings.at(-1)?.code, "MCP-IO-021");
    const cut = findExecution(dir, huge.execution_id)!;
    assert.deepEqual((cut.envelope as { data: unknown }).data, { count: 1 });
    assert.deepEqual(cut.envelope.diagnostics, [warnings.at(-1)]);
    assert.deepEqual(cut.arguments, huge.arguments);
    assert.deepEqual(log.get(huge.execution_id), huge);

    // A torn last line (a crash mid-write) does not hide the records before it.
    Deno.writeTextFileSync(live, '{"execution_id":"' + ids.at(-1), { append: true });
    assert.deepEqual(findExecution(dir, ids.at(-1)!), records.at(-1));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("mcp log: memory is bounded by bytes, oldest out first", () => {
  const log = new ExecutionLog({ maxMemoryBytes: 3_000 });
  const records = Array.from({ length: 10 }, (_, i) => recordOf(`m${i} ${"z".repeat(500)}`));
  for (const record of records) log.record(record);
  assert.equal(log.get(records[0].execution_id), undefined);
  assert.deepEqual(log.get(records[9].execution_id), records[9]);
  assert.equal(log.dir, undefined);
});

Deno.test("mcp log: server writes the log, llm-mcp log show reads it", async () => {
  const root = await makeTree(FIXTURE);
  const logDir = await Deno.makeTempDir();
  try {
    const server = await connect({
      root,
      permissions: [`--allow-read=${root},${logDir}`, `--allow-write=${logDir}`],
      args: ["--log-dir", logDir],
    });
    const result = await server.client.callTool({
      name: "search",
      arguments: { patterns: ["greet"], paths: ["src"] },
    }) as { structuredContent: { execution_id: string } };
    await assert.rejects(() => server.client.callTool({ name: "nope", arguments: {} }));
    const fetched = await server.client.callTool({
      name: "get_execution",
      arguments: { execution_id: result.structuredContent.execution_id },
    }) as { structuredContent: Record<string, unknown> };
    await server.close();
    const records = lines(join(logDir, LOG_FILE)).map((line) =>
      ExecutionRecordSchema.parse(JSON.parse(line))
    );
    assert.deepEqual(records.map((record) => [record.tool, record.status]), [
      ["search", "ok"],
      ["nope", "error"],
      ["get_execution", "ok"],
    ]);
    assert.deepEqual(records[2].envelope, fetched.structuredContent, "the page it returned");
    assert.equal(records[1].envelope.diagnostics[0].code, "MCP-ARG-010");
    assert.deepEqual(records[0].arguments, { patterns: ["greet"], paths: ["src"] });
    // The log keeps the full envelope; the default answer is its compact form.
    assert.deepEqual(
      compactEnvelope(records[0].envelope as Envelope, searchTool.compact?.form),
      result.structuredContent,
    );

    const id = result.structuredContent.execution_id;
    const shown = await runEntry("tools/mcp/main.ts", ["log", "show", id, "--log-dir", logDir], {
      permissions: [`--allow-read=${logDir}`],
    });
    assert.equal(shown.code, 0, shown.stderr);
    const envelope = GetExecutionEnvelopeSchema.parse(parseJson(shown));
    assert.deepEqual((envelope.data as { execution: ExecutionRecord }).execution, records[0]);

    const unknown = await runEntry(
      "tools/mcp/main.ts",
      ["log", "show", crypto.randomUUID(), "--log-dir", logDir],
      { permissions: [`--allow-read=${logDir}`] },
    );
    assert.equal(unknown.code, 2);
    assert.equal(
      (parseJson(unknown).diagnostics as Diagnostic[])[0].code,
      "LML-REF-001",
    );

    const noDir = await runEntry(
      "tools/mcp/main.ts",
      ["log", "show", id, "--log-dir", join(logDir, "missing")],
      { permissions: [`--allow-read=${logDir}`] },
    );
    assert.equal(noDir.code, 2);
    assert.equal((parseJson(noDir).diagnostics as Diagnostic[])[0].code, "LML-REF-001");
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(logDir, { recursive: true });
  }
});

Deno.test("mcp log: an unwritable --log-dir warns MCP-IO-020 and keeps the log in memory", async () => {
  const root = await makeTree(FIXTURE);
  const logDir = await Deno.makeTempDir();
  try {
    const server = await connect({
      root,
      permissions: [`--allow-read=${root},${logDir}`],
      args: ["--log-dir", logDir],
    });
    const result = await server.client.callTool({
      name: "search",
      arguments: { patterns: ["greet"] },
    }) as { structuredContent: { execution_id: string } };
    const again = await server.client.callTool({
      name: "get_execution",
      arguments: { execution_id: result.structuredContent.execution_id },
    }) as { structuredContent: { status: string } };
    assert.equal(again.structuredContent.status, "ok");
    await server.close();
    assert.match(server.stderr(), /MCP-IO-020: execution log not written to/);
    assert.deepEqual([...Deno.readDirSync(logDir)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(logDir, { recursive: true });
  }
});
