/**
 * How fast llm-mcp answers `tools/list` and `ping` while a slow call runs (issue 33's target:
 * `tools/list` within 50 ms): a search of seconds (`tests/slow_search.ts`) is started, and once
 * its first progress notification shows it under way, `tools/list` and `ping` are timed ten times
 * each; then the call is cancelled. Both ways a server runs calls: in call workers (read
 * permission for the package too) and on its own thread (read permission scoped to the tree,
 * where workers cannot start). Last, `tools/list` while a server that may write the index builds
 * it at its start (Linux `kernel/` when the corpus is prepared, else a copy of `core/` and
 * `tools/`). Driven by the official SDK's stdio client.
 *
 * Run: `deno run -A bench/mcp_slow_call_bench.ts`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CONFIG, median, ms, REPO } from "./measure.ts";
import { LINUX } from "./prepare.ts";
import { SLOW_PATTERN, slowText } from "../tests/slow_search.ts";

const TIMED = 10;

async function timed(work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < TIMED; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

const root = await Deno.makeTempDir({ prefix: "llm-mcp-slow-" });
await Deno.writeTextFile(join(root, "slow.txt"), slowText(16));
const modes: [string, string][] = [
  ["call workers", `--allow-read=${root},${REPO}`],
  ["own thread (scoped)", `--allow-read=${root}`],
];
console.log(`| server | tools/list median | tools/list max | ping median | ping max |`);
console.log(`| --- | --- | --- | --- | --- |`);
try {
  for (const [mode, read] of modes) {
    const transport = new StdioClientTransport({
      command: "deno",
      args: ["run", "--quiet", `--config=${CONFIG}`, read, join(REPO, "tools/mcp/main.ts")],
      cwd: root,
      stderr: "ignore",
    });
    const client = new Client({ name: "llm-mcp-bench", version: "1.0.0" });
    await client.connect(transport);
    try {
      const cancel = new AbortController();
      let progressed = false;
      const slow = client.callTool(
        { name: "search", arguments: { patterns: [SLOW_PATTERN] } },
        undefined,
        { signal: cancel.signal, onprogress: () => progressed = true },
      ).catch(() => undefined);
      while (!progressed) await new Promise((resolve) => setTimeout(resolve, 20));
      const lists = await timed(() => client.listTools());
      const pings = await timed(() => client.ping());
      cancel.abort();
      await slow;
      const cells = [lists, pings].flatMap((times) => [ms(median(times)), ms(Math.max(...times))]);
      console.log(`| ${mode} | ${cells.join(" | ")} |`);
    } finally {
      await client.close();
    }
  }
} finally {
  await Deno.remove(root, { recursive: true });
}

/** Whether the index of `tree` has a completed run (its `indexed_at`). */
function indexBuilt(tree: string): boolean {
  try {
    const db = new DatabaseSync(join(tree, ".llm", "index.db"), { readOnly: true });
    try {
      return db.prepare("SELECT 1 FROM meta WHERE key = 'indexed_at'").get() !== undefined;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

// The index's build at the start of a server that may write it, on a tree without one: the
// server answers tools/list meanwhile (the build runs in a call worker).
const kernel = join(LINUX, "kernel");
const tree = await Deno.makeTempDir({ prefix: "llm-mcp-build-" });
const source = existsSync(kernel) ? [kernel] : [join(REPO, "core"), join(REPO, "tools")];
await new Deno.Command("cp", { args: ["-r", ...source, tree] }).output();
const transport = new StdioClientTransport({
  command: "deno",
  args: ["run", "--quiet", `--config=${CONFIG}`, "-A", join(REPO, "tools/mcp/main.ts")],
  cwd: tree,
  stderr: "ignore",
});
const client = new Client({ name: "llm-mcp-bench", version: "1.0.0" });
await client.connect(transport);
try {
  const lists: number[] = [];
  const started = performance.now();
  while (!indexBuilt(tree) && performance.now() - started < 120_000) {
    const asked = performance.now();
    await client.listTools();
    lists.push(performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  const what = existsSync(kernel) ? "Linux kernel/" : "core/ and tools/";
  console.log(
    `| background index build (${what}), ${lists.length} lists | ${ms(median(lists))} | ` +
      `${ms(Math.max(...lists))} | | |`,
  );
} finally {
  await client.close();
  await Deno.remove(tree, { recursive: true });
}
