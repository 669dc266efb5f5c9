/**
 * A partial answer names its next call (issue 33, item 5): a list cut by the call's own `limit`
 * carries `next_page`, the `get_execution` call (execution id, offset, limit) that returns the
 * following page from the log without running the tool again; pages chain to the end, and
 * together they are the list one call with a larger limit gives.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTree } from "./helpers.ts";
import { connect, FIXTURE, indexFixture } from "./mcp_helpers.ts";
import { z } from "zod";
import { defineTool } from "../core/tool.ts";
import { ExecutionLog, queryScope, ToolServer } from "../tools/mcp/main.ts";
import { makeDiagnostic } from "../schema/diagnostic.ts";
import { type QueryEnvelope, queryEnvelope, queryEnvelopeSchema } from "../schema/envelope.ts";
import { compactQuery } from "../schema/compact.ts";
import { compactEnvelopeSchema } from "../schema/compact_schema.ts";
import { SLOW_PATTERN, slowText } from "./slow_search.ts";

interface Page {
  status: string;
  partial?: boolean;
  next_page?: { tool: string; arguments: Record<string, unknown> };
  data: Record<string, unknown>;
}

function structured(result: unknown): Page {
  return (result as { structuredContent: Page }).structuredContent;
}

/** The rows of a compact search answer (one line each), whatever their grouping. */
function rowsOf(page: Page): string[] {
  return JSON.stringify(page.data).match(/needle \d+/g) ?? [];
}

