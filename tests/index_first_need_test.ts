/**
 * The index on first need (issue 33, item 4): an MCP server that may write `<root>/.llm` answers
 * the first `repo_map` on a tree without an index with the map, built then (a `MAG-IO-028`
 * note), and later calls with no note; a read-only server answers `MAG-IO-013` saying how to
 * build it. Through the SDK client, as an agent calls it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTree } from "./helpers.ts";
import { connect, FIXTURE } from "./mcp_helpers.ts";

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
    assert.ok(first.diagnostics.some((d) => d.code === "MAG-IO-028" && d.level === "note"));
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
