/**
 * The output budget, measured on the wire: every response line stays under
 * `--max-output-bytes`, cut results say how to get the next page, and the pages put together
 * are exactly the full result, in order, without overlap — by re-running with `offset` and by
 * paging the logged result with `get_execution`.
 */
import assert from "node:assert/strict";
import { responseBytes, shrinkToFit } from "../tools/mcp/budget.ts";
import { mutationEnvelope, queryEnvelope } from "../schema/mod.ts";
import { TOOLS } from "../tools/registry.ts";
import { DEFAULT_TOOLS } from "../tools/mcp/surface.ts";
import { makeTree, parseJson, runEntry } from "./helpers.ts";
import { initialize, type RawServer, spawnRaw } from "./mcp_helpers.ts";

const search = TOOLS.find((tool) => tool.mcpName === "search")!;

interface Match {
  span: { file_path: string; byte_start: number; span_id: string };
}

interface Diagnostic {
  code: string;
  level: string;
  message: string;
  note?: string;
}

interface ToolAnswer {
  bytes: number;
  envelope: Record<string, unknown> & {
    data: {
      count: number;
      matches?: Match[];
      execution?: { envelope: { data: { matches: Match[] } } };
    };
    diagnostics: Diagnostic[];
    partial?: true;
  };
  text: string;
}

async function call(
  server: RawServer,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const { message, bytes } = await server.request("tools/call", { name, arguments: args });
  const result = message.result as {
    structuredContent: ToolAnswer["envelope"];
    content: { text: string }[];
  };
  assert.ok(result, `no result: ${JSON.stringify(message.error)}`);
  return { bytes, envelope: result.structuredContent, text: result.content[0].text };
}

/** The offset of the next page named by the MCP-QRY-001 note, if any. */
function nextOffset(diagnostics: Diagnostic[]): number | undefined {
  const note = diagnostics.find((diagnostic) => diagnostic.code === "MCP-QRY-001")?.note;
  if (!note) return undefined;
  return JSON.parse(note.slice(0, note.indexOf("}") + 1)).next_offset;
}

const BUDGET = 8_000;

Deno.test("mcp budget: pages fit on the wire and add up to the full result", async (t) => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 30; f++) {
    files[`src/file${String(f).padStart(2, "0")}.txt`] = Array.from(
      { length: 10 },
      (_, line) => `line ${line} has a needle and more text to make the match longer ${f}\n`,
    ).join("");
  }
  const root = await makeTree(files);
  const full = parseJson(
    await runEntry("tools/search/main.ts", ["needle", "--limit", "0"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    }),
  ) as { data: { matches: Match[] } };
  const expected = full.data.matches.map((match) => match.span.span_id);
  assert.equal(expected.length, 300);
  const server = spawnRaw({
    root,
    permissions: [`--allow-read=${root}`],
    args: ["--max-output-bytes", String(BUDGET)],
  });
  try {
    await initialize(server);
    const args = { patterns: ["needle"], limit: 0, detail: "full" };
    let firstId = "";

    await t.step("re-running with the named offset pages through every match once", async () => {
      const seen: string[] = [];
      let offset: number | undefined = 0;
      let pages = 0;
      while (offset !== undefined) {
        const answer = await call(server, "search", { ...args, offset });
        if (!firstId) firstId = answer.envelope.execution_id as string;
        assert.ok(answer.bytes <= BUDGET, `page of ${answer.bytes} bytes`);
        const parsed = search.output.safeParse(answer.envelope);
        assert.ok(parsed.success, JSON.stringify(!parsed.success && parsed.error.issues));
        const matches = answer.envelope.data.matches!;
        assert.equal(answer.envelope.data.count, matches.length);
        assert.ok(matches.length > 0);
        seen.push(...matches.map((match) => match.span.span_id));
        offset = nextOffset(answer.envelope.diagnostics);
        if (offset !== undefined) {
          assert.equal(answer.envelope.partial, true);
          assert.equal(answer.envelope.status, "partial");
          assert.equal(offset, seen.length);
          const hint = answer.envelope.diagnostics.find((d) => d.code === "MCP-QRY-001")!;
          assert.match(hint.message, new RegExp(`"offset": ${offset}`));
        }
        pages++;
      }
      assert.ok(pages >= 5, `only ${pages} pages`);
      assert.deepEqual(seen, expected);
    });

    await t.step("get_execution pages the logged result the same way", async () => {
      const seen: string[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const answer = await call(server, "get_execution", {
          execution_id: firstId,
          offset,
          detail: "full",
        });
        assert.ok(answer.bytes <= BUDGET, `page of ${answer.bytes} bytes`);
        const inner = answer.envelope.data.execution!.envelope as unknown as {
          data: { matches: Match[] };
          diagnostics: Diagnostic[];
        };
        seen.push(...inner.data.matches.map((match) => match.span.span_id));
        offset = nextOffset(inner.diagnostics);
      }
      assert.deepEqual(seen, expected);
    });

    await t.step("an offset past the end is an empty, valid page", async () => {
      const answer = await call(server, "search", { ...args, offset: 10_000 });
      assert.equal(answer.envelope.data.count, 0);
      assert.ok(search.output.safeParse(answer.envelope).success);
    });

    await t.step(
      "tools/list answers every tool in one page, however small the budget",
      async () => {
        // Claude Code, Codex and Claude.ai read only the first page of tools/list.
        const small = spawnRaw({
          root,
          permissions: [`--allow-read=${root}`],
          args: ["--max-output-bytes", "16000"],
        });
        await initialize(small);
        const { message } = await small.request("tools/list", {});
        const result = message.result as { tools: { name: string }[]; nextCursor?: string };
        assert.equal(result.nextCursor, undefined);
        const again = await small.request("tools/list", { cursor: "0" });
        assert.deepEqual(again.message.result, message.result);
        await small.close();
        const readOnly = DEFAULT_TOOLS.filter((tool) => !tool.permissions.includes("write"));
        assert.deepEqual(
          result.tools.map((tool) => tool.name),
          [...readOnly.map((tool) => tool.mcpName), "get_execution"],
        );
      },
    );
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp budget: oversized strings and lists are shortened, and said so", () => {
  const big = mutationEnvelope("llm-transform", {
    operation_type: "edit",
    status: "ok",
    message: "done",
    result: {
      diff: "-x\n+y\n".repeat(20_000),
      files: Array.from({ length: 5000 }, (_, i) => `f${i}`),
    },
  });
  const fitted = shrinkToFit(big, 10_000, false);
  assert.ok(responseBytes(fitted, false) <= 10_000);
  assert.equal(fitted.status, "ok", "a mutation's status is what happened, not how it is shown");
  const warning = fitted.diagnostics.find((diagnostic) => diagnostic.code === "MCP-QRY-002");
  assert.ok(warning);
  assert.match(warning.message, /shortened/);
  const result = (fitted as typeof big).result as { diff: string; files: string[] };
  assert.ok(result.diff.startsWith("-x\n+y\n"));
  assert.match(result.diff, /chars cut\]$/);
  assert.deepEqual(result.files.slice(0, 3), ["f0", "f1", "f2"]);
  assert.equal(shrinkToFit(big, 10_000_000, false), big, "a fitting envelope is untouched");

  const query = queryEnvelope("llm-search", { count: 1, text: "y".repeat(100_000) }, []);
  const cut = shrinkToFit(query, 5_000, false);
  assert.ok(responseBytes(cut, false) <= 5_000);
  assert.equal(cut.status, "partial");
  assert.equal((cut as typeof query).partial, true);
});
