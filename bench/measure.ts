/**
 * What every bench shares: the repository's paths, how to run a tool's entrypoint the way a
 * user does, timed runs with peak RSS and CPU time (through GNU time when installed), interleaved sampling
 * so a busy machine weighs on every tool alike, medians, and the `--runs N` option.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** Absolute path of the repository. */
export const REPO: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** The repository's deno.json, passed to every `deno run` so npm imports resolve from any cwd. */
export const CONFIG: string = join(REPO, "deno.json");

/** A command line: program and arguments. */
export type Command = [command: string, args: string[]];

/**
 * `deno run` of a repository entrypoint with read permission (`read` scopes it), as a user runs
 * the tool.
 */
export function denoRun(entry: string, args: string[], read = "--allow-read"): Command {
  return ["deno", ["run", "--quiet", `--config=${CONFIG}`, read, join(REPO, entry), ...args]];
}

/** One timed run. */
export interface Sample {
  /** Wall time in milliseconds. */
  ms: number;
  /** Peak resident set size in MB, when GNU time was available. */
  rssMb?: number;
  /** User plus system CPU time in milliseconds (all threads), when GNU time was available. */
  cpuMs?: number;
  /** Exit code. */
  code: number;
  /** Captured stdout. */
  stdout: Uint8Array;
}

const GNU_TIME = "/usr/bin/time";

/** Runs `command args` in `cwd` once, capturing stdout. */
export async function runOnce(command: string, args: string[], cwd: string): Promise<Sample> {
  const timed = existsSync(GNU_TIME);
  const rssFile = timed ? await Deno.makeTempFile() : "";
  const start = performance.now();
  const output = await new Deno.Command(timed ? GNU_TIME : command, {
    args: timed ? ["-f", "%M %U %S", "-o", rssFile, command, ...args] : args,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  let rssMb: number | undefined;
  let cpuMs: number | undefined;
  if (timed) {
    const text = Deno.readTextFileSync(rssFile).trim().split("\n").pop() ?? "";
    const [rssKb, user, system] = text.split(" ").map(Number);
    rssMb = rssKb / 1024;
    cpuMs = (user + system) * 1000;
    Deno.removeSync(rssFile);
  }
  return { ms, rssMb, cpuMs, code: output.code, stdout: output.stdout };
}

/**
 * Runs every command `runs` times, interleaved round by round after one warm-up round, so that
 * load from elsewhere weighs on all of them alike; returns the samples per command.
 */
export async function interleaved(
  commands: Command[],
  cwd: string,
  runs: number,
): Promise<Sample[][]> {
  const samples: Sample[][] = commands.map(() => []);
  for (let round = -1; round < runs; round++) {
    for (const [i, [command, args]] of commands.entries()) {
      const sample = await runOnce(command, args, cwd);
      if (round >= 0) samples[i].push(sample);
    }
  }
  return samples;
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median wall time of some samples, in milliseconds. */
export function wall(samples: Sample[]): number {
  return median(samples.map((s) => s.ms));
}

/** Formats milliseconds. */
export function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

/** "median (peak RSS)" of some samples, for a table cell. */
export function describe(samples: Sample[]): string {
  const rss = Math.max(...samples.map((s) => s.rssMb ?? 0));
  return `${ms(wall(samples))} (peak RSS ${rss.toFixed(0)} MB)`;
}

/** The `--runs N` option of a bench (measured runs per command). */
export function runsOption(fallback: number): number {
  const { values } = parseArgs({
    args: Deno.args,
    options: { runs: { type: "string" } },
    strict: false,
  });
  const runs = Number(values.runs ?? fallback);
  return Number.isInteger(runs) && runs > 0 ? runs : fallback;
}
