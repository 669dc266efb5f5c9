/**
 * Mutating tools through llm-mcp: offered only with write permission, refused without it, and
 * with it a transform changes the file, the log records the call, and later reads see the
 * change. The mutating tools are the default surface's (`transform`, `write`, `refactor` with each
 * of its ops) and the maintenance tool `symbols_index`, served when `--tools` names it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CompactTransformEnvelopeSchema, ExecutionRecordSchema } from "../schema/mod.ts";
import { LOG_FILE } from "../core/execution_log.ts";
import { DEFAULT_TOOLS, mcpTool } from "../tools/mcp/surface.ts";
import { makeTree } from "./helpers.ts";
import {
  connect,
  FIXTURE,
  listAllTools,
  sampleCall,
  sampleDefinition,
  SAMPLES,
  SERVE_SAMPLED,
} from "./mcp_helpers.ts";

interface CallOutcome {
  structuredContent: Record<string, unknown> & { execution_id: string; status: string };
  content: { type: string; text: string }[];
  isError?: boolean;
}

interface ListedTool {
  name: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
}

/** The default surface's mutating tools. */
const MUTATING = DEFAULT_TOOLS.filter((tool) => tool.permissions.includes("write"));

/** The samples of mutating tools: each of theirs (every op of refactor) and symbols_index's. */
const MUTATING_SAMPLES = Object.keys(SAMPLES).filter((key) =>
  mcpTool(SAMPLES[key].tool)?.permissions.includes("write")
);

Deno.test("mcp write: the surface has mutating tools for these tests to cover", () => {
  assert.deepEqual(MUTATING.map((tool) => tool.mcpName), ["transform", "write", "refactor"]);
  assert.ok(MUTATING_SAMPLES.includes("symbols_index"), "symbols_index is sampled");
});

