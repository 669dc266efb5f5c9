/**
 * llm-discover against `fdfind -t f . | fzf --filter QUERY` on the same trees, in the same run:
 * medians, ratios, peak RSS, and whether both put the same path first. Two floor rows show
 * where the time goes: Deno's start with the tool's modules (`--version`) and fd's walk alone.
 * Run: `deno run -A bench/discover_bench.ts [--runs N]`.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { LINUX, prepare } from "./prepare.ts";
import { median, ms, runOnce, type Sample, sample } from "./measure.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const ENTRY = join(REPO, "tools/discover/main.ts");
const CONFIG = join(REPO, "deno.json");

interface Case {
  /** The query, given to both tools as is (fzf's extended syntax is the default in both). */
  query: string;
  /** Target ratio to the peer, when there is one. */
  target?: number;
}

type Command = [command: string, args: string[]];

function ours(args: string[], root: string): Command {
  return ["deno", ["run", "--quiet", `--config=${CONFIG}`, `--allow-read=${root}`, ENTRY, ...args]];
}

function peer(query: string): Command {
  const quoted = `'${query.replaceAll("'", `'\\''`)}'`;
  return ["sh", ["-c", `fdfind -t f . | fzf --filter ${quoted}`]];
}

/**
 * Runs two commands `runs` times each, alternating, after one warm-up each: on a shared machine
 * the load then weighs on both alike.
 */
async function alternate(a: Command, b: Command, cwd: string, runs: number): Promise<Sample[][]> {
  const samples: Sample[][] = [[], []];
  await runOnce(...a, cwd);
  await runOnce(...b, cwd);
  for (let i = 0; i < runs; i++) {
    samples[0].push(await runOnce(...a, cwd));
    samples[1].push(await runOnce(...b, cwd));
  }
  return samples;
}

function wall(samples: Sample[]): number {
  return median(samples.map((s) => s.ms));
}

function describe(samples: Sample[]): string {
  const rss = samples.map((s) => s.rssMb ?? 0);
  return `${ms(wall(samples))} (peak RSS ${Math.max(...rss).toFixed(0)} MB)`;
}

function firstOfOurs(stdout: Uint8Array): string | undefined {
  const envelope = JSON.parse(new TextDecoder().decode(stdout));
  return envelope.data.results[0]?.path;
}

function firstOfPeer(stdout: Uint8Array): string | undefined {
  return new TextDecoder().decode(stdout).split("\n")[0] || undefined;
}

/** Runs every case on the tree at `root`; returns whether every target held. */
async function benchTree(
  label: string,
  root: string,
  runs: number,
  cases: Case[],
  absoluteTarget?: number,
): Promise<boolean> {
  console.log(`\n## ${label} (${root})`);
  console.log("| query | llm-discover | fd \\| fzf --filter | ratio | target | first result |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  let held = true;
  for (const { query, target } of cases) {
    const [mine, theirs] = await alternate(ours([query], root), peer(query), root, runs);
    const ratio = wall(mine) / wall(theirs);
    const first = [firstOfOurs(mine[0].stdout), firstOfPeer(theirs[0].stdout)];
    const same = first[0] === first[1] ? `same: ${first[0]}` : `${first[0]} vs ${first[1]}`;
    const absolute = absoluteTarget === undefined || wall(mine) <= absoluteTarget;
    const ok = (target === undefined || ratio <= target) && absolute;
    held &&= ok;
    const goal = [
      target === undefined ? "" : `≤ ${target}×`,
      absoluteTarget === undefined ? "" : `≤ ${absoluteTarget} ms`,
    ].filter(Boolean).join(", ");
    console.log(
      `| \`${query}\` | ${describe(mine)} | ${describe(theirs)} | ${ratio.toFixed(2)}× | ` +
        `${goal || "—"}${ok ? "" : " MISSED"} | ${same} |`,
    );
  }
  const start = await sample(...ours(["--version"], root), root, runs);
  const walk = await sample("fdfind", ["-t", "f", "."], root, runs);
  console.log(
    `| floor: \`llm-discover --version\` (Deno start + modules) | ${describe(start)} | | | | |`,
  );
  console.log(`| floor: \`fdfind -t f .\` alone | | ${describe(walk)} | | | |`);
  return held;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { runs: { type: "string", default: "5" } },
  });
  const runs = Number(values.runs);
  await prepare();
  const small = await benchTree("this repository", REPO, runs, [{ query: "walker" }], 100);
  const linux = await benchTree("Linux 6.1", LINUX, runs, [
    { query: "schedcore", target: 1.0 },
    { query: "sched core" },
    { query: "^drivers .c$ !test usbserial" },
    { query: "kconfig" },
  ]);
  console.log(`\ntargets ${small && linux ? "held" : "MISSED"}`);
  if (!(small && linux)) Deno.exitCode = 1;
}