Deno.test("mcp: a list cut by its limit names the get_execution call of its next page", async () => {
  const lines = Array.from({ length: 23 }, (_, i) => `needle ${i}`).join("\n") + "\n";
  const root = await makeTree({ "a.txt": lines });
  const server = await connect({ root, permissions: [`--allow-read=${root}`] });
  try {
    const call = { name: "search", arguments: { patterns: ["needle \\d+"], limit: 5 } };
    const first = structured(await server.client.callTool(call));
    assert.equal(first.partial, true);
    assert.equal(first.data.match_count, 23);
    assert.deepEqual(rowsOf(first), [0, 1, 2, 3, 4].map((i) => `needle ${i}`));
    assert.equal(first.next_page?.tool, "get_execution");
    assert.deepEqual(
      { ...first.next_page?.arguments, execution_id: "-" },
      { execution_id: "-", offset: 5, limit: 5 },
    );
    // The pages chain to the end: the rows of each, in order, are the whole list.
    const seen = rowsOf(first);
    let next: Page["next_page"] = first.next_page;
    for (let pages = 0; next && pages < 10; pages++) {
      const answer = structured(
        await server.client.callTool({ name: next.tool, arguments: next.arguments }),
      );
      const inner = (answer.data.execution as { envelope: Page }).envelope;
      seen.push(...rowsOf(inner));
      next = inner.next_page;
    }
    assert.equal(next, undefined, "the last page names no next one");
    assert.deepEqual(seen, Array.from({ length: 23 }, (_, i) => `needle ${i}`));
    // A call that asked for everything it got names no next page.
    const whole = structured(
      await server.client.callTool({
        name: "search",
        arguments: { patterns: ["needle"], limit: 50 },
      }),
    );
    assert.equal(whole.next_page, undefined);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp: past the items its log holds, a list names the call again from there", async () => {
  // 1,234 matches, pages of 100: the call keeps 1,000 (ten pages), and the page after them is
  // the same search from offset 1,000, which keeps the items up to its own ten pages.
  const total = 1_234;
  const lines = Array.from({ length: total }, (_, i) => `needle ${i}`).join("\n") + "\n";
  const root = await makeTree({ "a.txt": lines });
  const server = await connect({ root, permissions: [`--allow-read=${root}`] });
  try {
    const call = { name: "search", arguments: { patterns: ["needle \\d+"], limit: 100 } };
    const first = structured(await server.client.callTool(call));
    const seen = rowsOf(first);
    const tools: string[] = [];
    let next: Page["next_page"] = first.next_page;
    for (let pages = 0; next && pages < 30; pages++) {
      tools.push(next.tool);
      const answer = structured(
        await server.client.callTool({ name: next.tool, arguments: next.arguments }),
      );
      const page = next.tool === "get_execution"
        ? (answer.data.execution as { envelope: Page }).envelope
        : answer;
      seen.push(...rowsOf(page));
      next = page.next_page;
    }
    assert.equal(next, undefined, "the last page names no next one");
    assert.deepEqual(seen, Array.from({ length: total }, (_, i) => `needle ${i}`));
    const rerun = tools.indexOf("search");
    assert.equal(rerun, 9, "nine get_execution pages, then the search again");
    assert.deepEqual(tools.filter((tool) => tool === "search").length, 1);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp: a merged tool pages by the list of the member the call names", async () => {
  const root = await makeTree(FIXTURE);
  const server = await connect({
    root,
    permissions: ["--allow-read", `--allow-write=${join(root, ".llm")}`],
  });
  try {
    const exported = (offset: number) =>
      server.client.callTool({ name: "graph", arguments: { algorithm: "export", offset } });
    const whole = structured(await exported(0));
    assert.equal(whole.status, "ok", JSON.stringify(whole));
    // `export` answers the graph, not a list: an offset pages nothing (it had emptied a list).
    const offset = structured(await exported(1));
    assert.deepEqual(offset.data, whole.data);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp: an answer given while the index's first build goes on names the same call again", async () => {
  const building = makeDiagnostic(
    "llm-stub",
    "MAG-IO-029",
    "the symbol index is still being built: this answer covers the 3 file(s) indexed so far",
    { level: "warning" },
  );
  let calls = 0;
  const stub = defineTool({
    name: "llm-stub",
    mcpName: "stub",
    title: "Stub",
    description: "Answers partial with the first-build note once, then in full.",
    prefix: "MAG",
    kind: "query",
    permissions: [],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    input: z.object({ name: z.string() }),
    output: queryEnvelopeSchema(z.object({ count: z.number() })),
    compact: {
      form: { compact: (envelope) => compactQuery(envelope as QueryEnvelope, { rows: [] }) },
      output: compactEnvelopeSchema(z.object({ rows: z.array(z.string()) })),
    },
    cli: { usage: "", examples: [] },
    run: (_input, context) => {
      const first = calls++ === 0;
      return Promise.resolve({
        envelope: queryEnvelope("llm-stub", { count: 0 }, first ? [building] : [], {
          executionId: context.executionId,
          partial: first,
        }),
      });
    },
  });
  const server = new ToolServer({
    tools: [stub],
    scope: queryScope(Deno.cwd()),
    log: new ExecutionLog(),
  });
  try {
    const first = structured(await server.callTool("stub", { name: "f" }));
    assert.equal(first.partial, true);
    assert.deepEqual(first.next_page, { tool: "stub", arguments: { name: "f" } });
    const again = structured(await server.callTool("stub", { name: "f" }));
    assert.equal(again.next_page, undefined);
  } finally {
    server.close();
  }
});

Deno.test("mcp: a search out of its own smaller time budget names the call with the server's", async () => {
  const root = await makeTree({ "slow.txt": slowText(16) });
  // The server's call limit 4 s: a tool's budget is three quarters of it, 3,000 ms.
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`],
    args: ["--call-timeout-ms", "4000"],
  });
  try {
    const call = { name: "search", arguments: { patterns: [SLOW_PATTERN], timeout_ms: 100 } };
    const short = structured(await server.client.callTool(call));
    assert.equal(short.partial, true, JSON.stringify(short));
    assert.deepEqual(short.next_page, {
      tool: "search",
      arguments: { patterns: [SLOW_PATTERN], timeout_ms: 3_000 },
    });
    // Out of the server's whole budget in its first file: only narrower paths get more, and no
    // call is named.
    const whole = structured(
      await server.client.callTool({ name: "search", arguments: { patterns: [SLOW_PATTERN] } }),
    );
    assert.equal(whole.next_page, undefined);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp: a search out of the server's time budget past its first file names the call from the file it stopped in", async () => {
  const root = await makeTree({ "a.txt": "aaab\n", "b.txt": slowText(16), "c.txt": "aab\n" });
  // The server's call limit 2 s: a tool's budget is three quarters of it, 1,500 ms.
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`],
    args: ["--call-timeout-ms", "2000"],
  });
  try {
    const call = { name: "search", arguments: { patterns: [SLOW_PATTERN] } };
    const cut = structured(await server.client.callTool(call));
    assert.equal(cut.partial, true, JSON.stringify(cut));
    assert.deepEqual(cut.next_page, {
      tool: "search",
      arguments: { patterns: [SLOW_PATTERN], resume_at: "b.txt" },
    });
    // b.txt alone outlasts the budget: the resumed call gets no further and names nothing.
    const stuck = structured(await server.client.callTool({ name: "search", ...cut.next_page }));
    assert.equal(stuck.partial, true);
    assert.equal(stuck.next_page, undefined);
    // Past it, the rest of the tree answers in full.
    const rest = structured(
      await server.client.callTool({
        name: "search",
        arguments: { patterns: [SLOW_PATTERN], resume_at: "c.txt" },
      }),
    );
    assert.equal(rest.partial, undefined, JSON.stringify(rest));
    assert.equal(rest.next_page, undefined);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

/** A chain of eight Python functions, each calling the next: `f0` → `f1` → … → `f7`. */
function chainTree(): Record<string, string> {
  const defs = Array.from(
    { length: 8 },
    (_, i) =>
      i < 7
        ? `def f${i}(x):\n    """Step ${i} of the chain."""\n    return f${i + 1}(x) + ${i}\n`
        : `def f7(x):\n    return x\n`,
  );
  const tree: Record<string, string> = { "chain.py": defs.join("\n\n") };
  // Other code, so that the chain's words are rare in the repository, as in a real one.
  for (let i = 0; i < 30; i++) {
    tree[`widgets/w${i}.py`] = `def render_widget_${i}(canvas):\n    return canvas.draw(${i})\n`;
  }
  return tree;
}

Deno.test("mcp: every partial answer of the graph, map and context names the call that gets more", async () => {
  const root = await makeTree(chainTree());
  await indexFixture(root);
  const server = await connect({ root, permissions: [`--allow-read=${root}`] });
  const call = async (name: string, args: Record<string, unknown>) =>
    structured(await server.client.callTool({ name, arguments: args }));
  try {
    // Cases: each call, and the arguments its next call changes.
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ["graph", { algorithm: "reachable", name: "f0", depth: 1 }, { depth: 2 }],
      ["graph", { algorithm: "impact", name: "f7", depth: 2 }, { depth: 4 }],
      ["graph", { algorithm: "paths", from: "f0", to: "f7", depth: 4 }, { depth: 8 }],
      ["graph", { algorithm: "export", limit: 2 }, { limit: 0 }],
      ["repo_map", { tokens: 10 }, { tokens: 20 }],
    ];
    for (const [name, args, changed] of cases) {
      const page = await call(name, args);
      assert.equal(page.partial, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(page)}`);
      assert.deepEqual(page.next_page, { tool: name, arguments: { ...args, ...changed } });
      // The call it names gets more.
      const next = await call(name, page.next_page!.arguments);
      assert.notEqual(
        next.data.count,
        0,
        `${name} ${JSON.stringify(page.next_page)}: ${JSON.stringify(next)}`,
      );
    }
    // Deep enough, the walk is whole and names nothing.
    const whole = await call("graph", { algorithm: "reachable", name: "f0", depth: 8 });
    assert.equal(whole.partial, undefined);
    assert.equal(whole.next_page, undefined);
    // Paths cut by their count name the same search from there.
    const paths = await call("graph", { algorithm: "paths", from: "f0", to: "f7", limit: 1 });
    assert.equal(paths.partial, undefined, "one path in all: nothing cut");
    // The context of a task larger than its budget names the call that lists the next blocks.
    const task = "Step 3 of the chain calls the next step of the chain";
    const first = await call("context", { task, budget: 60 });
    assert.equal(first.partial, true, JSON.stringify(first));
    const next = first.next_page!;
    assert.equal(next.tool, "context");
    assert.equal(next.arguments.task, task);
    const held = (first.data.blocks as { span: { span_id: string } }[]).map((b) => b.span.span_id);
    assert.deepEqual(next.arguments.exclude, held);
    const second = await call("context", next.arguments);
    const again = (second.data.blocks as { span: { span_id: string } }[]).map((b) =>
      b.span.span_id
    );
    assert.ok(again.length > 0 && again.every((id) => !held.includes(id)), "new blocks only");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
