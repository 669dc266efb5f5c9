/**
 * `llm-symbols` against its issue's targets (issue 14), beside universal-ctags and cscope in
 * the same run, interleaved round by round, medians of `--runs N` rounds (default 3) with the
 * load average at the start and end of each section:
 *
 * 1. cold index of Linux 6.1 `kernel/` (definitions, references, calls) against
 *    `ctags -R --fields=+n` (target ≤ 4×) and `cscope -b -q -R`, beside its floor
 *    (`symbols_floor.ts`: the same files on the same workers, parsed only, then extracted
 *    without hashing or SQLite), so that the table shows where the time goes;
 * 2. the whole Linux tree indexed cold, once: wall, CPU and peak RSS (target ≤ 1.5 GB);
 * 3. `index` of the whole tree after one file's content changed (target ≤ 1.5 s), beside
 *    cscope's rebuild after the same edit; the file is restored (bytes and times) after each
 *    round and in any case before the bench ends; then inside the MCP server (the host's live
 *    index, in this process, warm): one file edited, the next `symbols_find` timed with the
 *    refresh it makes first (target ≤ 100 ms), for `kernel/fork.c` and a file of median size;
 * 4. `find`, `refs`, `callers` for a few names on the indexed tree, run as the README runs them
 *    (`--allow-read` only): wall (min and median of `--query-runs N`, default 10) including
 *    Deno's start (target ≤ 100 ms), CPU and peak RSS, beside `cscope -d -L -1/-0/-3` and
 *    `readtags` on a tags file of the tree; then what a run is made of: `deno eval 0`, the fast
 *    path refusing a missing index (start and modules, no SQLite), and the phases measured inside
 *    the process (`symbols_query_phases.ts`: start, modules, open, query, print); then the same
 *    queries inside the MCP server, warm (target ≤ 10 ms).
 *
 * Every index is written to `<tree>/.llm/bench.db` (`.llm/` is left out of every walk), the
 * peers' databases to a temporary folder; nothing else is written into the tree. A peer that
 * is not installed is skipped with a note. Agreement with the peers (function definitions
 * against ctags, callers against `cscope -L -3` on 200 functions) is
 * `symbols_callers_agreement_bench.ts`, which `deno task bench symbols` runs too.
 *
 * Options: `--runs N`; `--query-runs N`; `--reuse-tree` keeps an existing `<tree>/.llm/bench.db` instead of
 * indexing the whole tree cold again (that section takes minutes); `--only kernel,tree,edit,queries`
 * runs only the sections named (edit and queries need the tree's index; the peers' databases
 * are built first, unmeasured, when the tree section did not build them).
 *
 * Run: `deno task bench symbols` or `deno run -A bench/symbols_bench.ts`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LINUX, prepare } from "./prepare.ts";
import { type Command, CONFIG, median, REPO, runOnce, runsOption, type Sample } from "./measure.ts";
import { MemoryCache } from "../core/cache.ts";
import { liveIndex } from "../core/symbol_index/live.ts";
import { findSymbols, findUses, type QueryOptions } from "../tools/symbols/queries.ts";

/** Index database of every run, relative to the indexed root. */
const DB = ".llm/bench.db";
/** The file edited for the incremental run, relative to the tree. */
const EDITED = "kernel/fork.c";
/** The symbols the query rows ask about: few, some and many uses. */
const QUERY_NAMES = ["kernel_clone", "schedule", "kmalloc"];
/** The queries' target: wall time including Deno's start. */
const QUERY_TARGET_MS = 100;
/** The edited files of the host rows: `EDITED` and one of the tree's median size. */
const HOST_EDITED = [EDITED, "kernel/sched/loadavg.c"];
/** Targets inside the MCP server: an answer after one edit, and a query. */
const HOST_EDIT_TARGET_MS = 100;
const HOST_QUERY_TARGET_MS = 10;
/** Fewest rounds of the host rows. */
const HOST_RUNS = 7;

