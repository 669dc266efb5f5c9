/**
 * How the engines scale with workers: `llm-search`, `llm-ast-search --kind function` and a cold
 * `llm-symbols index` of this repository (and of Linux `kernel/` when the corpus is prepared),
 * each at `--threads` 1, 2, 4, 8, 16 and the default (sized to the work, `core/workers.ts`),
 * medians of interleaved runs. Run on a machine with many cores, it shows what one worker per
 * core would give against the default; on any machine it shows where adding workers stops paying.
 *
 * Run: `deno run -A bench/threads_bench.ts [--runs N]`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LINUX } from "./prepare.ts";
import {
  type Command,
  denoRun,
  interleaved,
  ms,
  REPO,
  runsOption,
  type Sample,
  wall,
} from "./measure.ts";

const runs = runsOption(5);
const cores = navigator.hardwareConcurrency ?? 1;
const THREADS = [1, 2, 4, 8, 16];

/** A command of a tool at `threads` workers (undefined: the default). */
type Case = { name: string; command: (threads: number | undefined) => Command; cwd: string };

function withThreads(args: string[], threads: number | undefined): string[] {
  return threads === undefined ? args : ["--threads", String(threads), ...args];
}

/** A cold index: the index folder removed before each run by a wrapping shell. */
function coldIndex(root: string, threads: number | undefined): Command {
  const [deno, args] = denoRun("tools/symbols/main.ts", [
    "index",
    ...withThreads([], threads),
  ], "--allow-read");
  const line = [deno, ...args.slice(0, 3), "--allow-write", ...args.slice(3)]
    .map((part) => `'${part}'`).join(" ");
  return ["sh", ["-c", `rm -rf '${join(root, ".llm")}' && ${line}`]];
}

const cases: Case[] = [
  {
    name: "llm-search export (this repository)",
    command: (t) => denoRun("tools/search/main.ts", withThreads(["--count", "export", "."], t)),
    cwd: REPO,
  },
  {
    name: "llm-ast-search --kind function (this repository)",
    command: (t) =>
      denoRun("tools/ast-search/main.ts", withThreads(["--kind", "function", "--limit", "1"], t)),
    cwd: REPO,
  },
];
const copy = await Deno.makeTempDir({ prefix: "llm-threads-" });
await new Deno.Command("cp", { args: ["-r", join(REPO, "core"), join(REPO, "tools"), copy] })
  .output();
cases.push({
  name: "llm-symbols index, cold (core/ and tools/)",
  command: (t) => coldIndex(copy, t),
  cwd: copy,
});
const kernel = join(LINUX, "kernel");
if (existsSync(kernel)) {
  cases.push({
    name: "llm-symbols index, cold (Linux kernel/)",
    command: (t) => coldIndex(kernel, t),
    cwd: kernel,
  });
}

const counts: (number | undefined)[] = [
  ...THREADS.filter((t) => t <= Math.max(cores, 4)),
  undefined,
];
console.log(`${cores} cores; medians of ${runs} interleaved runs`);
console.log(`| run | ${counts.map((t) => t === undefined ? "default" : `${t}`).join(" | ")} |`);
console.log(`| --- | ${counts.map(() => "---").join(" | ")} |`);
try {
  for (const { name, command, cwd } of cases) {
    const samples = await interleaved(counts.map(command), cwd, runs);
    // A run that failed has no time to show (its exit code instead).
    const cell = (runs: Sample[]) => {
      const failed = runs.find((run) => run.code !== 0);
      return failed ? `exit ${failed.code}` : ms(wall(runs));
    };
    console.log(`| ${name} | ${samples.map(cell).join(" | ")} |`);
  }
} finally {
  await Deno.remove(copy, { recursive: true });
}
