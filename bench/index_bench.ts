/**
 * The repository index (`.llm/trigram.idx`) on the Linux 6.1 tree, against Google's Code Search
 * (`cindex`/`csearch`), ripgrep and `fd | fzf`, in the same run:
 *
 * 1. the posting format against SQLite FTS5's trigram tokenizer on a sample (`kernel/`):
 *    build time, size, candidate lookup time;
 * 2. building on the whole tree against `cindex`: wall time, index size against the indexed
 *    bytes, peak RSS;
 * 3. indexed search from the command line (its freshness check included) and inside a warm MCP
 *    server, against ripgrep and `csearch`, for the cases of `search_bench.ts`, with a check
 *    that the CLI finds ripgrep's match set;
 * 4. indexed discover against `fd | fzf`, with its floor (`discover_floor.ts`: all it does before
 *    it scores a path) and the peer's own scoring of the file list (`--discover-only` runs this
 *    section alone);
 * 5. the warm MCP server (index in memory, kept fresh by a file watcher) against ripgrep for the
 *    literal cases (target ≤ 0.05×) and against `fd | fzf` for discover (target ≤ 0.5×), each
 *    call interleaved with one peer run, the ratio taken against the peer run with no server
 *    running, since a server's file watcher slows it (`--server-only` runs this section alone);
 * 6. a chart of the times (`bench/index_bench.svg`).
 *
 * The index is written into the Linux tree's `.llm/` (or that of `LLM_SEARCH_BENCH_TREE`);
 * `cindex`'s beside that tree. Run: `deno run -A bench/index_bench.ts [--runs N]`; with
 * `--build-only ROOT`, it only builds ROOT's index. Exits 1 when a match set differs.
 *
 * @module
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { openIndex } from "../core/trigram/reader.ts";
import { ENTRY_FLAGS } from "../core/trigram/format.ts";
import { LINUX, prepare } from "./prepare.ts";
import {
  type Command,
  CONFIG,
  denoRun,
  describe,
  interleaved,
  median,
  ms,
  REPO,
  runOnce,
  runsOption,
  type Sample,
  wall,
} from "./measure.ts";
import { CASES, ourMatches, ripgrepMatches, type SearchCase } from "./search_bench.ts";
import { connectServer } from "./mcp_bench.ts";

/**
 * The tree indexed and searched: `LLM_SEARCH_BENCH_TREE` when set (a private copy of the Linux
 * tree, so that a bench run does not race another index run on the shared one), else Linux 6.1.
 */
const TREE = Deno.env.get("LLM_SEARCH_BENCH_TREE") ?? LINUX;
/** Where `cindex` writes its index: beside the tree (for Linux 6.1, in the bench cache). */
const CSEARCH_INDEX = `${TREE}.csearchindex`;
/** The chart this bench writes. */
const CHART = join(REPO, "bench", "index_bench.svg");
/** Literals looked up in the sample comparison. */
const SAMPLE_LITERALS = ["PM_RESUME", "spin_lock_irqsave", "copy_process"];

/** One bar of the chart: a case, a tool, a median wall time. */
interface Bar {
  group: string;
  tool: string;
  ms: number;
}

function timed<T>(run: () => T): [T, number] {
  const start = performance.now();
  const value = run();
  return [value, performance.now() - start];
}

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !entry.name.startsWith(".")) found.push(...filesUnder(path));
    else if (entry.isFile) found.push(path);
  }
  return found;
}

/** FTS5 trigram table of the files of `root`: build time, size, lookup times. */
function fts5Sample(root: string, dbPath: string) {
  const db = new DatabaseSync(dbPath);
  const decoder = new TextDecoder();
  const [, buildMs] = timed(() => {
    db.exec(
      "CREATE VIRTUAL TABLE docs USING fts5(path UNINDEXED, body, tokenize='trigram case_sensitive 1')",
    );
    const insert = db.prepare("INSERT INTO docs(path, body) VALUES (?, ?)");
    db.exec("BEGIN");
    for (const path of filesUnder(root)) insert.run(path, decoder.decode(Deno.readFileSync(path)));
    db.exec("COMMIT");
  });
  const query = db.prepare("SELECT count(*) AS n FROM docs WHERE body MATCH ?");
  const lookups = SAMPLE_LITERALS.map((literal) => {
    const [row, took] = timed(() => query.get(`"${literal}"`) as { n: number });
    return { literal, candidates: row.n, ms: took };
  });
  db.close();
  return { buildMs, bytes: Deno.statSync(dbPath).size, lookups };
}

