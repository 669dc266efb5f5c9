/**
 * Freshness of the symbol index on the Linux tree: after editing one file, `llm-symbols index`
 * from the command line (walk, stamp check, hash, re-parse), and inside a long-lived host (the MCP
 * server's live index: its file watcher's dirty set, then the re-parse); then `find`, `refs` and
 * `callers` answered from the host's open index. The peer: cscope's incremental rebuild of its
 * cross-reference after the same edit (`cscope -b -q -R`, database in a temporary folder), in
 * the same rounds. The edited file is restored after each run.
 * Needs the tree's index (`llm-symbols index` in the tree first). Run:
 * `deno run -A bench/symbols_live_bench.ts [--runs N] [--root DIR --file PATH] [--no-cscope]` (default: the
 * Linux tree and its `kernel/sched/loadavg.c`, a file of the median size).
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MemoryCache } from "../core/cache.ts";
import { liveIndex } from "../core/symbol_index/live.ts";
import { findSymbols, findUses, type QueryOptions } from "../tools/symbols/queries.ts";
import { type Command, CONFIG, median, REPO, runOnce, runsOption } from "./measure.ts";
import { LINUX } from "./prepare.ts";

const runs = runsOption(5);
const { values } = parseArgs({
  args: Deno.args,
  options: { root: { type: "string" }, file: { type: "string" }, "no-cscope": { type: "boolean" } },
  strict: false,
});
const root = typeof values.root === "string" ? values.root : LINUX;
const EDITED = typeof values.file === "string" ? values.file : "kernel/sched/loadavg.c";
const path = join(root, EDITED);

try {
  Deno.statSync(join(root, ".llm/index.db"));
} catch {
  console.log(`no index in ${root}: run \`llm-symbols index\` there first`);
  Deno.exit(0);
}

const original = Deno.readFileSync(path);
const stamp = Deno.statSync(path);

/** Appends a comment to the edited file (a new content hash, size and time). */
function edit(run: number): void {
  const comment = new TextEncoder().encode(`\n/* llm-symbols bench edit ${run} */\n`);
  Deno.writeFileSync(path, new Uint8Array([...original, ...comment]));
}

function restore(): void {
  Deno.writeFileSync(path, original);
  Deno.utimeSync(path, stamp.atime ?? new Date(), stamp.mtime ?? new Date());
}

const indexCommand: Command = [
  "deno",
  [
    "run",
    "--quiet",
    `--config=${CONFIG}`,
    "--allow-read",
    `--allow-write=${join(root, ".llm")}`,
    join(REPO, "tools/symbols/main.ts"),
    "index",
  ],
];

const cscopeDir = Deno.makeTempDirSync({ prefix: "llm-symbols-live-bench-" });
const cscope: [string, string[]] = ["cscope", [
  "-b",
  "-q",
  "-R",
  "-f",
  join(cscopeDir, "cscope.out"),
]];
let hasCscope = values["no-cscope"] !== true;
try {
  new Deno.Command("cscope", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync();
} catch {
  hasCscope = false;
}

async function cscopeBuild(): Promise<number> {
  const sample = await runOnce(cscope[0], cscope[1], root);
  if (sample.code !== 0) throw new Error(`cscope exited with ${sample.code}`);
  return sample.ms;
}

async function cliIndex(): Promise<number> {
  const sample = await runOnce(indexCommand[0], indexCommand[1], root);
  if (sample.code !== 0) throw new Error(`llm-symbols index exited with ${sample.code}`);
  return sample.ms;
}

/** Milliseconds with one decimal (the host's answers take a few). */
function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

async function timed<T>(work: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

try {
  await cliIndex(); // the index matches the disk before the first edit
  if (hasCscope) await cscopeBuild();
  const cli: number[] = [];
  const peer: number[] = [];
  for (let run = 0; run < runs; run++) {
    edit(run);
    cli.push(await cliIndex());
    if (hasCscope) peer.push(await cscopeBuild());
    restore();
    await cliIndex();
    if (hasCscope) await cscopeBuild();
  }
  const ratio = hasCscope
    ? ` vs cscope -b -q -R ${ms(median(peer))} (${(median(cli) / median(peer)).toFixed(2)}×)`
    : " (cscope not run)";
  console.log(`cli index after one edit: median ${ms(median(cli))} (target ≤ 1.5 s)${ratio}`);

  const cache = new MemoryCache();
  const options: QueryOptions = { root, cache, limit: 20 };
  const live = liveIndex(cache, root, undefined);
  const first = await timed(() => live.fresh());
  console.log(`host: first refresh (watcher start + walk) ${ms(first)}`);
  const refresh: number[] = [];
  const idle: number[] = [];
  for (let run = 0; run < runs; run++) {
    edit(run);
    refresh.push(await timed(() => findSymbols(options, "schedule", "exact")));
    idle.push(await timed(() => live.fresh()));
    restore();
    await live.fresh();
  }
  console.log(
    `host: find after one edit (refresh + query) median ${ms(median(refresh))} (target ≤ 100 ms)`,
  );
  console.log(`host: refresh with nothing changed median ${ms(median(idle))}`);
  const queries: Record<string, () => Promise<unknown>> = {
    "find schedule": () => findSymbols(options, "schedule", "exact"),
    "refs kfree": () => findUses(options, "kfree", { callsOnly: false }),
    "callers schedule_timeout": () => findUses(options, "schedule_timeout", { callsOnly: true }),
  };
  for (const [name, query] of Object.entries(queries)) {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) times.push(await timed(query));
    console.log(`host: ${name} median ${ms(median(times))} (target ≤ 10 ms)`);
  }
  cache.close();
} finally {
  restore();
  Deno.removeSync(cscopeDir, { recursive: true });
}
