/**
 * The compact default of llm-mcp through the official SDK client (which checks every answer
 * against the tool's listed output schema): rows grouped by file, the same as the CLI's
 * `--format compact`; a cut answer pages through the stored result with `get_execution`
 * (`next_page`), the pages adding up to the full result; definitions come without bodies; many
 * diagnostics are summarised (compact) or bounded (full) and do not crowd out the results.
 */
import assert from "node:assert/strict";
import type { CompactEnvelope, NextPage } from "../schema/mod.ts";
import { makeTree, parseJson, runEntry } from "./helpers.ts";
import { connect } from "./mcp_helpers.ts";

interface CallOutcome {
  structuredContent: Record<string, unknown>;
  content: { text: string }[];
  isError?: boolean;
}

type Rows = { file_path: string; rows: unknown[][] }[];

function byFile(envelope: Record<string, unknown>): Rows {
  return (envelope.data as { by_file: Rows }).by_file;
}

/** `file:row` strings of a compact answer, in order. */
function flatRows(envelope: Record<string, unknown>): string[] {
  return byFile(envelope).flatMap((file) =>
    file.rows.map((row) => `${file.file_path}:${JSON.stringify(row)}`)
  );
}

const BUDGET = 8_000;

function needleTree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 30; f++) {
    files[`src/file${String(f).padStart(2, "0")}.txt`] = Array.from(
      { length: 10 },
      (_, line) => `line ${line} has a NEEDLE_SUSPEND and more text to make it longer ${f}\n`,
    ).join("");
  }
  return files;
}

