/**
 * llm-search against ripgrep on the same trees, in the same run: medians, ratios, peak RSS,
 * and a check that both found the same set of matches (file, absolute byte start and end). A
 * floor row shows what Deno charges for the file-system calls alone (`fs_floor.ts`).
 * Run: `deno run -A bench/search_bench.ts [--runs N]`.
 *
 * @module
 */
import { LINUX, prepare } from "./prepare.ts";
import { denoRun, describe, interleaved, REPO, runsOption, wall } from "./measure.ts";

/** One search case: the same flags given to llm-search and ripgrep. */
export interface SearchCase {
  /** Label in the report. */
  name: string;
  /** Pattern flags shared by both tools. */
  args: string[];
  /** Target ratio to ripgrep. */
  target: number;
}

/** The Linux cases (the index bench runs them too). */
export const CASES: SearchCase[] = [
  { name: "literal PM_RESUME", args: ["PM_RESUME"], target: 1.5 },
  { name: "literal-bearing [A-Z]+_SUSPEND", args: ["[A-Z]+_SUSPEND"], target: 1.5 },
  { name: "case-insensitive -i pm_resume", args: ["-i", "pm_resume"], target: 1.5 },
  { name: "fixed string -F 'spin_lock_irqsave('", args: ["-F", "spin_lock_irqsave("], target: 1.5 },
  { name: "no literal [A-Z]{4}[0-9]{3}", args: ["[A-Z]{4}[0-9]{3}"], target: 3 },
];

/** A match as `path\0start\0end`. */
export type MatchKey = string;

/** Match set from ripgrep's --json: path, absolute start and end of every submatch. */
export function ripgrepMatches(stdout: Uint8Array): Set<MatchKey> {
  const keys = new Set<MatchKey>();
  for (const line of new TextDecoder().decode(stdout).split("\n")) {
    if (!line.startsWith('{"type":"match"')) continue;
    const { data } = JSON.parse(line);
    const path = data.path.text ?? atob(data.path.bytes);
    for (const sub of data.submatches) {
      keys.add(`${path}\0${data.absolute_offset + sub.start}\0${data.absolute_offset + sub.end}`);
    }
  }
  return keys;
}

/** Match set from llm-search's JSONL. */
export function ourMatches(stdout: Uint8Array): Set<MatchKey> {
  const keys = new Set<MatchKey>();
  for (const line of new TextDecoder().decode(stdout).split("\n")) {
    if (!line.startsWith('{"type":"match"')) continue;
    const { span } = JSON.parse(line);
    keys.add(`${span.file_path}\0${span.byte_start}\0${span.byte_end}`);
  }
  return keys;
}

function difference(a: Set<MatchKey>, b: Set<MatchKey>): MatchKey[] {
  return [...a].filter((key) => !b.has(key));
}

/** Runs every case on the tree at `root`; returns whether all match sets agreed. */
async function benchTree(
  label: string,
  root: string,
  runs: number,
  cases: SearchCase[],
): Promise<boolean> {
  console.log(`\n## ${label} (${root})`);
  console.log("| case | llm-search | ripgrep | ratio | target | same matches |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  let agreed = true;
  for (const { name, args, target } of cases) {
    // `--encoding none` stops ripgrep from stripping a UTF-8 BOM: the contract counts its bytes.
    const [ours, theirs] = await interleaved(
      [
        // Unindexed: a repository index there is left unused (the index bench measures it).
        denoRun("tools/search/main.ts", [
          "--no-index",
          ...args,
          "--format",
          "jsonl",
          "--limit",
          "0",
        ]),
        ["rg", ["--json", "--encoding", "none", ...args]],
      ],
      root,
      runs,
    );
    const ourSet = ourMatches(ours[0].stdout);
    const theirSet = ripgrepMatches(theirs[0].stdout);
    const missing = difference(theirSet, ourSet);
    const extra = difference(ourSet, theirSet);
    const same = missing.length === 0 && extra.length === 0;
    agreed &&= same;
    const ratio = wall(ours) / wall(theirs);
    console.log(
      `| ${name} | ${describe(ours)} | ${describe(theirs)} | ${
        ratio.toFixed(2)
      }× | ≤ ${target}× | ` +
        `${
          same ? `yes (${ourSet.size})` : `NO: ${missing.length} missing, ${extra.length} extra`
        } |`,
    );
    for (const key of [...missing.slice(0, 3), ...extra.slice(0, 3)]) {
      console.log(`    differs: ${key.replaceAll("\0", " ")}`);
    }
  }
  const [floor, peer] = await interleaved(
    [
      denoRun("bench/fs_floor.ts", ["--mode", "read"]),
      ["rg", ["--json", "--encoding", "none", ...cases[0].args]],
    ],
    root,
    runs,
  );
  console.log(
    `| floor: Deno listing every folder and reading every file on a worker per core, nothing ` +
      `else (\`fs_floor.ts --mode read\`; ripgrep: ${cases[0].name}) | ${describe(floor)} | ${
        describe(peer)
      } | ${(wall(floor) / wall(peer)).toFixed(2)}× | | |`,
  );
  return agreed;
}

if (import.meta.main) {
  const runs = runsOption(5);
  await prepare();
  const small = await benchTree("this repository", REPO, runs, [
    { name: "literal 'export function'", args: ["export function"], target: 1.5 },
  ]);
  const linux = await benchTree("Linux 6.1", LINUX, runs, CASES);
  console.log(`\nmatch sets ${small && linux ? "agree" : "DIFFER"}`);
  if (!(small && linux)) Deno.exitCode = 1;
}
