/**
 * How fast llm-mcp answers `tools/list` and `ping` while a slow call runs (issue 33's target:
 * `tools/list` within 50 ms): a search of seconds (`tests/slow_search.ts`) is started, and once
 * its first progress notification shows it under way, `tools/list` and `ping` are timed ten times
 * each; then the call is cancelled. Both ways a server runs calls: in call workers (read
 * permission for the package too) and on its own thread (read permission scoped to the tree,
 * where workers cannot start). Driven by the official SDK's stdio client.
 *
 * Run: `deno run -A bench/mcp_slow_call_bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CONFIG, median, ms, REPO } from "./measure.ts";
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
