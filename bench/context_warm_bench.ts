/**
 * `context` inside a warm MCP server (issue 32's target: at most 50 ms a task): a server started
 * as the README says (`deno run -A …/mcp --root TREE`) on one of the localization bench's sympy
 * trees, its index built, is asked every sympy task of the development set once (new tasks),
 * then each again; medians and maxima of the calls' wall time through the official SDK client
 * (JSON-RPC over stdio, the call worker, the log and the answer's shaping included).
 *
 * Needs the localization bench's cache (`deno run -A bench/localize_bench.ts` prepares it);
 * without it, says so and exits 0. Run: `deno run -A bench/context_warm_bench.ts`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CONFIG, median, ms, REPO } from "./measure.ts";
import { CACHE_DIR } from "./localize_bench.ts";

const BUDGET = 8_000;
const trees = join(CACHE_DIR, "sympy+sympy");
const taskDir = join(CACHE_DIR, "tasks");
if (!existsSync(trees) || !existsSync(taskDir)) {
  console.log(`no sympy tree in ${CACHE_DIR}: run bench/localize_bench.ts first`);
  Deno.exit(0);
}
const tree = join(trees, [...Deno.readDirSync(trees)].map((entry) => entry.name).sort()[0]);
const tasks = [...Deno.readDirSync(taskDir)]
  .filter((entry) => entry.name.startsWith("sympy__"))
  .map((entry) => Deno.readTextFileSync(join(taskDir, entry.name)));

const transport = new StdioClientTransport({
  command: "deno",
  args: ["run", "-A", "--quiet", `--config=${CONFIG}`, join(REPO, "tools/mcp/main.ts")],
  cwd: tree,
  stderr: "ignore",
});
const client = new Client({ name: "llm-context-bench", version: "1.0.0" });
await client.connect(transport);
try {
  // The index (built by the server if the tree has none) and the call worker, warm.
  await client.callTool({ name: "context", arguments: { task: tasks[0], budget: BUDGET } });
  console.log(`${tasks.length} sympy tasks, budget ${BUDGET} tokens, ${tree}`);
  console.log("| calls | median | max |");
  console.log("| --- | --- | --- |");
  for (const round of ["new task", "asked again"]) {
    const times: number[] = [];
    for (const task of tasks) {
      const started = performance.now();
      await client.callTool({ name: "context", arguments: { task, budget: BUDGET } });
      times.push(performance.now() - started);
    }
    console.log(`| ${round} | ${ms(median(times))} | ${ms(Math.max(...times))} |`);
  }
} finally {
  await client.close();
}
