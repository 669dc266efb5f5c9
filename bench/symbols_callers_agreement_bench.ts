/**
 * How far the call sites `llm-symbols` extracts (`core/symbol_index/extract.ts`) agree with
 * cscope's on the Linux 6.1 `kernel/` directory (`.c` and `.h` files, read as C): for a fixed
 * sample of 200 functions (seeded, among the functions we find in `.c` files), the direct
 * callers (`cscope -L -3 NAME`) and callees (`cscope -L -2 NAME`), compared as call sites
 * (file, line, caller, callee). Precision and recall of ours against cscope, target ≥ 0.95
 * each; then the disagreements with examples. And the function definitions against
 * universal-ctags' (`--kinds-C=f`, by file, line and name), target ≥ 0.99 each.
 *
 * cscope's database is built in a temporary directory (`-f`), never in the Linux tree.
 *
 * Run: `deno task bench symbols_callers` or `deno run -A bench/symbols_callers_agreement_bench.ts`.
 *
 * @module
 */
import { join, relative } from "node:path";
import { LINUX, prepare } from "./prepare.ts";
import { extractFacts } from "../core/symbol_index/extract.ts";

/** One call site: the file, the line of the call, the calling function and the called name. */
interface CallSite {
  file: string;
  line: number;
  caller: string;
  callee: string;
}

/** What cscope names a call at file scope (in an initialiser or a macro). */
const GLOBAL = "<global>";
/** Functions sampled. */
const SAMPLE = 200;
/** Seed of the sample's shuffle, printed with the results. */
const SEED = 20261123;
const decoder = new TextDecoder();

const key = (site: CallSite) => `${site.file}\0${site.line}\0${site.caller}\0${site.callee}`;

/** Every `.c` and `.h` file under `dir`, relative to `base`, sorted. */
function sources(dir: string, base: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...sources(path, base));
    else if (entry.isFile && /\.[ch]$/.test(entry.name)) found.push(relative(base, path));
  }
  return found.sort();
}

/** Our call sites, function names (of `.c` files) and function definitions of every file. */
async function ourFacts(root: string, files: string[]) {
  const calls: CallSite[] = [];
  const functions = new Set<string>();
  const definitions: string[] = [];
  const started = performance.now();
  for (const file of files) {
    const facts = await extractFacts("c", Deno.readTextFileSync(join(root, file)));
    for (const symbol of facts.symbols) {
      if (symbol.kind !== "function") continue;
      if (file.endsWith(".c")) functions.add(symbol.name);
      definitions.push(`${file}:${symbol.name_extent.start_line} ${symbol.name}`);
    }
    for (const reference of facts.references) {
      if (reference.kind !== "call") continue;
      calls.push({
        file,
        line: reference.extent.start_line,
        caller: reference.enclosing ?? GLOBAL,
        callee: reference.name,
      });
    }
  }
  const ms = performance.now() - started;
  return { calls, functions: [...functions].sort(), definitions, ms };
}

/** universal-ctags' function definitions (`.h` read as C, as ours), as `file:line name`. */
async function ctagsFunctions(root: string): Promise<string[]> {
  const lines = await run("ctags", [
    "--options=NONE",
    "-R",
    "--languages=C",
    "--langmap=C:+.h",
    "--kinds-C=f",
    "--fields=+n",
    "--output-format=json",
    "-f",
    "-",
    ".",
  ], root);
  return lines.map((line) => JSON.parse(line))
    .filter((tag) => tag._type === "tag")
    .map((tag) => `${relative(".", tag.path)}:${tag.line} ${tag.name}`);
}