/** Section 1: our posting file against FTS5 on a copy of `kernel/`. */
function compareWithFts5(): void {
  const sample = Deno.makeTempDirSync({ prefix: "llm-index-sample-" });
  try {
    cpSync(join(TREE, "kernel"), join(sample, "kernel"), { recursive: true });
    const [built, buildMs] = timed(() => buildTrigramIndex({ root: sample }));
    const index = openIndex(join(sample, ".llm", "trigram.idx"))!;
    const ours = SAMPLE_LITERALS.map((literal) => {
      const [bitmap, took] = timed(() => index.candidates([literal], false)!);
      return { literal, candidates: bitmap.reduce((sum, bit) => sum + bit, 0), ms: took };
    });
    index.close();
    const fts = fts5Sample(join(sample, "kernel"), join(sample, "fts5.db"));
    console.log(
      `\n## Posting format: ours vs SQLite FTS5 trigram (sample: kernel/, ${built.indexedFiles} files, ${
        (built.indexedBytes / 1e6).toFixed(1)
      } MB)`,
    );
    console.log("| | ours (.llm/trigram.idx) | FTS5 trigram (case_sensitive 1) |");
    console.log("| --- | --- | --- |");
    console.log(`| build | ${ms(buildMs)} | ${ms(fts.buildMs)} |`);
    console.log(
      `| size | ${(built.indexBytes / 1e6).toFixed(1)} MB | ${(fts.bytes / 1e6).toFixed(1)} MB |`,
    );
    for (const [i, mine] of ours.entries()) {
      const theirs = fts.lookups[i];
      console.log(
        `| candidates of ${mine.literal} | ${mine.candidates} files in ${
          mine.ms.toFixed(1)
        } ms | ` +
          `${theirs.candidates} files in ${theirs.ms.toFixed(1)} ms |`,
      );
    }
  } finally {
    Deno.removeSync(sample, { recursive: true });
  }
}

/** Section 2: building on Linux, ours and cindex alternately. */
async function compareBuilds(runs: number): Promise<void> {
  const ours: Sample[] = [];
  const theirs: Sample[] = [];
  const build: Command = ["deno", [
    "run",
    "-A",
    `--config=${CONFIG}`,
    join(REPO, "bench/index_bench.ts"),
    "--build-only",
    TREE,
  ]];
  for (let round = 0; round < runs; round++) {
    ours.push(await runOnce(...build, TREE));
    theirs.push(await runOnce("env", [`CSEARCHINDEX=${CSEARCH_INDEX}`, "cindex", TREE], TREE));
  }
  const outcome = JSON.parse(new TextDecoder().decode(ours.at(-1)!.stdout));
  const csearchBytes = Deno.statSync(CSEARCH_INDEX).size;
  console.log(
    `\n## Building the index of Linux 6.1 (${outcome.indexedFiles} files, ${
      (outcome.indexedBytes / 1e9).toFixed(2)
    } GB)`,
  );
  console.log("| | ours | cindex | ratio | target |");
  console.log("| --- | --- | --- | --- | --- |");
  console.log(
    `| wall (peak RSS) | ${describe(ours)} | ${describe(theirs)} | ${
      (wall(ours) / wall(theirs)).toFixed(2)
    }× | ≤ 3× cindex, RSS ≤ 1.5 GB |`,
  );
  console.log(
    `| index size | ${(outcome.indexBytes / 1e6).toFixed(0)} MB (${
      (outcome.indexBytes / outcome.indexedBytes).toFixed(3)
    } of the bytes) | ` +
      `${(csearchBytes / 1e6).toFixed(0)} MB | ${
        (outcome.indexBytes / csearchBytes).toFixed(2)
      }× | ≤ 0.5 of the bytes |`,
  );
}

