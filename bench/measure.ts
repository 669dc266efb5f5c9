/**
 * Timing helpers shared by the benches: run a command several times, take the median wall
 * time, and read peak RSS through GNU time when it is installed.
 *
 * @module
 */
import { existsSync } from "node:fs";

/** One timed run. */
export interface Sample {
  /** Wall time in milliseconds. */
  ms: number;
  /** Peak resident set size in MB, when GNU time was available. */
  rssMb?: number;
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
    args: timed ? ["-f", "%M", "-o", rssFile, command, ...args] : args,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - start;
  let rssMb: number | undefined;
  if (timed) {
    const text = Deno.readTextFileSync(rssFile).trim().split("\n").pop() ?? "";
    rssMb = Number(text) / 1024;
    Deno.removeSync(rssFile);
  }
  return { ms, rssMb, code: output.code, stdout: output.stdout };
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs a command `runs` times after one warm-up; returns the samples. */
export async function sample(
  command: string,
  args: string[],
  cwd: string,
  runs: number,
): Promise<Sample[]> {
  await runOnce(command, args, cwd);
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await runOnce(command, args, cwd));
  return samples;
}

/** Formats milliseconds. */
export function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}