Deno.test("mcp write: a read-only server lists no mutating tool and refuses a call to one", async () => {
  const root = await makeTree(FIXTURE);
  // --tools names symbols_index too: it is refused for want of write permission, not unknown.
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`],
    args: SERVE_SAMPLED,
  });
  try {
    const listed = await listAllTools<ListedTool>(server.client);
    const names = listed.map((tool) => tool.name);
    for (const key of MUTATING_SAMPLES) assert.ok(!names.includes(SAMPLES[key].tool), key);
    for (const key of MUTATING_SAMPLES) {
      await assert.rejects(
        () => server.client.callTool(sampleCall(key)),
        (
          error: Error & {
            code?: number;
            data?: { diagnostic: { code: string; remediation: string } };
          },
        ) => {
          assert.equal(error.code, -32602);
          assert.equal(error.data?.diagnostic.code, "MCP-PERM-002");
          assert.match(error.data?.diagnostic.remediation ?? "", /--allow-write=/);
          return true;
        },
      );
    }
    assert.equal(Deno.readTextFileSync(join(root, "src/greet.ts")), FIXTURE["src/greet.ts"]);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp write: with write permission a transform changes the file and the log records it", async () => {
  const root = await makeTree(FIXTURE);
  const logDir = await Deno.makeTempDir();
  const server = await connect({
    root,
    permissions: [`--allow-read=${root},${logDir}`, `--allow-write=${root},${logDir}`],
    args: ["--log-dir", logDir],
  });
  let closed = false;
  try {
    const listed = await listAllTools<ListedTool>(server.client);
    for (const tool of MUTATING) {
      const entry = listed.find((candidate) => candidate.name === tool.mcpName);
      assert.ok(entry, `${tool.mcpName} is offered with write permission`);
      assert.deepEqual(
        {
          readOnlyHint: entry.annotations?.readOnlyHint,
          destructiveHint: entry.annotations?.destructiveHint,
          idempotentHint: entry.annotations?.idempotentHint,
        },
        tool.annotations,
      );
      assert.equal(entry.annotations?.readOnlyHint, false);
    }

    const before = await server.client.callTool({
      name: "search",
      arguments: { patterns: ["hi there"] },
    }) as CallOutcome;
    assert.equal((before.structuredContent.data as { count: number }).count, 0);

    const transform = sampleDefinition("transform");
    const sample = SAMPLES.transform;
    const result = await server.client.callTool({
      name: "transform",
      arguments: sample.args,
    }) as CallOutcome;
    assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
    const parsed = transform.output.safeParse(result.structuredContent);
    assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
    sample.check(result.structuredContent);
    assert.equal(
      Deno.readTextFileSync(join(root, "src/greet.ts")),
      FIXTURE["src/greet.ts"].replace("hello ", "hi there "),
    );

    const after = await server.client.callTool({
      name: "search",
      arguments: { patterns: ["hi there"] },
    }) as CallOutcome;
    assert.equal((after.structuredContent.data as { count: number }).count, 1, "reads see it");

    const refused = await server.client.callTool({
      name: "transform",
      arguments: { file: "../outside.ts", old: "a", new: "b" },
    }) as CallOutcome;
    assert.equal(refused.isError, true);
    const refusal = (refused.structuredContent.error as { code: string }).code;
    assert.equal(refusal, "MCP-PERM-010");

    // The server speaks MCP on stdin, so a plan cannot be read from there.
    const noStdin = await server.client.callTool({
      name: "transform",
      arguments: { plan: "-" },
    }) as CallOutcome;
    assert.equal(noStdin.isError, true);
    assert.match(
      (noStdin.structuredContent.error as { message: string }).message,
      /standard input/,
    );
    const alive = await server.client.callTool({ name: "search", arguments: { patterns: ["hi"] } });
    assert.notEqual(alive.isError, true, "the protocol stream is intact");

    await server.close();
    closed = true;
    const records = Deno.readTextFileSync(join(logDir, LOG_FILE)).split("\n").filter(Boolean)
      .map((line) => ExecutionRecordSchema.parse(JSON.parse(line)));
    const logged = records.find((record) =>
      record.execution_id === result.structuredContent.execution_id
    );
    assert.ok(logged, "the transform is in the log");
    assert.equal(logged.tool, "transform");
    assert.equal(logged.status, result.structuredContent.status);
    assert.deepEqual(logged.arguments, sample.args);
    assert.deepEqual(logged.envelope, result.structuredContent);
    assert.deepEqual(records.map((record) => record.tool), [
      "search",
      "transform",
      "search",
      "transform",
      "transform",
      "search",
    ]);
  } finally {
    if (!closed) await server.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(logDir, { recursive: true });
  }
});

Deno.test("mcp write: every mutating tool (every op of refactor) answers its sample with a valid envelope", async (t) => {
  for (const key of MUTATING_SAMPLES) {
    await t.step(key, async () => {
      const root = await makeTree(FIXTURE);
      const server = await connect({
        root,
        permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
        args: SERVE_SAMPLED,
      });
      try {
        const sample = SAMPLES[key];
        const tool = sampleDefinition(key);
        const result = await server.client.callTool(sampleCall(key)) as CallOutcome;
        assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
        const parsed = tool.output.safeParse(result.structuredContent);
        assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
        assert.equal(result.structuredContent.tool, tool.name);
        sample.check(result.structuredContent);
        assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
      } finally {
        await server.close();
        await Deno.remove(root, { recursive: true });
      }
    });
  }
});

Deno.test("mcp write: a transform answers compactly by default and its execution_id undoes it", async () => {
  const root = await makeTree(FIXTURE);
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
  });
  try {
    const call = async (args: Record<string, unknown>) => {
      const result = await server.client.callTool({ name: "transform", arguments: args });
      assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
      return (result as CallOutcome).structuredContent;
    };
    const preview = await call({ file: "src/greet.ts", old: "hello ", new: "hi ", dry_run: true });
    const previewResult = preview.result as { diff?: string };
    assert.match(previewResult.diff ?? "", /^\+.*hi /m, "a dry run shows its diff");

    const done = await call({ file: "src/greet.ts", old: "hello ", new: "hi " });
    const compact = CompactTransformEnvelopeSchema.safeParse(done);
    assert.ok(compact.success, JSON.stringify(!compact.success && compact.error.issues));
    const text = JSON.stringify(done);
    assert.ok(!text.includes("sha256:"), "no checksums unless asked");
    assert.ok(!text.includes("span_id") && !("timestamp" in done), text);
    const result = done.result as { by_file: { file_path: string; rows: unknown[][] }[] };
    assert.deepEqual(result.by_file.map((file) => [file.file_path, file.rows[0][0]]), [
      ["src/greet.ts", "applied"],
    ]);
    assert.equal(
      Deno.readTextFileSync(join(root, "src/greet.ts")),
      FIXTURE["src/greet.ts"].replace("hello ", "hi "),
    );

    const stored = await server.client.callTool({
      name: "get_execution",
      arguments: { execution_id: done.execution_id },
    }) as CallOutcome;
    const page = (stored.structuredContent.data as { execution: { envelope: unknown } }).execution;
    assert.deepEqual(page.envelope, done, "get_execution gives the same compact answer");

    const full = await call({ file: "src/greet.ts", old: "hi ", new: "hey ", detail: "full" });
    assert.match(JSON.stringify(full), /"final_checksum":"sha256:[0-9a-f]{64}"/);
    const fullUndo = await call({ undo: full.execution_id });
    assert.equal(
      (fullUndo.result as { undone_execution_id: string }).undone_execution_id,
      full.execution_id,
    );

    const undone = await call({ undo: done.execution_id });
    assert.deepEqual(undone.result, {
      dry_run: false,
      undone_execution_id: done.execution_id,
      count: 1,
      files: ["src/greet.ts"],
    });
    assert.equal(Deno.readTextFileSync(join(root, "src/greet.ts")), FIXTURE["src/greet.ts"]);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