/** csearch's spelling of a case: RE2, `-F` as an escaped pattern. */
function csearchArgs(args: string[]): string[] {
  const fixed = args.indexOf("-F");
  if (fixed === -1) return ["-n", ...args];
  const rest = args.filter((_, i) => i !== fixed && i !== fixed + 1);
  return ["-n", ...rest, args[fixed + 1].replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")];
}

/** MCP arguments of a case (counts, so the answer stays within the response budget). */
function mcpArguments(args: string[]) {
  const pattern = args.at(-1)!;
  return {
    patterns: [pattern],
    fixed_strings: args.includes("-F"),
    ignore_case: args.includes("-i"),
    count: true,
    limit: 0,
  };
}

/** Median wall time of an MCP call, rounds interleaved with ripgrep runs by the caller. */
async function mcpCall(client: Client, args: string[]): Promise<number> {
  const start = performance.now();
  await client.callTool({ name: "search", arguments: mcpArguments(args) });
  return performance.now() - start;
}

/**
 * The floor under an indexed command line, as a table row: Deno's start and a stat of every
 * indexed file on a worker per core, nothing else (`fs_floor.ts --mode stat`), beside ripgrep's
 * first case.
 */
async function statFloorRow(runs: number): Promise<string> {
  const index = openIndex(join(TREE, ".llm", "trigram.idx"));
  if (!index) return "| floor: no index to stat | | | | | | | | |";
  const list = Deno.makeTempFileSync();
  const files = index.paths.filter((_, id) => !(index.arrays.flags[id] & ENTRY_FLAGS.dir));
  Deno.writeTextFileSync(list, files.join("\n"));
  const [floor, peer] = await interleaved(
    [
      denoRun("bench/fs_floor.ts", ["--mode", "stat", "--list", list]),
      ["rg", ["--json", "--encoding", "none", ...(CASES as SearchCase[])[0].args]],
    ],
    TREE,
    runs,
  );
  Deno.removeSync(list);
  return `| floor: Deno's start and a stat of each of the ${files.length} indexed files on a ` +
    `worker per core, nothing else (\`fs_floor.ts --mode stat\`) | ${describe(floor)} | | ${
      describe(peer)
    } | | ${(wall(floor) / wall(peer)).toFixed(2)}× | | | |`;
}

/**
 * Section 3: indexed search (CLI and MCP warm) against ripgrep and csearch. The command lines run
 * first, with no server running (its file watcher would spend CPU on every file they open); the
 * warm server's calls come after, and are compared with those same ripgrep runs.
 */
async function compareSearches(runs: number, bars: Bar[]): Promise<boolean> {
  console.log(
    "\n## Search on Linux 6.1 (ours with the index; CLI includes start-up and freshness check)",
  );
  console.log(
    "| case | llm-search CLI | llm-mcp warm | ripgrep | csearch | CLI/rg | MCP/rg | targets | same matches as rg |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  const commandLines = [];
  for (const { name, args } of CASES as SearchCase[]) {
    const ours = [...args, "--format", "jsonl", "--limit", "0"];
    // A pattern without a literal must be no slower than the search without the index.
    const unindexed: Command[] = name.startsWith("no literal")
      ? [denoRun("tools/search/main.ts", [...ours, "--no-index"])]
      : [];
    commandLines.push(
      await interleaved(
        [
          denoRun("tools/search/main.ts", ours),
          ["rg", ["--json", "--encoding", "none", ...args]],
          ["env", [`CSEARCHINDEX=${CSEARCH_INDEX}`, "csearch", ...csearchArgs(args)]],
          ...unindexed,
        ],
        TREE,
        runs,
      ),
    );
  }
  // Run before the server starts (its watcher spends CPU on every file others touch).
  const floorRow = await statFloorRow(runs);
  const client = await connectServer(TREE, "-R", `--allow-write=${join(TREE, ".llm")}`);
  let agreed = true;
  try {
    for (const [at, { name, args }] of (CASES as SearchCase[]).entries()) {
      const [ours, rg, cs, unindexed] = commandLines[at];
      const warm: number[] = [];
      await mcpCall(client, args);
      for (let round = 0; round < runs; round++) warm.push(await mcpCall(client, args));
      const ourSet = ourMatches(ours[0].stdout);
      const theirSet = ripgrepMatches(rg[0].stdout);
      const same = ourSet.size === theirSet.size && [...ourSet].every((key) => theirSet.has(key));
      agreed &&= same;
      const literal = !name.startsWith("no literal");
      console.log(
        `| ${name} | ${describe(ours)} | ${ms(median(warm))} | ${describe(rg)} | ${
          ms(wall(cs))
        } | ` +
          `${(wall(ours) / wall(rg)).toFixed(2)}× | ${(median(warm) / wall(rg)).toFixed(3)}× | ` +
          `${literal ? "≤ 0.25× CLI, ≤ 0.05× MCP" : `≤ unindexed (${ms(wall(unindexed))})`} | ${
            same ? `yes (${ourSet.size})` : "NO"
          } |`,
      );
      bars.push(
        { group: name, tool: "llm-search CLI (index)", ms: wall(ours) },
        { group: name, tool: "llm-mcp warm (index)", ms: median(warm) },
        { group: name, tool: "ripgrep", ms: wall(rg) },
        { group: name, tool: "csearch", ms: wall(cs) },
      );
    }
  } finally {
    await client.close();
  }
  console.log(floorRow);
  return agreed;
}

/**
 * Section 4: indexed discover against fd | fzf, and its floor: `discover_floor.ts`, which does
 * all an indexed run does before it scores a path (Deno's start with the tool's modules, the
 * listing read and checked, a stat per recorded folder and ignore file), interleaved with them.
 * The peer's own scoring of the file list (`fzf --filter` reading the list `fd` wrote) shows
 * what ranking the 78,000 paths costs it.
 */
async function compareDiscover(runs: number, bars: Bar[]): Promise<void> {
  console.log("\n## Discover on Linux 6.1 (ours with the index's file list)");
  console.log("| query | llm-discover | fd \\| fzf --filter | ratio | target |");
  console.log("| --- | --- | --- | --- | --- |");
  const list = Deno.makeTempFileSync();
  Deno.writeFileSync(list, (await runOnce("fdfind", ["-t", "f", "."], TREE)).stdout);
  const queries = ["sched core", "Kconfig"];
  const samples = await interleaved(
    [
      ...queries.flatMap((query): Command[] => [
        denoRun("tools/discover/main.ts", [query]),
        ["sh", ["-c", `fdfind -t f . | fzf --filter '${query}'`]],
      ]),
      denoRun("bench/discover_floor.ts", []),
      ["sh", ["-c", `fzf --filter '${queries[0]}' < ${list}`]],
    ],
    TREE,
    runs,
  );
  Deno.removeSync(list);
  for (const [at, query] of queries.entries()) {
    const [ours, theirs] = samples.slice(2 * at, 2 * at + 2);
    console.log(
      `| ${query} | ${describe(ours)} | ${describe(theirs)} | ${
        (wall(ours) / wall(theirs)).toFixed(2)
      }× | ≤ 0.5× |`,
    );
    bars.push(
      { group: `discover '${query}'`, tool: "llm-discover (index)", ms: wall(ours) },
      { group: `discover '${query}'`, tool: "fd | fzf", ms: wall(theirs) },
    );
  }
  const [floor, scoring] = samples.slice(2 * queries.length);
  const peer = wall(samples[1]);
  console.log(
    `| floor: Deno's start with the tool's modules, the listing read and checked, a stat per ` +
      `recorded folder, no path scored (\`discover_floor.ts\`) | ${describe(floor)} | | ${
        (wall(floor) / peer).toFixed(2)
      }× of '${queries[0]}' | |`,
  );
  console.log(
    `| the peer's scoring alone: \`fzf --filter '${queries[0]}'\` reading the file list | | ${
      describe(scoring)
    } | ${(wall(scoring) / peer).toFixed(2)}× of '${queries[0]}' | |`,
  );
}

/**
 * Literal cases of the warm-server target (item 4 of issue 17): the search bench's two, and a
 * selective literal (few candidate files), where the server's own cost per call shows.
 */
const WARM_CASES: SearchCase[] = [
  ...(CASES as SearchCase[]).filter((entry) =>
    ["literal PM_RESUME", "fixed string -F 'spin_lock_irqsave('"].includes(entry.name)
  ),
  { name: "literal copy_process", args: ["copy_process"], target: 0.05 },
];
/** Discover queries of the bench. */
const DISCOVER_QUERIES = ["sched core", "Kconfig"];

/** Wall time of one MCP call. */
async function callMs(client: Client, name: string, args: Record<string, unknown>) {
  const start = performance.now();
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(JSON.stringify(result.structuredContent));
  return performance.now() - start;
}

/** The files a search call verified (read and matched) after the index ruled the rest out. */
async function filesVerified(client: Client, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name: "search", arguments: args });
  const envelope = result.structuredContent as { data?: { index?: { files_verified?: number } } };
  return String(envelope?.data?.index?.files_verified ?? "no index");
}

