/**
 * llm-mcp on the wire, driven by hand: protocol versions, stdout holding nothing but JSON-RPC,
 * answers to calls still running when stdin closes, start-up refusals and flags.
 */
import assert from "node:assert/strict";
import { makeTree, runEntry } from "./helpers.ts";
import { FIXTURE, initialize, spawnRaw } from "./mcp_helpers.ts";

Deno.test("mcp protocol: both protocol versions, stdout is JSON-RPC only, exit on stdin close", async () => {
  const root = await makeTree(FIXTURE);
  try {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const server = spawnRaw({ root, permissions: [`--allow-read=${root}`] });
      const { message } = await initialize(server, version);
      const result = message.result as { protocolVersion: string; serverInfo: { name: string } };
      assert.equal(result.protocolVersion, version);
      assert.equal(result.serverInfo.name, "llm-mcp");
      // A line that is not JSON is answered with a parse error and the session goes on.
      await server.write("this is not json\n");
      const listed = await server.request("tools/list");
      assert.ok((listed.message.result as { tools: unknown[] }).tools.length >= 2);
      // Calls sent right before stdin closes are still answered before the process exits.
      const pending = [
        server.request("tools/call", { name: "search", arguments: { patterns: ["greet"] } }),
        server.request("tools/call", { name: "discover", arguments: { query: "main" } }),
      ];
      const exit = server.close();
      const answers = await Promise.all(pending);
      for (const answer of answers) {
        assert.equal(answer.message.jsonrpc, "2.0");
        assert.ok(answer.message.result, JSON.stringify(answer.message.error));
      }
      const { code, stdout, stderr } = await exit;
      assert.equal(code, 0);
      const unmatched = stdout.map((line) => JSON.parse(line));
      assert.deepEqual(
        unmatched.map((message) => [message.id, message.error?.code]),
        [[null, -32700]],
        "stdout holds only answers to requests, and the parse error",
      );
      assert.match(stderr, /llm-mcp: serving/);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp protocol: start-up refusals and flags", async () => {
  const root = await makeTree(FIXTURE);
  const other = await makeTree({ "a.txt": "a\n" });
  try {
    const unreadable = await runEntry("tools/mcp/main.ts", ["--root", root], {
      permissions: [`--allow-read=${other}`],
      stdin: "",
    });
    assert.equal(unreadable.code, 4);
    assert.equal(unreadable.stdout, "");
    assert.match(unreadable.stderr, /MCP-PERM-001: no read permission for the root/);
    assert.match(unreadable.stderr, new RegExp(`--allow-read=${root}`));

    const badFlag = await runEntry("tools/mcp/main.ts", ["--root", root, "--no-such-flag"], {
      stdin: "",
    });
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /MCP-ARG-001/);

    const badBudget = await runEntry("tools/mcp/main.ts", ["--max-output-bytes", "10"], {
      stdin: "",
    });
    assert.equal(badBudget.code, 2);
    assert.match(badBudget.stderr, /--max-output-bytes takes a whole number/);

    const missingRoot = await runEntry("tools/mcp/main.ts", ["--root", `${root}/nope`], {
      stdin: "",
    });
    assert.equal(missingRoot.code, 2);
    assert.match(missingRoot.stderr, /MCP-IO-001: workspace root not found/);

    const fileRoot = await runEntry("tools/mcp/main.ts", ["--root", `${root}/README.md`], {
      permissions: [`--allow-read=${root}`],
      stdin: "",
    });
    assert.equal(fileRoot.code, 2);
    assert.equal(fileRoot.stdout, "");
    assert.match(fileRoot.stderr, /MCP-IO-005: workspace root is not a directory/);

    const badTimeout = await runEntry("tools/mcp/main.ts", ["--call-timeout-ms", "0"], {
      stdin: "",
    });
    assert.equal(badTimeout.code, 2);
    assert.match(badTimeout.stderr, /--call-timeout-ms takes a whole number of milliseconds/);

    const help = await runEntry("tools/mcp/main.ts", ["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--max-output-bytes/);
    assert.match(help.stdout, /llm-mcp log list\|show ID/);
    assert.match(help.stdout, /--call-timeout-ms/);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(other, { recursive: true });
  }
});

Deno.test("mcp protocol: every message that is not JSON-RPC gets a JSON-RPC error; the stream goes on", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const server = spawnRaw({ root, permissions: [`--allow-read=${root}`] });
    await initialize(server);
    const bad = [
      "{not json",
      "[]",
      '[{"jsonrpc":"2.0","id":70,"method":"ping"}]',
      "42",
      '"ping"',
      "null",
      '{"id":71,"method":"ping"}',
      '{"jsonrpc":"1.0","id":72,"method":"ping"}',
      '{"jsonrpc":"2.0","id":73,"method":7}',
      '{"jsonrpc":"2.0","id":74,"method":"no/such/method"}',
      '{"jsonrpc":"2.0","id":75}',
    ];
    for (const line of bad) await server.write(line + "\n");
    // The stream survives: a valid request after them is answered.
    const pong = await server.request("ping");
    assert.deepEqual(pong.message.result, {});
    const listed = await server.request("tools/list");
    assert.ok((listed.message.result as { tools: unknown[] }).tools.length >= 2);
    const { code, stdout } = await server.close();
    assert.equal(code, 0);
    const answers = stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    const summary = answers.map((answer) => {
      const error = answer.error as { code: number; data?: { diagnostic?: { code: string } } };
      return [answer.id, error.code, error.data?.diagnostic?.code ?? null];
    });
    assert.deepEqual(summary, [
      [null, -32700, "MCP-ARG-011"],
      [null, -32600, "MCP-ARG-012"],
      [null, -32600, "MCP-ARG-012"],
      [null, -32600, "MCP-ARG-012"],
      [null, -32600, "MCP-ARG-012"],
      [null, -32600, "MCP-ARG-012"],
      [71, -32600, "MCP-ARG-012"],
      [72, -32600, "MCP-ARG-012"],
      [73, -32600, "MCP-ARG-012"],
      [74, -32601, null],
      [75, -32600, "MCP-ARG-012"],
    ]);
    for (const answer of answers) assert.equal(answer.jsonrpc, "2.0");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