/** A deterministic sample of `count` of `items` (a linear congruential shuffle). */
function sample<T>(items: T[], count: number): T[] {
  const shuffled = [...items];
  let state = SEED;
  for (let i = shuffled.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  return shuffled.slice(0, count);
}

/** Runs a peer in `root`, returning the lines it prints. */
async function run(command: string, args: string[], root: string): Promise<string[]> {
  const output = await new Deno.Command(command, { args, cwd: root, stdout: "piped" }).output();
  if (!output.success) throw new Error(`${command} ${args.join(" ")} exited with ${output.code}`);
  return decoder.decode(output.stdout).split("\n").filter((line) => line.trim() !== "");
}

/** Runs cscope in `root` (its database is named in `args`). */
function cscope(root: string, args: string[]): Promise<string[]> {
  return run("cscope", args, root);
}

/** cscope's call sites of the sampled functions: as callee (`-3`) and as caller (`-2`). */
async function peerCalls(root: string, db: string, names: string[]) {
  const callers: CallSite[] = [];
  const callees: CallSite[] = [];
  for (const name of names) {
    for (const line of await cscope(root, ["-d", "-k", "-f", db, "-L", "-3", name])) {
      const [file, caller, at] = line.split(" ");
      callers.push({ file, line: Number(at), caller, callee: name });
    }
    for (const line of await cscope(root, ["-d", "-k", "-f", db, "-L", "-2", name])) {
      const [file, callee, at] = line.split(" ");
      callees.push({ file, line: Number(at), caller: name, callee });
    }
  }
  return { callers, callees };
}

/** Precision, recall and the disagreements of `ours` against `peer`. */
function compare(ours: CallSite[], peer: CallSite[]) {
  const ourKeys = new Set(ours.map(key));
  const peerKeys = new Set(peer.map(key));
  const both = [...ourKeys].filter((k) => peerKeys.has(k)).length;
  return {
    ours: ourKeys.size,
    peer: peerKeys.size,
    both,
    precision: ourKeys.size ? both / ourKeys.size : 1,
    recall: peerKeys.size ? both / peerKeys.size : 1,
    onlyOurs: ours.filter((site) => !peerKeys.has(key(site))),
    onlyPeer: peer.filter((site) => !ourKeys.has(key(site))),
  };
}

function unique(sites: CallSite[]): CallSite[] {
  const seen = new Map<string, CallSite>();
  for (const site of sites) seen.set(key(site), site);
  return [...seen.values()];
}

function show(site: CallSite): string {
  return `\`${site.file}:${site.line} ${site.caller} → ${site.callee}\``;
}

if (import.meta.main) {
  await prepare();
  const root = join(LINUX, "kernel");
  const files = sources(root, root);
  const temp = await Deno.makeTempDir({ prefix: "symbols-cscope-" });
  try {
    const db = join(temp, "cscope.out");
    const built = performance.now();
    await cscope(root, ["-b", "-q", "-k", "-R", "-f", db]);
    const cscopeMs = performance.now() - built;
    const { calls, functions, definitions, ms } = await ourFacts(root, files);
    const tags = await ctagsFunctions(root);
    const names = sample(functions, SAMPLE);
    const wanted = new Set(names);
    const peer = await peerCalls(root, db, names);
    const results = [
      {
        label: "callers (`-3`)",
        ...compare(unique(calls.filter((c) => wanted.has(c.callee))), unique(peer.callers)),
      },
      {
        label: "callees (`-2`)",
        ...compare(unique(calls.filter((c) => wanted.has(c.caller))), unique(peer.callees)),
      },
    ];
    console.log(
      `\n## Call sites on Linux 6.1 kernel/ against cscope, ${names.length} functions ` +
        `(sample seed ${SEED})\n`,
    );
    console.log(
      `${files.length} files; cscope -b -q -k -R ${cscopeMs.toFixed(0)} ms, ` +
        `extractFacts over all ${ms.toFixed(0)} ms (one thread)\n`,
    );
    console.log("| relation | cscope | ours | both | precision | recall |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    for (const r of results) {
      console.log(
        `| ${r.label} | ${r.peer} | ${r.ours} | ${r.both} | ${r.precision.toFixed(4)} | ` +
          `${r.recall.toFixed(4)} |`,
      );
    }
    const callsMet = results.every((r) => r.precision >= 0.95 && r.recall >= 0.95);
    console.log(`\ntarget precision and recall ≥ 0.95: ${callsMet ? "met" : "NOT met"}\n`);
    const tagSet = new Set(tags);
    const ourSet = new Set(definitions);
    const shared = definitions.filter((d) => tagSet.has(d)).length;
    const [precision, recall] = [shared / ourSet.size, shared / tagSet.size];
    console.log("| function definitions | ctags | ours | both | precision | recall |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    console.log(
      `| file, line, name | ${tagSet.size} | ${ourSet.size} | ${shared} | ` +
        `${precision.toFixed(4)} | ${recall.toFixed(4)} |`,
    );
    const definitionsMet = precision >= 0.99 && recall >= 0.99;
    console.log(`\ntarget ≥ 0.99: ${definitionsMet ? "met" : "NOT met"}\n`);
    const met = callsMet && definitionsMet;
    const examples = Number(Deno.env.get("EXAMPLES") ?? "8");
    for (const r of results) {
      console.log(`${r.label}, cscope only: ${r.onlyPeer.slice(0, examples).map(show).join(", ")}`);
      console.log(`${r.label}, ours only: ${r.onlyOurs.slice(0, examples).map(show).join(", ")}`);
    }
    if (!met) Deno.exitCode = 1;
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}