/** `held`/`MISSED` for a ratio against its target. */
function verdict(ratio: number, target: number): string {
  return `${ratio.toFixed(3)}× (target ≤ ${target}×: ${ratio <= target ? "held" : "MISSED"})`;
}

/** The peer's command for a warm case or a discover query. */
function peerRun(item: SearchCase | string): Promise<Sample> {
  return typeof item === "string"
    ? runOnce("sh", ["-c", `fdfind -t f . | fzf --filter '${item}'`], TREE)
    : runOnce("rg", ["--json", "--encoding", "none", ...item.args], TREE);
}

/**
 * The peer's wall time for each warm case and discover query with no server running. A server's
 * file watcher is told of every file the peer opens (Deno watches with `IN_OPEN`), which costs
 * the server about 240 ms of CPU per ripgrep run over the Linux tree and slows that run by half
 * on two cores: a ratio against a peer beside the server would flatter the server.
 */
async function peersAlone(runs: number): Promise<Map<SearchCase | string, number>> {
  const alone = new Map<SearchCase | string, number>();
  for (const item of [...WARM_CASES, ...DISCOVER_QUERIES]) {
    await peerRun(item);
    const samples: Sample[] = [];
    for (let round = 0; round < runs; round++) samples.push(await peerRun(item));
    alone.set(item, wall(samples));
  }
  return alone;
}