/** A row of a table: a label and its samples. */
interface Row {
  label: string;
  samples: Sample[];
}

/** The permissions `index` is run with. */
const INDEX_PERMISSIONS = ["--allow-read", "--allow-write=.llm", "--allow-env", "--allow-sys"];

/**
 * `llm-symbols` as a user runs it: by default with the permissions `index` needs; the queries
 * with the README's `--allow-read` only.
 */
function symbols(args: string[], permissions = INDEX_PERMISSIONS): Command {
  return denoRun("tools/symbols/main.ts", args, permissions);
}

/** `deno run` of the repository's `script` with `args`, quiet, under `permissions`. */
function denoRun(script: string, args: string[], permissions: string[]): Command {
  return ["deno", [
    "run",
    "--quiet",
    `--config=${CONFIG}`,
    ...permissions,
    join(REPO, script),
    ...args,
  ]];
}

/** `llm-symbols` queries as the README runs them: read permission only. */
function symbolsQuery(args: string[]): Command {
  return symbols(args, ["--allow-read"]);
}

function installed(command: string): boolean {
  return ["/usr/bin", "/usr/local/bin", "/bin"].some((dir) => existsSync(join(dir, command)));
}

function loadAverage(): string {
  return Deno.loadavg().map((load) => load.toFixed(2)).join(" ");
}

