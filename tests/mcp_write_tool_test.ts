/**
 * The MCP `write` tool through the official SDK client against a real `llm-mcp` subprocess with
 * `--allow-read=<root> --allow-write=<root>`: a valid file is approved and lands with its
 * checksum, a broken one is rejected (`isError`) with the gate's line and column and nothing
 * written, validate_only writes nothing, a path out of the root is refused, and the
 * execution_id of a write undoes it. The answer is compact by default (per file its status,
 * checksum and diagnostics as rows, nothing said twice); `detail: "full"` gives the envelope.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CompactWriteEnvelopeSchema,
  type CompactWriteResult,
  sha256,
  WRITE_DIAGNOSTIC_COLUMNS,
  type WriteResult,
} from "../schema/mod.ts";
import { writeTool } from "../tools/write/tool.ts";
import { makeTree } from "./helpers.ts";
import { connect, FIXTURE } from "./mcp_helpers.ts";

interface CallOutcome<R = WriteResult> {
  structuredContent: Record<string, unknown> & {
    execution_id: string;
    status: string;
    message: string;
    result?: R;
    error?: { code: string };
    diagnostics: { code: string; line?: number; column?: number; file?: string }[];
  };
  content: { text: string }[];
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
    const done = forced as unknown as CallOutcome;
    assert.notEqual(done.isError, true);
    const id = done.structuredContent.execution_id;
    assert.match(
      done.structuredContent.message,
      new RegExp(`undo with transform \\{"undo": "${id}"\\}`),
    );
    assert.doesNotMatch(done.structuredContent.message, /--undo/, "no command-line flag in MCP");
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
  const compactSchema = CompactWriteEnvelopeSchema;
  try {
    const call = async (args: Record<string, unknown>) => {
      const outcome = await server.client.callTool({ name: "write", arguments: args });
      const answer = outcome as unknown as CallOutcome<CompactWriteResult>;
      const parsed = compactSchema.safeParse(answer.structuredContent);
      assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
      return answer;
    };
    const content = "int twice(int x) {\n  return 2 * x;\n}\n";
    const approved = await call({ path: "src/twice.c", content });
    assert.notEqual(approved.isError, true, JSON.stringify(approved.structuredContent));
    assert.equal(approved.structuredContent.status, "approved");
    assert.match(
      approved.structuredContent.message,
      new RegExp(`undo with write \\{"undo": "${approved.structuredContent.execution_id}"\\}$`),
    );
    const [written] = approved.structuredContent.result!.files;
    assert.deepEqual(
      { ...written, diagnostics: written.diagnostics.map((row) => row.slice(0, 5)) },
      {
        file_path: "src/twice.c",
        status: "approved",
        action: "create",
        checksum: sha256(content),
        written: true,
        // The server may not run gcc: the note says so, once, in the file's rows.
        diagnostics: [["note", "LFW-V-104", null, null, "gcc"]],
      },
    );
    assert.equal(await Deno.readTextFile(join(root, "src/twice.c")), content);

    const rejected = await call({
      path: "src/broken.c",
      content: "int f(void) {\n  return 1\n}\n",
    });
    assert.equal(rejected.isError, true);
    assert.equal(rejected.structuredContent.status, "rejected");
    assert.match(rejected.structuredContent.message, /src\/broken\.c fails validation/);
    assert.equal(rejected.structuredContent.error, undefined, "the rows say it; not repeated");
    assert.deepEqual(rejected.structuredContent.diagnostics, []);
    const result = rejected.structuredContent.result!;
    assert.deepEqual(result.columns, WRITE_DIAGNOSTIC_COLUMNS);
    const [file] = result.files;
    assert.deepEqual([file.status, file.written], ["rejected", false]);
    const syntax = file.diagnostics.find((row) => row[1] === "LFW-AST-101");
    assert.deepEqual(syntax?.slice(0, 5), ["error", "LFW-AST-101", 2, 10, "tree-sitter"]);
    assert.ok(file.diagnostics.every((row) => row[1] !== "LFW-V-001"));
    await assert.rejects(() => Deno.stat(join(root, "src/broken.c")), Deno.errors.NotFound);
    const full = await server.client.callTool({
      name: "write",
      arguments: {
        path: "src/broken.c",
        content: "int f(void) {\n  return 1\n}\n",
        detail: "full",
      },
    }) as unknown as CallOutcome;
    assert.ok(writeTool.output.safeParse(full.structuredContent).success);
    assert.equal(full.structuredContent.error?.code, "LFW-V-001");
    assert.ok(
      rejected.content[0].text.length * 2 < full.content[0].text.length,
      `compact ${rejected.content[0].text.length} B, full ${full.content[0].text.length} B`,
    );

    const checked = await call({
      path: "src/later.js",
      content: "export {};\n",
      validate_only: true,
    });
    assert.equal(checked.structuredContent.status, "approved");
    assert.equal(checked.structuredContent.result?.validate_only, true);
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