/**
 * Section 5: the warm MCP server (index in memory, kept fresh by its file watcher) against
 * ripgrep and `fd | fzf`, after one warm-up call: each MCP call interleaved with one peer run,
 * the ratio taken against the peer's runs with no server running ({@linkcode peersAlone}).
 */
async function compareWarmServer(runs: number, bars: Bar[]): Promise<void> {
  const alone = await peersAlone(runs);
  console.log("\n## Warm MCP server on Linux 6.1 (interleaved call by call with the peer)");
  console.log(
    "| case | llm-mcp warm | peer alone | ratio | peer beside the server | server's first call | read-only server (a stat per file) | files verified |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  // Write permission for `.llm` only: the server fences its file watcher there.
  const client = await connectServer(TREE, "-R", `--allow-write=${join(TREE, ".llm")}`);
  // Without it the server stats every file at each call, as before the watcher.
  const readOnly = await connectServer(TREE, "-R");
  try {
    let first: number | undefined = await callMs(
      client,
      "search",
      mcpArguments(WARM_CASES[0].args),
    );
    for (const item of WARM_CASES) {
      const { name, args } = item;
      await callMs(client, "search", mcpArguments(args));
      await callMs(readOnly, "search", mcpArguments(args));
      const ours: number[] = [];
      const stamped: number[] = [];
      const beside: Sample[] = [];
      for (let round = 0; round < runs; round++) {
        beside.push(await peerRun(item));
        ours.push(await callMs(client, "search", mcpArguments(args)));
      }
      // Apart: a read-only call stats all 78,000 files, and its wake would be the next call's.
      for (let round = 0; round < runs; round++) {
        stamped.push(await callMs(readOnly, "search", mcpArguments(args)));
      }
      const peer = alone.get(item)!;
      const ratio = median(ours) / peer;
      // The first call starts the watcher and checks every stamp (once per call worker).
      const start = first === undefined ? "" : `${ms(first)} (watcher start, full stamp check)`;
      first = undefined;
      console.log(
        `| ${name} | ${ms(median(ours))} | rg ${ms(peer)} | ${verdict(ratio, 0.05)} | ${
          ms(wall(beside))
        } | ${start} | ${ms(median(stamped))} (${
          (median(stamped) / peer).toFixed(3)
        }×) | ${await filesVerified(
          client,
          mcpArguments(args),
        )} |`,
      );
      bars.push(
        { group: `warm server: ${name}`, tool: "llm-mcp warm (index)", ms: median(ours) },
        { group: `warm server: ${name}`, tool: "ripgrep", ms: peer },
      );
    }
    for (const query of DISCOVER_QUERIES) {
      await callMs(client, "discover", { query });
      const ours: number[] = [];
      const beside: Sample[] = [];
      for (let round = 0; round < runs; round++) {
        beside.push(await peerRun(query));
        ours.push(await callMs(client, "discover", { query }));
      }
      const peer = alone.get(query)!;
      const ratio = median(ours) / peer;
      console.log(
        `| discover '${query}' | ${ms(median(ours))} | fd \\| fzf ${ms(peer)} | ${
          verdict(ratio, 0.5)
        } | ${ms(wall(beside))} | | | |`,
      );
      bars.push(
        {
          group: `warm server: discover '${query}'`,
          tool: "llm-mcp warm (index)",
          ms: median(ours),
        },
        { group: `warm server: discover '${query}'`, tool: "fd | fzf", ms: peer },
      );
    }
  } finally {
    await client.close();
    await readOnly.close();
  }
}

const COLORS: Record<string, string> = {
  "llm-search CLI (index)": "#1f77b4",
  "llm-mcp warm (index)": "#17becf",
  "llm-discover (index)": "#1f77b4",
  "ripgrep": "#d62728",
  "csearch": "#ff7f0e",
  "fd | fzf": "#d62728",
};

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A horizontal bar chart of `bars` (one row per case and tool, a log-free linear scale). */
export function chartSvg(bars: Bar[], title: string): string {
  const rowHeight = 18;
  const left = 420;
  const width = 980;
  const longest = Math.max(...bars.map((bar) => bar.ms), 1);
  const scale = (width - left - 90) / longest;
  const rows: string[] = [];
  let y = 40;
  let group = "";
  for (const bar of bars) {
    if (bar.group !== group) {
      group = bar.group;
      y += 8;
      rows.push(`<text x="8" y="${y + 12}" font-weight="bold">${escapeXml(group)}</text>`);
      y += rowHeight;
    }
    const length = Math.max(1, bar.ms * scale);
    rows.push(
      `<text x="${left - 8}" y="${y + 13}" text-anchor="end">${escapeXml(bar.tool)}</text>`,
      `<rect x="${left}" y="${y + 2}" width="${length.toFixed(1)}" height="${
        rowHeight - 4
      }" fill="${COLORS[bar.tool] ?? "#888"}"/>`,
      `<text x="${(left + length + 6).toFixed(1)}" y="${y + 13}">${bar.ms.toFixed(0)} ms</text>`,
    );
    y += rowHeight;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${
    y + 20
  }" font-family="sans-serif" font-size="12">\n` +
    `<rect width="100%" height="100%" fill="white"/>\n` +
    `<text x="8" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>\n` +
    rows.join("\n") + "\n</svg>\n";
}

if (import.meta.main) {
  const buildOnly = Deno.args.indexOf("--build-only");
  if (buildOnly !== -1) {
    console.log(JSON.stringify(buildTrigramIndex({ root: Deno.args[buildOnly + 1] })));
    Deno.exit(0);
  }
  const runs = runsOption(3);
  await prepare();
  if (Deno.args.includes("--server-only")) {
    await compareWarmServer(Math.max(runs, 5), []);
    Deno.exit(0);
  }
  if (Deno.args.includes("--discover-only")) {
    await compareDiscover(runs, []);
    Deno.exit(0);
  }
  compareWithFts5();
  await compareBuilds(Math.min(runs, 2));
  const bars: Bar[] = [];
  const agreed = await compareSearches(runs, bars);
  // Discover runs are short, and medians of few move with the machine's speed.
  await compareDiscover(Math.max(runs, 11), bars);
  await compareWarmServer(Math.max(runs, 5), bars);
  Deno.writeTextFileSync(
    CHART,
    chartSvg(
      bars,
      `Linux 6.1, median wall time per case (2 cores, one interleaved run, ${
        new Date().toISOString().slice(0, 10)
      })`,
    ),
  );
  // Formatted as the repository's `deno fmt --check` expects of a committed file.
  await new Deno.Command("deno", { args: ["fmt", "--quiet", CHART] }).output();
  console.log(`\nchart: ${CHART}`);
  console.log(`match sets ${agreed ? "agree" : "DIFFER"}`);
  if (!agreed) Deno.exitCode = 1;
}
