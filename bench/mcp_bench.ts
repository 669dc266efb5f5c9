/**
 * llm-mcp's warm caches: the same ast-search query repeated through one server on an unchanged
 * tree (a copy of Linux 6.1 `kernel/`) against its first call, and against a one-shot
 * `llm-ast-search` run per call (what an agent pays without the server); then a file changed
 * between two calls must show up in the second result. The server is started as the README
 * says (`deno run -R …/mcp`), driven by the official SDK's stdio client. Last, the cost of the
 * call-worker hop: the same small warm call through that server (calls in workers) and through
 * one started with `--allow-read=<root>` only (which runs calls on its main thread), interleaved.
 * Run: `deno run -A bench/mcp_bench.ts [--runs N]`; exits 1 when a target is missed.
 *
 * @module
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LINUX, prepare } from "./prepare.ts";
import { CONFIG, median, ms, REPO, runOnce, runsOption } from "./measure.ts";

/** Warm calls must be at least this many times faster than the first. */
const TARGET = 10;

/** Every C function definition is parsed; the name filter keeps the answer small. */
const QUERY = {
  kind: ["function"],
  name: "^(copy_process|sched_fork|bench_marker_fn)$",
  limit: 0,
  detail: "full",
};
const CHANGED = "sched/core.c";
const MARKER = "\nint bench_marker_fn(void)\n{\n\treturn 0;\n}\n";

interface Match {
  name?: string;
  span: { file_path: string; span_id: string };
}

interface CallOutcome {
  structuredContent: { status: string; data: { count: number; matches: Match[] } };
  isError?: boolean;
}

function names(outcome: CallOutcome): string[] {
  return outcome.structuredContent.data.matches.map((m) => `${m.span.file_path}:${m.name}`);
}

/** A small call: one file, warm after the first time. */
const SMALL_CALL = { name: "search", arguments: { patterns: ["copy_process"], paths: ["fork.c"] } };

/**
 * Connects the SDK client to a server started with `read` as its read permission, and the
 * other permission flags `more`.
 */
export async function connectServer(
  root: string,
  read: string,
  ...more: string[]
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: "deno",
    args: [
      "run",
      "--quiet",
      `--config=${CONFIG}`,
      read,
      ...more,
      join(REPO, "tools/mcp/main.ts"),
      "--root",
      root,
    ],
    cwd: root,
    stderr: "inherit",
  });
  const client = new Client({ name: "llm-mcp-bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function smallCallMs(client: Client): Promise<number> {
  const start = performance.now();
  await client.callTool(SMALL_CALL);
  return performance.now() - start;
}

/** Medians of the small call through the worker server and an in-process one, interleaved. */
async function hop(worker: Client, root: string, runs: number): Promise<[number, number]> {
  const inProcess = await connectServer(root, `--allow-read=${root}`);
  try {
    const times: [number[], number[]] = [[], []];
    await smallCallMs(worker);
    await smallCallMs(inProcess);
    for (let i = 0; i < runs; i++) {
      times[0].push(await smallCallMs(worker));
      times[1].push(await smallCallMs(inProcess));
    }
    return [median(times[0]), median(times[1])];
  } finally {
    await inProcess.close();
  }
}

async function timed(client: Client): Promise<{ ms: number; outcome: CallOutcome }> {
  const start = performance.now();
  const outcome = await client.callTool({ name: "ast_search", arguments: QUERY }) as CallOutcome;
  const took = performance.now() - start;
  if (outcome.isError) throw new Error(JSON.stringify(outcome.structuredContent));
  return { ms: took, outcome };
}

async function main(): Promise<void> {
  const runs = runsOption(5);
  await prepare();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-mcp-bench-" }));
  cpSync(join(LINUX, "kernel"), root, { recursive: true });
  let failed = false;
  const client = await connectServer(root, "-R");
  try {
    const first = await timed(client);
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      const call = await timed(client);
      warm.push(call.ms);
      if (JSON.stringify(names(call.outcome)) !== JSON.stringify(names(first.outcome))) {
        throw new Error("a warm call answered differently from the first");
      }
    }
    const cli: number[] = [];
    for (let i = 0; i < Math.min(runs, 3); i++) {
      const sample = await runOnce("deno", [
        "run",
        "--quiet",
        `--config=${CONFIG}`,
        "-R",
        join(REPO, "tools/ast-search/main.ts"),
        "--kind",
        "function",
        "--name",
        QUERY.name,
        "--limit",
        "0",
      ], root);
      cli.push(sample.ms);
    }
    Deno.writeTextFileSync(join(root, CHANGED), MARKER, { append: true });
    const changed = await timed(client);
    const afterChange = await timed(client);
    const found = names(changed.outcome);
    const seen = found.includes(`${CHANGED}:bench_marker_fn`);
    const ratio = first.ms / median(warm);
    failed = ratio < TARGET || !seen;
    console.log(
      `kernel/ copy (${root}); query: functions named ${QUERY.name}; ${found.length} matches`,
    );
    console.log("| case | median | vs warm call |");
    console.log("| --- | --- | --- |");
    console.log(
      `| first call through the server (parses every file) | ${ms(first.ms)} | ` +
        `${ratio.toFixed(1)}× (target ≥ ${TARGET}×) |`,
    );
    console.log(`| same call again, unchanged tree (${runs} runs) | ${ms(median(warm))} | 1× |`);
    console.log(
      `| one-shot llm-ast-search CLI per call | ${ms(median(cli))} | ` +
        `${(median(cli) / median(warm)).toFixed(1)}× |`,
    );
    console.log(
      `| call after ${CHANGED} changed (re-parses that file) | ${ms(changed.ms)} | ` +
        `${(changed.ms / median(warm)).toFixed(1)}× |`,
    );
    console.log(
      `| the call after that | ${ms(afterChange.ms)} | ` +
        `${(afterChange.ms / median(warm)).toFixed(1)}× |`,
    );
    console.log(`changed file's new function in the next result: ${seen ? "yes" : "NO"}`);
    const [inWorker, onMain] = await hop(client, root, 4 * runs);
    console.log(
      `small warm call (search in fork.c), median of ${4 * runs}: ${ms(inWorker)} in a call ` +
        `worker, ${ms(onMain)} on the main thread: the hop costs ${ms(inWorker - onMain)}`,
    );
    console.log(failed ? "FAILED" : "ok");
  } finally {
    await client.close();
    await Deno.remove(root, { recursive: true });
  }
  if (failed) Deno.exitCode = 1;
}

if (import.meta.main) await main();
