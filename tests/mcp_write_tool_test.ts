/**
 * The MCP `write` tool through the official SDK client against a real `llm-mcp` subprocess with
 * `--allow-read=<root> --allow-write=<root>`: a valid file is approved and lands with its
 * checksum, a broken one is rejected (`isError`) with the gate's line and column and nothing
 * written, validate_only writes nothing, a path out of the root is refused, and the
 * execution_id of a write undoes it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256, type WriteResult } from "../schema/mod.ts";
import { writeTool } from "../tools/write/main.ts";
import { makeTree } from "./helpers.ts";
import { connect, FIXTURE } from "./mcp_helpers.ts";

interface CallOutcome {
  structuredContent: Record<string, unknown> & {
    execution_id: string;
    status: string;
    result?: WriteResult;
    error?: { code: string };
    diagnostics: { code: string; line?: number; column?: number; file?: string }[];
  };
  isError?: boolean;
}

Deno.test("mcp transform: validate syntax refuses an edit that breaks the file", async () => {
  const root = await makeTree(FIXTURE);
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
  });
  try {
    const breaking = {
      file: "src/greet.ts",
      old: "(name: string)",
      new: "(name: string",
      validate: "syntax",
    };
    const refused = await server.client.callTool({ name: "transform", arguments: breaking });
    const answer = refused as unknown as CallOutcome;
    assert.equal(answer.isError, true);
    assert.equal(answer.structuredContent.error?.code, "LMT-V-013");
    assert.equal(await Deno.readTextFile(join(root, "src/greet.ts")), FIXTURE["src/greet.ts"]);
    const forced = await server.client.callTool({
      name: "transform",
      arguments: { ...breaking, validate: "none" },
    });
    assert.notEqual((forced as unknown as CallOutcome).isError, true);
    assert.equal(
      await Deno.readTextFile(join(root, "src/greet.ts")),
      FIXTURE["src/greet.ts"].replace("(name: string)", "(name: string"),
    );
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp write tool: approved, rejected with the gate's position, validate_only, undo", async () => {
  const root = await makeTree(FIXTURE);
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
  });
  try {
    const call = async (args: Record<string, unknown>) => {
      const outcome = await server.client.callTool({ name: "write", arguments: args });
      const answer = outcome as unknown as CallOutcome;
      const parsed = writeTool.output.safeParse(answer.structuredContent);
      assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
      return answer;
    };
    const content = "int twice(int x) {\n  return 2 * x;\n}\n";
    const approved = await call({ path: "src/twice.c", content });
    assert.notEqual(approved.isError, true, JSON.stringify(approved.structuredContent));
    assert.equal(approved.structuredContent.status, "approved");
    assert.equal(approved.structuredContent.result?.files[0].checksum, sha256(content));
    assert.equal(await Deno.readTextFile(join(root, "src/twice.c")), content);

    const rejected = await call({
      path: "src/broken.c",
      content: "int f(void) {\n  return 1\n}\n",
    });
    assert.equal(rejected.isError, true);
    assert.equal(rejected.structuredContent.status, "rejected");
    assert.equal(rejected.structuredContent.error?.code, "LFW-V-001");
    const syntax = rejected.structuredContent.diagnostics.find((d) => d.code === "LFW-AST-101");
    assert.deepEqual([syntax?.file, syntax?.line, syntax?.column], ["src/broken.c", 2, 10]);
    await assert.rejects(() => Deno.stat(join(root, "src/broken.c")), Deno.errors.NotFound);

    const checked = await call({
      path: "src/later.js",
      content: "export {};\n",
      validate_only: true,
    });
    assert.equal(checked.structuredContent.status, "approved");
    await assert.rejects(() => Deno.stat(join(root, "src/later.js")), Deno.errors.NotFound);

    const outside = await call({ path: "../escape.py", content: "x = 1\n" });
    assert.equal(outside.isError, true);
    const nested = await call({ files: [{ path: "../escape.py", content: "x = 1\n" }] });
    assert.deepEqual([nested.isError, nested.structuredContent.error?.code], [
      true,
      "LFW-PERM-010",
    ]);

    const undone = await call({ undo: approved.structuredContent.execution_id });
    assert.notEqual(undone.isError, true, JSON.stringify(undone.structuredContent));
    await assert.rejects(() => Deno.stat(join(root, "src/twice.c")), Deno.errors.NotFound);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