/** Removes the files `paths` that exist. */
function removeFiles(paths: string[]): void {
  for (const path of paths) {
    try {
      Deno.removeSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/** Removes the bench's index database of `root` with its WAL siblings. */
function removeDb(root: string): void {
  removeFiles(["", "-wal", "-shm"].map((suffix) => join(root, DB + suffix)));
}

/** Runs `command` in `cwd` once, failing the bench on a non-zero exit. */
async function timed([command, args]: Command, cwd: string): Promise<Sample> {
  const sample = await runOnce(command, args, cwd);
  if (sample.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} exited with ${sample.code} in ${cwd}`);
  }
  return sample;
}

function cell(samples: Sample[]): string {
  const wall = median(samples.map((s) => s.ms));
  const fastest = Math.min(...samples.map((s) => s.ms));
  const cpu = median(samples.map((s) => s.cpuMs ?? NaN));
  const rss = Math.max(...samples.map((s) => s.rssMb ?? 0));
  return `${wall.toFixed(0)} ms | ${fastest.toFixed(0)} ms | ${cpu.toFixed(0)} ms | ${
    rss.toFixed(0)
  } MB`;
}

/** Prints rows with their ratio of wall and CPU time to the first row's. */
function table(title: string, rows: Row[], target?: { label: string; met: boolean }): void {
  console.log(`\n## ${title}\n`);
  console.log(
    `| | wall (median) | wall (min) | CPU (median) | peak RSS | ${
      rows[0].label
    } ÷ row, wall | … CPU |`,
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  const base = rows[0].samples;
  for (const row of rows) {
    const ratio = (pick: (s: Sample) => number) =>
      (median(base.map(pick)) / median(row.samples.map(pick))).toFixed(2);
    console.log(
      `| ${row.label} | ${cell(row.samples)} | ${ratio((s) => s.ms)}× | ` +
        `${ratio((s) => s.cpuMs ?? NaN)}× |`,
    );
  }
  if (target) console.log(`\ntarget ${target.label}: ${verdict(target.met)}`);
  console.log(`\nload average now: ${loadAverage()}`);
}

function verdict(met: boolean): string {
  return met ? "✓ met" : "✗ NOT met";
}

/**
 * Interleaved rounds of some measured steps, each with its own set-up left out of its time,
 * after one unmeasured round when `warmUp`.
 */
async function rounds(
  runs: number,
  steps: { label: string; before?: () => void | Promise<void>; run: () => Promise<Sample> }[],
  warmUp = false,
): Promise<Row[]> {
  const rows = steps.map((step) => ({ label: step.label, samples: [] as Sample[] }));
  for (let round = warmUp ? -1 : 0; round < runs; round++) {
    for (const [i, step] of steps.entries()) {
      await step.before?.();
      const sample = await step.run();
      if (round >= 0) rows[i].samples.push(sample);
    }
  }
  return rows;
}

/** Section 1: cold index of `kernel/` against ctags and cscope. */
async function coldKernel(runs: number, temp: string): Promise<void> {
  const kernel = join(LINUX, "kernel");
  console.log(`\nload average before kernel/: ${loadAverage()}`);
  const steps = [{
    label: "llm-symbols index",
    // Cold: no symbol index and no repository index (which `index` writes too).
    before: () => {
      removeDb(kernel);
      removeFiles([join(kernel, ".llm/trigram.idx")]);
    },
    run: () => timed(symbols(["index", "--db", DB]), kernel),
  }];
  // The floor under the index: the same workers parsing only, then extracting without SQLite.
  for (const mode of ["parse", "extract"]) {
    steps.push({
      label: `floor: ${mode} only (symbols_floor.ts)`,
      before: () => {},
      run: () => timed(floorCommand(mode), kernel),
    });
  }
  if (installed("ctags")) {
    steps.push({
      label: "ctags -R --fields=+n",
      before: () => {},
      run: () => timed(["ctags", ["-R", "--fields=+n", "-f", join(temp, "kernel.tags")]], kernel),
    });
  } else console.log("ctags is not installed: its row is skipped");
  if (installed("cscope")) {
    steps.push({
      label: "cscope -b -q -R",
      before: () => removeCscope(temp, "kernel"),
      run: () => timed(["cscope", ["-b", "-q", "-R", "-f", join(temp, "kernel.out")]], kernel),
    });
  } else console.log("cscope is not installed: its row is skipped");
  const rows = await rounds(runs, steps);
  const ours = median(rows[0].samples.map((s) => s.ms));
  const ctags = rows.find((row) => row.label.startsWith("ctags"));
  table(
    `Cold index of Linux 6.1 kernel/, median of ${runs}, interleaved`,
    rows,
    ctags
      ? { label: "≤ 4× ctags (wall)", met: ours <= 4 * median(ctags.samples.map((s) => s.ms)) }
      : undefined,
  );
}

/** `symbols_floor.ts` in `mode`, with the permissions of `index`. */
function floorCommand(mode: string): Command {
  return denoRun("bench/symbols_floor.ts", ["--mode", mode], INDEX_PERMISSIONS);
}

/** Removes a cscope database and its inverted index. */
function removeCscope(temp: string, name: string): void {
  removeFiles([".out", ".out.in", ".out.po"].map((suffix) => join(temp, name + suffix)));
}

/** Section 2: the whole tree, cold, once each. */
async function coldTree(reuse: boolean, temp: string): Promise<void> {
  console.log(`\nload average before the whole tree: ${loadAverage()}`);
  const rows: Row[] = [];
  if (reuse && existsSync(join(LINUX, DB))) {
    console.log(`\n${DB} of the tree reused (--reuse-tree)`);
  } else {
    removeDb(LINUX);
    rows.push({
      label: "llm-symbols index",
      samples: [await timed(symbols(["index", "--db", DB]), LINUX)],
    });
  }
  if (installed("ctags")) {
    const args = ["-R", "--fields=+n", "-f", join(temp, "tree.tags")];
    rows.push({ label: "ctags -R --fields=+n", samples: [await timed(["ctags", args], LINUX)] });
  }
  if (installed("cscope")) {
    const args = ["-b", "-q", "-R", "-f", join(temp, "tree.out")];
    rows.push({ label: "cscope -b -q -R", samples: [await timed(["cscope", args], LINUX)] });
  }
  if (rows.length === 0 || rows[0].label !== "llm-symbols index") {
    for (const row of rows) console.log(`${row.label}: ${cell(row.samples)}`);
    return;
  }
  const rss = rows[0].samples[0].rssMb ?? NaN;
  table("Whole Linux 6.1 tree indexed cold, one run each", rows, {
    label: "peak RSS ≤ 1.5 GB",
    met: rss <= 1536,
  });
}

/** Section 3: the whole tree after one file's content changed. */
async function afterEdit(runs: number, temp: string): Promise<void> {
  const path = join(LINUX, EDITED);
  const original = Deno.readFileSync(path);
  const { atime, mtime } = Deno.statSync(path);
  const restore = () => {
    Deno.writeFileSync(path, original);
    Deno.utimeSync(path, atime ?? new Date(), mtime ?? new Date());
  };
  let edits = 0;
  const edit = () => {
    const marker = new TextEncoder().encode(`\n/* symbols bench edit ${++edits} */\n`);
    Deno.writeFileSync(path, new Uint8Array([...original, ...marker]));
  };
  console.log(`\nload average before the edit rounds: ${loadAverage()}`);
  const steps = [{
    label: `llm-symbols index, ${EDITED} edited`,
    before: edit,
    run: () => timed(symbols(["index", "--db", DB]), LINUX),
  }];
  if (installed("cscope")) {
    await peerDatabase(temp, "tree.out", ["cscope", [
      "-b",
      "-q",
      "-R",
      "-f",
      join(temp, "tree.out"),
    ]]);
    steps.push({
      label: `cscope -b -q -R (rebuild), ${EDITED} edited`,
      before: edit,
      run: () => timed(["cscope", ["-b", "-q", "-R", "-f", join(temp, "tree.out")]], LINUX),
    });
  }
  try {
    const rows = await rounds(runs, steps, true);
    const ours = median(rows[0].samples.map((s) => s.ms));
    table(`Whole tree after one edit, median of ${runs}, interleaved`, rows, {
      label: "≤ 1.5 s",
      met: ours <= 1500,
    });
  } finally {
    restore();
    await runOnce(...symbols(["index", "--db", DB]), LINUX);
  }
  // A host round costs milliseconds: more of them, so the parser's warm-up is not the median.
  await hostAfterEdit(Math.max(runs, HOST_RUNS));
}

/** Milliseconds with one decimal (a host's answers take a few). */
function fine(values: number[]): string {
  return `${median(values).toFixed(1)} ms (min ${Math.min(...values).toFixed(1)}, max ${
    Math.max(...values).toFixed(1)
  })`;
}

async function elapsed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Section 3, inside the MCP server: the host's live index (what the server keeps: the open
 * index, its watcher), warm; each round edits one file and times the next `symbols_find`
 * (the refresh it makes first, then the query). The first edit after the start, which also
 * warms the parser up, is reported apart.
 */
async function hostAfterEdit(runs: number): Promise<void> {
  console.log(`\n## Inside the MCP server after one edit (${runs} rounds per file)\n`);
  console.log(`load average: ${loadAverage()}\n`);
  const cache = new MemoryCache();
  const options: QueryOptions = { root: LINUX, db: DB, cache, limit: 20 };
  const started = await elapsed(() => liveIndex(cache, LINUX, DB).fresh());
  console.log(`host start (open, watchers, walk): ${started.toFixed(0)} ms`);
  try {
    for (const file of HOST_EDITED) {
      const path = join(LINUX, file);
      const original = Deno.readFileSync(path);
      const { atime, mtime } = Deno.statSync(path);
      const times: number[] = [];
      try {
        for (let round = -1; round < runs; round++) {
          const marker = new TextEncoder().encode(`\n/* symbols bench host edit ${round} */\n`);
          Deno.writeFileSync(path, new Uint8Array([...original, ...marker]));
          const ms = await elapsed(() => findSymbols(options, "schedule", "exact"));
          if (round < 0) console.log(`${file}: first edit after the start ${ms.toFixed(0)} ms`);
          else times.push(ms);
        }
      } finally {
        Deno.writeFileSync(path, original);
        Deno.utimeSync(path, atime ?? new Date(), mtime ?? new Date());
        await liveIndex(cache, LINUX, DB).fresh();
      }
      const met = median(times) <= HOST_EDIT_TARGET_MS;
      console.log(
        `${file} (${original.length} bytes) edited, then find: ${fine(times)}; ` +
          `target ≤ ${HOST_EDIT_TARGET_MS} ms: ${verdict(met)}`,
      );
    }
  } finally {
    cache.close();
  }
  console.log(`\nload average now: ${loadAverage()}`);
}

/**
 * Section 4, inside the MCP server: `find`, `refs` and `callers` of the query names answered by
 * the warm host (its refresh with nothing changed included), medians of `runs`.
 */
async function hostQueries(runs: number): Promise<void> {
  console.log(`\n## Inside the MCP server, warm (${runs} runs each)\n`);
  console.log(`load average: ${loadAverage()}\n`);
  const cache = new MemoryCache();
  const options: QueryOptions = { root: LINUX, db: DB, cache, limit: 20 };
  const asks: Record<string, (name: string) => Promise<unknown>> = {
    find: (name) => findSymbols(options, name, "exact"),
    refs: (name) => findUses(options, name, { callsOnly: false }),
    callers: (name) => findUses(options, name, { callsOnly: true }),
  };
  try {
    await liveIndex(cache, LINUX, DB).fresh();
    console.log("| | median | min | max | ≤ 10 ms |");
    console.log("| --- | --- | --- | --- | --- |");
    for (const [subcommand, ask] of Object.entries(asks)) {
      for (const name of QUERY_NAMES) {
        await ask(name);
        const times: number[] = [];
        for (let run = 0; run < runs; run++) times.push(await elapsed(() => ask(name)));
        const cells = [median(times), Math.min(...times), Math.max(...times)]
          .map((value) => `${value.toFixed(1)} ms`);
        const met = median(times) <= HOST_QUERY_TARGET_MS;
        console.log(`| ${subcommand} ${name} | ${cells.join(" | ")} | ${met ? "✓" : "✗"} |`);
      }
    }
  } finally {
    cache.close();
  }
  console.log(`\nload average now: ${loadAverage()}`);
}

/**
 * Builds a peer's database in the temporary folder when an earlier section did not (the
 * edit and query sections run alone with `--only`); not measured.
 */
async function peerDatabase(temp: string, name: string, [command, args]: Command): Promise<void> {
  if (existsSync(join(temp, name))) return;
  console.log(`building ${name} for the peer rows (${command}, not measured)…`);
  await timed([command, args], LINUX);
}

/** Section 4: queries on the indexed tree against cscope and readtags, then their make-up. */
async function queries(runs: number, temp: string): Promise<void> {
  const cscopeDb = join(temp, "tree.out");
  const tags = join(temp, "tree.tags");
  if (installed("cscope")) {
    await peerDatabase(temp, "tree.out", ["cscope", ["-b", "-q", "-R", "-f", cscopeDb]]);
  }
  if (installed("ctags")) {
    await peerDatabase(temp, "tree.tags", ["ctags", ["-R", "--fields=+n", "-f", tags]]);
  }
  const hasCscope = installed("cscope") && existsSync(cscopeDb);
  const hasReadtags = installed("readtags") && existsSync(tags);
  if (!hasCscope) console.log("cscope or its database is missing: its rows are skipped");
  if (!hasReadtags) {
    console.log("readtags or the tree's tags file is missing: its rows are skipped");
  }
  console.log(`\nload average before the queries: ${loadAverage()}`);
  const cscopeFields: Record<string, string> = { find: "-1", refs: "-0", callers: "-3" };
  for (const [subcommand, field] of Object.entries(cscopeFields)) {
    for (const name of QUERY_NAMES) {
      const steps = [{
        label: `llm-symbols ${subcommand} ${name}`,
        run: () => timed(symbolsQuery([subcommand, name, "--db", DB]), LINUX),
      }];
      if (hasCscope) {
        steps.push({
          label: `cscope -d -L ${field} ${name}`,
          run: () => timed(["cscope", ["-d", "-f", cscopeDb, "-L", field, name]], LINUX),
        });
      }
      if (hasReadtags && subcommand === "find") {
        steps.push({
          label: `readtags -t tags ${name}`,
          run: () => timed(["readtags", ["-t", tags, name]], LINUX),
        });
      }
      const rows = await rounds(runs, steps, true);
      const ours = median(rows[0].samples.map((s) => s.ms));
      table(`\`${subcommand} ${name}\` on the indexed tree, ${runs} rounds, interleaved`, rows, {
        label: `≤ ${QUERY_TARGET_MS} ms including Deno's start (median wall)`,
        met: ours <= QUERY_TARGET_MS,
      });
    }
  }
  await startUp(runs);
  await phases(runs);
  await hostQueries(runs);
}

/** What every query pays before its own work: Deno's start, and the command line's modules. */
async function startUp(runs: number): Promise<void> {
  const rows = await rounds(runs, [
    { label: "deno eval 0", run: () => timed(["deno", ["eval", "0"]], LINUX) },
    {
      // Refused before SQLite opens (MAG-IO-013, exit 3): the start and the modules alone.
      label: "llm-symbols find x, no index",
      run: () => runOnce(...symbolsQuery(["find", "x", "--db", ".llm/none.db"]), LINUX),
    },
  ], true);
  table(`Start-up, ${runs} rounds, interleaved`, rows);
}

/** The phases of one run measured inside the process, medians of `runs` runs per query. */
async function phases(runs: number): Promise<void> {
  const entry = join(REPO, "bench/symbols_query_phases.ts");
  console.log(`\n## Inside a run (medians of ${runs} runs, ms)\n`);
  console.log("| | start | modules | open | query | print |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const subcommand of ["find", "refs", "callers"]) {
    for (const name of QUERY_NAMES) {
      const samples: Record<string, number>[] = [];
      for (let i = 0; i < runs; i++) {
        const output = await new Deno.Command("deno", {
          args: [
            "run",
            "--quiet",
            `--config=${CONFIG}`,
            "--allow-read",
            entry,
            subcommand,
            name,
            DB,
          ],
          cwd: LINUX,
          stdout: "null",
          stderr: "piped",
        }).output();
        const lines = new TextDecoder().decode(output.stderr).trim().split("\n");
        samples.push(JSON.parse(lines.at(-1)!));
      }
      const cells = ["start", "modules", "open", "query", "print"].map((phase) =>
        median(samples.map((sample) => sample[phase])).toFixed(1)
      );
      console.log(`| ${subcommand} ${name} | ${cells.join(" | ")} |`);
    }
  }
  console.log(
    "\nstart: from the process's time origin to the first module (Deno's start and reading the " +
      "module graph); modules: evaluating the command line's; open: the index read-only; query: " +
      "the engine with its own open; print: the envelope to stdout.",
  );
  console.log(`\nload average now: ${loadAverage()}`);
}

if (import.meta.main) {
  await prepare();
  const runs = runsOption(3);
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "reuse-tree": { type: "boolean" },
      only: { type: "string" },
      "query-runs": { type: "string" },
    },
    strict: false,
  });
  const temp = await Deno.makeTempDir({ prefix: "symbols-bench-" });
  try {
    const only = typeof values.only === "string" ? values.only.split(",") : undefined;
    const wanted = (section: string) => only === undefined || only.includes(section);
    if (wanted("kernel")) {
      await coldKernel(runs, temp);
      removeDb(join(LINUX, "kernel"));
    }
    if (wanted("tree")) await coldTree(values["reuse-tree"] === true, temp);
    if (wanted("edit")) await afterEdit(runs, temp);
    if (wanted("queries")) await queries(Number(values["query-runs"] ?? 10), temp);
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}
