/**
 * What an agent reads to do one task through `llm-mcp` (issue 33's acceptance): on a copy of the
 * bundled example (`examples/sample-repo`), the scripted workflow — list the tools, find a
 * function, its callers, rename it, validate the file, undo — through the default surface of
 * this checkout and, with `--checkout DIR`, of another checkout (an earlier commit), in the same
 * run. Prints, per checkout, the calls made and the bytes the model reads: the `tools/list`
 * answer's tools (what a client hands its model) and each call's text content.
 *
 * Run: `deno run -A bench/mcp_workflow_bench.ts [--checkout DIR]` (DIR: e.g. a `git worktree`
 * of the commit before the surface changed; its old tool names are used for it).
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO } from "./measure.ts";

/** One step of the workflow: its tool and arguments on the merged surface and on the old one. */
interface Step {
  label: string;
  merged: [string, Record<string, unknown>];
  old: [string, Record<string, unknown>];
}

const FILE = "lib/geometry.py";

const STEPS: Step[] = [
  {
    label: "find parse_circle",
    merged: ["symbols", { relation: "find", name: "parse_circle" }],
    old: ["symbols_find", { name: "parse_circle" }],
  },
  {
    label: "callers of Circle (parse_circle makes one)",
    merged: ["symbols", { relation: "callers", name: "Circle" }],
    old: ["symbols_callers", { name: "Circle" }],
  },
  {
    label: "rename it",
    merged: ["refactor", {
      op: "rename",
      symbol: "parse_circle",
      to: "read_circle",
      dry_run: false,
      gates: "syntax",
    }],
    old: ["refactor_rename", {
      symbol: "parse_circle",
      to: "read_circle",
      dry_run: false,
      gates: "syntax",
    }],
  },
  {
    label: "validate the file",
    merged: ["validate", { path: FILE, content: "$file", gates: "syntax" }],
    old: ["validate", { path: FILE, content: "$file", gates: "syntax" }],
  },
  {
    label: "undo",
    merged: ["refactor", { op: "undo" }],
    old: ["refactor_undo", {}],
  },
];

function bytes(value: unknown): number {
  return new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value))
    .length;
}

/** Runs the workflow against the server of `checkout`; the rows of its table. */
async function workflow(checkout: string): Promise<{ rows: string[]; total: number }> {
  const root = Deno.makeTempDirSync({ prefix: "llm-mcp-workflow-" });
  await new Deno.Command("cp", { args: ["-r", `${join(REPO, "examples/sample-repo")}/.`, root] })
    .output();
  const transport = new StdioClientTransport({
    command: "deno",
    args: [
      "run",
      "--quiet",
      `--config=${join(checkout, "deno.json")}`,
      "--allow-all",
      join(checkout, "tools/mcp/main.ts"),
      "--root",
      root,
    ],
    cwd: root,
    stderr: "pipe",
  });
  const client = new Client({ name: "workflow-bench", version: "1.0.0" });
  await client.connect(transport);
  const rows: string[] = [];
  let total = 0;
  try {
    const listed = await client.listTools();
    const tools = listed.tools as { name: string; description?: string; inputSchema: unknown }[];
    const names = tools.map((tool) => tool.name);
    const modelVisible = tools.reduce(
      (sum: number, tool) =>
        sum +
        bytes({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
      0,
    );
    const listBytes = bytes(listed);
    total += listBytes;
    rows.push(
      `| tools/list (${names.length} tools; name+description+inputSchema ${modelVisible} B) | ${listBytes} |`,
    );
    const merged = names.includes("symbols");
    for (const step of STEPS) {
      const [name, template] = merged ? step.merged : step.old;
      // The file's text as it is now (the agent holds it after the rename's answer).
      const args = Object.fromEntries(
        Object.entries(template).map(([key, value]) => [
          key,
          value === "$file" ? Deno.readTextFileSync(join(root, FILE)) : value,
        ]),
      );
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text?: string }[])
        .map((part) => part.text ?? "").join("");
      const read = bytes(text);
      total += read;
      const status = (result.structuredContent as { status?: string } | undefined)?.status;
      rows.push(
        `| ${step.label}: ${name} (${status ?? (result.isError ? "error" : "?")}) | ${read} |`,
      );
    }
  } finally {
    await client.close();
    Deno.removeSync(root, { recursive: true });
  }
  rows.push(`| **total read** | **${total}** |`);
  return { rows, total };
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { checkout: { type: "string" } } });
  const sides: [string, string][] = [["this checkout", REPO]];
  if (values.checkout) sides.unshift([values.checkout, values.checkout]);
  for (const [label, checkout] of sides) {
    const { rows } = await workflow(checkout);
    console.log(`\n### ${label}\n\n| step | bytes read |\n| --- | --- |\n${rows.join("\n")}`);
  }
}