Deno.test("mcp compact: the default answer, the CLI's --format compact, pages by get_execution", async (t) => {
  const root = await makeTree(needleTree());
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`],
    args: ["--max-output-bytes", String(BUDGET)],
  });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await server.client.callTool({ name, arguments: args }) as CallOutcome;
    assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    assert.ok(JSON.stringify(result).length <= BUDGET, "answer over the budget");
    return result.structuredContent;
  };
  try {
    const args = { patterns: ["[A-Z]+_SUSPEND"], limit: 0 };
    const cli = parseJson(
      await runEntry("tools/search/main.ts", [
        "--format",
        "compact",
        "--limit",
        "0",
        args.patterns[0],
      ], {
        cwd: root,
        permissions: [`--allow-read=${root}`],
      }),
    );
    const expected = flatRows(cli);
    assert.equal(expected.length, 300);
    assert.equal(cli.form, "compact");

    await t.step("a cut default answer is compact, partial and names its next page", async () => {
      const first = await call("search", args) as unknown as CompactEnvelope;
      assert.equal(first.form, "compact");
      assert.equal(first.partial, true);
      assert.equal(first.status, "partial");
      const keys = Object.keys(first);
      assert.ok(keys.indexOf("data") < keys.indexOf("diagnostics"), "results come first");
      assert.deepEqual(first.next_page?.arguments.execution_id, first.execution_id);
      const note = first.diagnostics.find((summary) => summary.code === "MCP-QRY-001")!;
      assert.match(note.examples[0].message, /get_execution/);
      const text = JSON.stringify(first);
      assert.ok(!text.includes("span_id") && !text.includes("match_id"), "no ids by default");
      assert.equal((first.data as { match_count: number }).match_count, 300, "the total is right");

      const seen = flatRows(first as unknown as Record<string, unknown>);
      let next: NextPage | undefined = first.next_page;
      let pages = 1;
      while (next) {
        const answer = await call(next.tool, next.arguments);
        const inner = (answer.data as { execution: { envelope: CompactEnvelope } }).execution
          .envelope;
        assert.equal(inner.form, "compact");
        seen.push(...flatRows(inner as unknown as Record<string, unknown>));
        next = inner.next_page;
        pages++;
      }
      assert.ok(pages >= 3, `only ${pages} pages`);
      assert.deepEqual(seen, expected, "the pages are the CLI's compact rows, once each");
    });

    await t.step("detail full gives the whole envelope with its ids", async () => {
      const full = await call("search", { ...args, detail: "full" });
      const matches = (full.data as { matches: { match_id: string }[] }).matches;
      assert.ok(matches.length > 0 && matches[0].match_id);
      assert.ok(!("form" in full));
    });

    await t.step("a wrong detail is refused, naming the values", async () => {
      const refused = await server.client.callTool({
        name: "search",
        arguments: { ...args, detail: "all" },
      }) as CallOutcome;
      assert.equal(refused.isError, true);
      assert.match(JSON.stringify(refused.structuredContent), /compact, full/);
    });
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp compact: definitions without bodies; many warnings summarised, not crowding results", async () => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 40; f++) {
    files[`small${f}.c`] = `int small_${f}(int a)\n{\n\treturn a + ${f};\n}\n`;
    files[`large${f}.c`] = `int large_${f}(void)\n{\n${"\tint x;\n".repeat(40)}\treturn 0;\n}\n`;
  }
  const root = await makeTree(files);
  const server = await connect({
    root,
    permissions: [`--allow-read=${root}`],
    args: ["--max-output-bytes", "16000"],
  });
  try {
    const result = await server.client.callTool({
      name: "ast_search",
      arguments: { kind: ["function"], max_parse_bytes: 100, limit: 0 },
    }) as CallOutcome;
    const envelope = result.structuredContent as unknown as CompactEnvelope;
    const rows = flatRows(result.structuredContent);
    assert.equal(rows.length, 40, "every parsed definition is shown");
    // The next call searches the 40 files the parse limit stopped, with a limit they pass.
    const next = envelope.next_page as { tool: string; arguments: Record<string, unknown> };
    assert.equal(next.tool, "ast_search");
    assert.equal((next.arguments.paths as string[]).length, 40);
    assert.ok((next.arguments.paths as string[]).every((path) => path.startsWith("large")));
    assert.ok((next.arguments.max_parse_bytes as number) > 100);
    const first = byFile(result.structuredContent)[0];
    assert.equal((envelope.data as { kind?: string }).kind, "function", "the one kind, once");
    assert.deepEqual(first.rows[0].slice(0, 2), ["small_0", 1]);
    assert.equal(first.rows[0][5], "int small_0(int a)");
    assert.ok(!JSON.stringify(envelope).includes("return"), "no bodies");
    const skipped = envelope.diagnostics.filter((summary) => summary.level === "warning");
    assert.equal(skipped.reduce((sum, summary) => sum + summary.count, 0), 40);
    for (const summary of skipped) assert.ok(summary.examples.length <= 3);

    const full = await server.client.callTool({
      name: "ast_search",
      arguments: { kind: ["function"], max_parse_bytes: 100, limit: 0, detail: "full" },
    }) as CallOutcome;
    const data = full.structuredContent.data as { matches: unknown[] };
    // Unbounded, the 40 warnings alone would fill the budget (one match a page).
    assert.ok(data.matches.length >= 5, `the full form shows ${data.matches.length} matches`);
    const codes = (full.structuredContent.diagnostics as { code: string }[]).map((d) => d.code);
    assert.deepEqual(codes, [
      "LMA-AST-005",
      "LMA-AST-005",
      "LMA-AST-005",
      "MCP-QRY-001",
      "MCP-QRY-003",
    ]);

    // Last: the host caches what the next call parses whole, and a later call with the smaller
    // limit would be answered from that cache (the test's files are older than the racy window
    // on a slow machine), not stopped by the limit again.
    const rest = await server.client.callTool({ name: next.tool, arguments: next.arguments });
    const restRows = flatRows(rest.structuredContent as Record<string, unknown>);
    assert.equal(restRows.length, 40, "the files it names are searched");
    assert.ok(restRows.every((row) => row.startsWith("large")), restRows[0]);
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp compact: asking for checksums or context answers in full unless compact is asked", async () => {
  const root = await makeTree(needleTree());
  const server = await connect({ root, permissions: [`--allow-read=${root}`] });
  const call = async (args: Record<string, unknown>) => {
    const result = await server.client.callTool({
      name: "search",
      arguments: { patterns: ["NEEDLE_SUSPEND"], paths: ["src/file00.txt"], ...args },
    }) as CallOutcome;
    assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
    return result.structuredContent;
  };
  try {
    const checksums = await call({ with_checksums: true });
    assert.equal(checksums.form, undefined, "the full form");
    assert.match(JSON.stringify(checksums), /"sha256:[0-9a-f]{64}"/);
    const context = await call({ with_context: true, context_lines: 1 });
    assert.ok(JSON.stringify(context).includes("context_before"), "context is shown");
    const asked = await call({ with_checksums: true, detail: "compact" });
    assert.equal(asked.form, "compact", "an explicit detail wins");
    assert.equal((await call({})).form, "compact", "the default stays compact");
  } finally {
    await server.close();
    await Deno.remove(root, { recursive: true });
  }
});
