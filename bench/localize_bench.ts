/**
 * The localization bench of `llm-context` (issue 32, item 4) on SWE-bench Lite: for each
 * instance (a real GitHub issue and the patch that fixed it), how well a system that reads the
 * issue's text finds the files, functions and lines the patch changes, within a token budget.
 *
 * **Data.** SWE-bench Lite's 300 instances, from `--data PATH` (its JSON) or else from the
 * mirror of `victorxheng/swe-codegen` (`git show HEAD:princeton-nlp--SWE-bench_Lite.json`).
 * Mirrors are bare git directories `<mirrors>/<owner>+<name>/repo` (`--mirrors`, default
 * `/work/.mirror`).
 *
 * **Sets.** `--set dev` (default): the instances of `psf/requests`, `pallets/flask`,
 * `mwaskom/seaborn`, `pydata/xarray` and `sympy/sympy` whose `instance_id` ends in an even
 * number. The issue said 52; by this rule there are 44 (34 sympy, 3 each of requests, seaborn
 * and xarray, 1 flask). `--set heldout`: every other repository's instances, kept for the final
 * measure (do not tune on it; their mirrors are not fetched by default); a repository without a
 * mirror is left out and named (`fetch` brings at most 500 MB: django, matplotlib and
 * scikit-learn are larger, so the held-out set measured here is pytest, sphinx, astropy and
 * pylint, 45 instances). `--instances id,id`: those instances. `--limit N`: the first N of the
 * selection. A mirror may lack its largest blobs (data files): the tree is written without them.
 *
 * **Trees.** Each instance's tree at `base_commit` is written once (`git archive | tar -x`,
 * then an empty `git init` so that the tree is a work tree of its own: the repository's
 * `.gitignore`, which lists `bench/.cache/`, would otherwise hide it from the walker) into
 * `bench/.cache/localize/<owner>+<name>/<commit>/` and reused by later runs. The definitions of
 * each parsed file are kept by blob id in `bench/.cache/localize/defs-v1/`. `--clean` removes
 * both (not the run records) and exits.
 *
 * **Gold** (`localize_gold.ts`): the files the patch changes, their changed lines (for a pure
 * insertion, the lines before and after it) and the innermost functions enclosing them. Hunks
 * are placed where their original lines are, as `git apply` places them: a few SWE-bench
 * patches name lines a little off (`sympy__sympy-11870`: +8).
 *
 * **Systems.**
 * - `bm25-files`: BM25 over the whole text of every `.py` file of the tree (tests included),
 *   query the problem statement (`localize_bm25.ts`); its blocks are whole files.
 * - `bm25-functions`: BM25 over every function and method (its text a document, its span a
 *   block); files ranked by their best function; blocks packed into the budget in rank order.
 * - `llm-context`, when `tools/context/main.ts` exists (`localize_context.ts` holds the call);
 *   else the bench runs the baselines only and says so. `--no-context` skips it;
 *   `--context-entry PATH` (absolute or relative to the repository) runs another entrypoint
 *   with the same command line. The tree's symbol index (`.llm/`, built cold for each
 *   instance) is removed after its runs unless `--keep-index`.
 *
 * **Measures** (`localize_measures.ts`): `file@1`, `file@5`, `func@10` (first ten blocks),
 * `lines@2k`, `lines@8k` (2,000 and 8,000 tokens of `ceil(chars / 4)`). For `llm-context`,
 * files and `func@10` come from its 8,000-token answer; its blocks are re-counted and cut to the
 * budget. For the baselines, `func@10` reads the first ten of the whole ranking.
 *
 * **Output.** Per instance, one JSON line in `bench/.cache/localize/runs/<time>-<set>.jsonl`
 * (gold, measures, ranks, timings); the tables (means, timings) on standard output and in
 * `….md` beside it; the chart in `bench/localize_bench.svg` for the whole dev set
 * (`bench/localize_bench_heldout.svg` for the held-out one; `--set` without `--instances` or
 * `--limit`), else in `….svg` beside the record.
 *
 * Run: `deno run -A bench/localize_bench.ts [--set dev|heldout] [--instances ID,…] [--limit N]
 * [--data PATH] [--mirrors DIR] [--no-context] [--context-entry PATH] [--keep-index]
 * [--clean]`.
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { decodeFile } from "../core/utf8.ts";
import { median, REPO } from "./measure.ts";
import { definitionsOf, FUNCTION_KINDS } from "./localize_parse.ts";
import {
  type Gold,
  goldOf,
  lineCount,
  type OriginalFile,
  parsePatch,
  type SourceDefinition,
} from "./localize_gold.ts";
import {
  bm25Rank,
  filesByBestBlock,
  packBlocks,
  type TermBag,
  termBag,
  textTokens,
  tokenize,
} from "./localize_bm25.ts";
import {
  BUDGETS,
  fileAt,
  funcAt,
  funcRanks,
  goldFileRank,
  linesCovered,
  linesWithin,
  type Measure,
  MEASURES,
  type Outcome,
  tally,
} from "./localize_measures.ts";
import { chartSvg, markdownTable, type SystemSummary } from "./localize_report.ts";
import {
  type AnswerBlock,
  CONTEXT_ENTRY,
  type ContextAnswer,
  contextAvailable,
  indexTree,
  runContext,
  type TimedRun,
} from "./localize_context.ts";

/** One SWE-bench instance (the fields the bench reads). */
export interface Instance {
  /** E.g. `psf__requests-2148`. */
  instance_id: string;
  /** `owner/name`. */
  repo: string;
  /** The commit the patch applies to. */
  base_commit: string;
  /** The fix, a unified diff. */
  patch: string;
  /** The issue's text: the query. */
  problem_statement: string;
  /** When the issue's pull request was made (orders the instances of a repository). */
  created_at?: string;
}

/** The repositories of the development set. */
export const DEV_REPOS: readonly string[] = [
  "psf/requests",
  "pallets/flask",
  "mwaskom/seaborn",
  "pydata/xarray",
  "sympy/sympy",
];

/**
 * Whether an instance is in the development set: a development repository and an
 * `instance_id` ending in an even number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inDevSet } from "./localize_bench.ts";
 * assert.equal(inDevSet({ repo: "psf/requests", instance_id: "psf__requests-2148" }), true);
 * assert.equal(inDevSet({ repo: "psf/requests", instance_id: "psf__requests-2317" }), false);
 * assert.equal(inDevSet({ repo: "django/django", instance_id: "django__django-11000" }), false);
 * ```
 */
export function inDevSet(instance: Pick<Instance, "repo" | "instance_id">): boolean {
  const number = Number(/-(\d+)$/.exec(instance.instance_id)?.[1] ?? NaN);
  return DEV_REPOS.includes(instance.repo) && Number.isInteger(number) && number % 2 === 0;
}

/** Which instances a run takes. */
export interface Selection {
  /** `dev` or `heldout`. */
  set: "dev" | "heldout";
  /** Instance ids, overriding `set`. */
  instances?: readonly string[];
  /** At most this many. */
  limit?: number;
}

/**
 * The instances a selection takes, in data order: the named ones (all must exist), else the
 * development set or every other repository's instances; then the first `limit`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectInstances } from "./localize_bench.ts";
 * const all = [
 *   { repo: "psf/requests", instance_id: "psf__requests-2" },
 *   { repo: "psf/requests", instance_id: "psf__requests-3" },
 *   { repo: "django/django", instance_id: "django__django-4" },
 * ];
 * assert.deepEqual(selectInstances(all, { set: "dev" }).map((i) => i.instance_id), ["psf__requests-2"]);
 * assert.deepEqual(selectInstances(all, { set: "heldout" }).length, 1);
 * assert.deepEqual(selectInstances(all, { set: "dev", instances: ["psf__requests-3"] }).length, 1);
 * ```
 */
export function selectInstances<T extends Pick<Instance, "repo" | "instance_id">>(
  all: readonly T[],
  selection: Selection,
): T[] {
  let chosen: T[];
  if (selection.instances && selection.instances.length > 0) {
    const wanted = new Set(selection.instances);
    chosen = all.filter((instance) => wanted.has(instance.instance_id));
    const missing = [...wanted].filter((id) => !chosen.some((i) => i.instance_id === id));
    if (missing.length > 0) throw new Error(`no such instance: ${missing.join(", ")}`);
  } else if (selection.set === "dev") {
    chosen = all.filter(inDevSet);
  } else {
    chosen = all.filter((instance) => !DEV_REPOS.includes(instance.repo));
  }
  return selection.limit === undefined ? chosen : chosen.slice(0, selection.limit);
}

/** Where the bench keeps trees, parses and run records. */
export const CACHE_DIR: string = join(REPO, "bench", ".cache", "localize");
/** The chart this bench writes. */
const CHART = join(REPO, "bench", "localize_bench.svg");
/** Parse cache, by blob id; bump the version when what is stored changes. */
const DEFS_DIR = join(CACHE_DIR, "defs-v1");
/** The mirror holding SWE-bench Lite's JSON, and the file in it. */
const DATA_MIRROR = "victorxheng+swe-codegen";
const DATA_FILE = "princeton-nlp--SWE-bench_Lite.json";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Runs git with `args` and answers its standard output; throws with its error when it fails. */
export async function git(args: string[], cwd?: string): Promise<Uint8Array> {
  const output = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!output.success) {
    throw new Error(`git ${args.join(" ")}: ${decoder.decode(output.stderr).trim()}`);
  }
  return output.stdout;
}

/** The bare git directory of a repository's mirror. */
export function mirrorOf(mirrors: string, repo: string): string {
  return join(mirrors, repo.replace("/", "+"), "repo");
}

/** SWE-bench Lite's instances, from `data` or from the mirror of swe-codegen. */
export async function loadInstances(
  data: string | undefined,
  mirrors: string,
): Promise<Instance[]> {
  const bytes = data
    ? await Deno.readFile(data)
    : await git(["--git-dir", join(mirrors, DATA_MIRROR, "repo"), "show", `HEAD:${DATA_FILE}`]);
  return JSON.parse(decoder.decode(bytes)) as Instance[];
}

/**
 * The tree of `repo` at `commit`, written once under the cache (a partial one from an
 * interrupted run is replaced); returns its path and how long writing it took (0 if cached).
 */
export async function checkout(
  mirrors: string,
  repo: string,
  commit: string,
): Promise<{ tree: string; ms: number }> {
  const tree = join(CACHE_DIR, repo.replace("/", "+"), commit);
  try {
    await Deno.stat(tree);
    return { tree, ms: 0 };
  } catch { /* not there yet */ }
  const start = performance.now();
  const part = `${tree}.part`;
  await Deno.remove(part, { recursive: true }).catch(() => {});
  await Deno.mkdir(part, { recursive: true });
  const mirror = mirrorOf(mirrors, repo);
  // A mirror may lack a repository's largest blobs (data files, never the Python sources the
  // bench reads): the archive leaves them out rather than fail on them.
  const excluded = (await missingBlobs(mirror, commit)).map((path) => `:(exclude,literal)${path}`);
  const archive = new Deno.Command("git", {
    args: [
      "--git-dir",
      mirror,
      "archive",
      "--format=tar",
      commit,
      ...(excluded.length ? ["--", ".", ...excluded] : []),
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const tar = new Deno.Command("tar", { args: ["-x", "-C", part], stdin: "piped", stderr: "piped" })
    .spawn();
  await archive.stdout.pipeTo(tar.stdin);
  const [archived, untarred] = await Promise.all([archive.output(), tar.output()]);
  if (!archived.success || !untarred.success) {
    throw new Error(
      `checkout of ${repo}@${commit} failed: ${decoder.decode(archived.stderr).trim()} ${
        decoder.decode(untarred.stderr).trim()
      } (is the mirror ${mirror} there?)`,
    );
  }
  await git(["init", "-q", part]);
  await Deno.rename(part, tree);
  return { tree, ms: performance.now() - start };
}

/** Paths of `commit`'s tree whose blobs the mirror does not hold. */
async function missingBlobs(mirror: string, commit: string): Promise<string[]> {
  const listing = decoder.decode(await git(["--git-dir", mirror, "ls-tree", "-r", "-z", commit]));
  const blobs = new Map<string, string[]>();
  for (const entry of listing.split("\0")) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (match) blobs.set(match[1], [...(blobs.get(match[1]) ?? []), match[2]]);
  }
  const check = new Deno.Command("git", {
    args: ["--git-dir", mirror, "cat-file", "--batch-check"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = check.stdin.getWriter();
  await writer.write(new TextEncoder().encode([...blobs.keys()].join("\n") + "\n"));
  await writer.close();
  const { stdout } = await check.output();
  return decoder.decode(stdout).split("\n")
    .filter((line) => line.endsWith(" missing"))
    .flatMap((line) => blobs.get(line.split(" ")[0]) ?? []);
}

/** One function of a tree as the function baseline sees it. */
interface FunctionDoc {
  definition: SourceDefinition;
  bag: TermBag;
  tokens: number;
}

/** What the bench keeps of one file (by blob id). */
interface FileInfo {
  lineCount: number;
  tokens: number;
  bag: TermBag;
  functions: FunctionDoc[];
}

/** One `.py` file of a tree. */
interface TreeFile {
  path: string;
  blob: string;
  info: FileInfo;
}

/** The `.py` files (regular files) of `commit`, with their blob ids. */
async function pythonFiles(
  mirror: string,
  commit: string,
): Promise<{ path: string; blob: string }[]> {
  const listing = decoder.decode(await git(["--git-dir", mirror, "ls-tree", "-r", "-z", commit]));
  const files: { path: string; blob: string }[] = [];
  for (const entry of listing.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const [mode, type, blob] = entry.slice(0, tab).split(" ");
    const path = entry.slice(tab + 1);
    if (type === "blob" && mode.startsWith("100") && path.endsWith(".py")) {
      files.push({ path, blob });
    }
  }
  return files;
}

/** Files' information by blob id, kept across instances of a repository. */
const fileCache = new Map<string, FileInfo>();

/** The function definitions of a file, from the parse cache or a parse. */
async function functionsOf(
  path: string,
  blob: string,
  bytes: Uint8Array,
): Promise<SourceDefinition[]> {
  const cached = join(DEFS_DIR, blob.slice(0, 2), `${blob}.json`);
  try {
    return JSON.parse(decoder.decode(await Deno.readFile(cached)));
  } catch { /* not parsed yet */ }
  const functions = (await definitionsOf(path, bytes)).filter((d) => FUNCTION_KINDS.has(d.kind));
  await Deno.mkdir(join(DEFS_DIR, blob.slice(0, 2)), { recursive: true });
  await Deno.writeTextFile(cached, JSON.stringify(functions));
  return functions;
}

async function fileInfo(tree: string, path: string, blob: string): Promise<FileInfo> {
  const known = fileCache.get(blob);
  if (known) return known;
  const bytes = await Deno.readFile(join(tree, path));
  const text = decodeFile(bytes).decoded.text;
  const functions = (await functionsOf(path, blob, bytes)).map((definition) => {
    const body = decoder.decode(bytes.subarray(definition.byte_start, definition.byte_end));
    return { definition, bag: termBag(tokenize(body)), tokens: textTokens(body) };
  });
  const info = {
    lineCount: lineCount(text),
    tokens: textTokens(text),
    bag: termBag(tokenize(text)),
    functions,
  };
  fileCache.set(blob, info);
  return info;
}

/** The `.py` files of an instance's tree, each with what the baselines and the gold need. */
async function corpusOf(mirror: string, commit: string, tree: string): Promise<TreeFile[]> {
  const files = await pythonFiles(mirror, commit);
  const corpus: TreeFile[] = [];
  for (const { path, blob } of files) {
    corpus.push({ path, blob, info: await fileInfo(tree, path, blob) });
  }
  // Keep only this tree's files: the next instance of the repository shares most of them.
  const kept = new Set(files.map((file) => file.blob));
  for (const blob of fileCache.keys()) if (!kept.has(blob)) fileCache.delete(blob);
  return corpus;
}

/**
 * The gold of an instance, the original files read from `tree`: a file's function definitions
 * come from `known` (the corpus's, parsed once) when it has them, else are parsed here.
 */
export async function goldOfTree(
  instance: Pick<Instance, "patch">,
  tree: string,
  known: (path: string) => SourceDefinition[] | undefined = () => undefined,
): Promise<Gold> {
  const originals = new Map<string, OriginalFile>();
  for (const file of parsePatch(instance.patch)) {
    if (file.oldPath === null || originals.has(file.oldPath)) continue;
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(join(tree, file.oldPath));
    } catch {
      continue; // not in the tree: its hunks stay at their headers' lines
    }
    const text = decodeFile(bytes).decoded.text;
    const lines = text.split("\n");
    if (text.endsWith("\n")) lines.pop();
    const definitions = known(file.oldPath) ??
      (await definitionsOf(file.oldPath, bytes)).filter((d) => FUNCTION_KINDS.has(d.kind));
    originals.set(file.oldPath, { lineCount: lineCount(text), definitions, lines });
  }
  return goldOf(instance.patch, (path) => originals.get(path));
}

/** The gold of an instance, a `.py` file's definitions taken from the corpus. */
function goldOfInstance(instance: Instance, tree: string, corpus: TreeFile[]): Promise<Gold> {
  const byPath = new Map(corpus.map((file) => [file.path, file.info]));
  return goldOfTree(
    instance,
    tree,
    (path) => byPath.get(path)?.functions.map((f) => f.definition),
  );
}

/** A ranked block of a baseline. */
interface RankedBlock extends AnswerBlock {
  score: number;
}

/** A system's answer, as the measures read it. */
interface SystemAnswer {
  /** Ranked files. */
  files: string[];
  /** The blocks `func@10` reads (the first ten). */
  ranked: AnswerBlock[];
  /** The blocks answered at each budget. */
  packed: Record<"lines@2k" | "lines@8k", AnswerBlock[]>;
}

function bm25Files(corpus: TreeFile[], query: string[]): SystemAnswer {
  const ranked = bm25Rank(corpus.map((file) => file.info.bag), query);
  const blocks: RankedBlock[] = ranked.map(({ index, score }) => {
    const file = corpus[index];
    return {
      file_path: file.path,
      start_line: 1,
      end_line: Math.max(1, file.info.lineCount),
      byte_start: 0,
      byte_end: 0,
      tokens: file.info.tokens,
      score,
    };
  });
  return {
    files: blocks.map((block) => block.file_path),
    ranked: [],
    packed: {
      "lines@2k": packBlocks(blocks, BUDGETS["lines@2k"]),
      "lines@8k": packBlocks(blocks, BUDGETS["lines@8k"]),
    },
  };
}

function bm25Functions(corpus: TreeFile[], query: string[]): SystemAnswer {
  const docs: { path: string; doc: FunctionDoc }[] = [];
  for (const file of corpus) {
    for (const doc of file.info.functions) docs.push({ path: file.path, doc });
  }
  const ranked = bm25Rank(docs.map((d) => d.doc.bag), query);
  const blocks: RankedBlock[] = ranked.map(({ index, score }) => {
    const { path, doc } = docs[index];
    return {
      file_path: path,
      start_line: doc.definition.start_line,
      end_line: doc.definition.end_line,
      byte_start: doc.definition.byte_start,
      byte_end: doc.definition.byte_end,
      tokens: doc.tokens,
      score,
    };
  });
  return {
    files: filesByBestBlock(blocks),
    ranked: blocks,
    packed: {
      "lines@2k": packBlocks(blocks, BUDGETS["lines@2k"]),
      "lines@8k": packBlocks(blocks, BUDGETS["lines@8k"]),
    },
  };
}

/** A system's record for one instance. */
interface SystemRecord {
  measures: Record<Measure, Outcome>;
  gold_file_rank: number | null;
  /** Per gold function, the rank of the first block over its gold lines (null: none). */
  gold_function_ranks: (number | null)[] | null;
  lines_covered: Record<"lines@2k" | "lines@8k", number | null>;
  tokens: Record<"lines@2k" | "lines@8k", number>;
  top_files: string[];
  ms: number;
  index?: TimedRun;
  context?: Record<"lines@2k" | "lines@8k", Omit<ContextAnswer, "files" | "blocks">>;
}

function measure(answer: SystemAnswer, gold: Gold, hasFunctionBlocks: boolean): SystemRecord {
  const sum = (blocks: AnswerBlock[]) => blocks.reduce((n, block) => n + block.tokens, 0);
  return {
    measures: {
      "file@1": fileAt(answer.files, gold.files, 1),
      "file@5": fileAt(answer.files, gold.files, 5),
      "func@10": hasFunctionBlocks ? funcAt(answer.ranked, gold.functions, 10) : null,
      "lines@2k": linesWithin(answer.packed["lines@2k"], gold.lines),
      "lines@8k": linesWithin(answer.packed["lines@8k"], gold.lines),
    },
    gold_file_rank: goldFileRank(answer.files, gold.files),
    gold_function_ranks: hasFunctionBlocks ? funcRanks(answer.ranked, gold.functions) : null,
    lines_covered: {
      "lines@2k": linesCovered(answer.packed["lines@2k"], gold.lines),
      "lines@8k": linesCovered(answer.packed["lines@8k"], gold.lines),
    },
    tokens: {
      "lines@2k": sum(answer.packed["lines@2k"]),
      "lines@8k": sum(answer.packed["lines@8k"]),
    },
    top_files: answer.files.slice(0, 5),
    ms: 0,
  };
}

/** Runs `llm-context` on an instance at both budgets (the index built cold first). */
async function contextRecord(
  instance: Instance,
  tree: string,
  gold: Gold,
  entry: string,
  keepIndex: boolean,
): Promise<SystemRecord> {
  const taskDir = join(CACHE_DIR, "tasks");
  await Deno.mkdir(taskDir, { recursive: true });
  const taskFile = join(taskDir, `${instance.instance_id}.md`);
  await Deno.writeTextFile(taskFile, instance.problem_statement);
  const index = await indexTree(tree);
  const small = await runContext(tree, taskFile, BUDGETS["lines@2k"], entry);
  const large = await runContext(tree, taskFile, BUDGETS["lines@8k"], entry);
  for (const answer of [small, large]) {
    if (answer.error) console.error(`  llm-context on ${instance.instance_id}: ${answer.error}`);
  }
  if (index.code !== 0) {
    console.error(`  symbols index on ${instance.instance_id}: exit ${index.code}`);
  }
  const answer: SystemAnswer = {
    files: large.files,
    ranked: large.blocks,
    packed: {
      "lines@2k": packBlocks(small.blocks, BUDGETS["lines@2k"]),
      "lines@8k": packBlocks(large.blocks, BUDGETS["lines@8k"]),
    },
  };
  // The index (175 MB for a sympy tree) goes unless kept: the next run builds it cold anyway.
  if (!keepIndex) await Deno.remove(join(tree, ".llm"), { recursive: true }).catch(() => {});
  const strip = ({ files: _f, blocks: _b, ...rest }: ContextAnswer) => rest;
  return {
    ...measure(answer, gold, true),
    ms: small.ms + large.ms,
    index,
    context: { "lines@2k": strip(small), "lines@8k": strip(large) },
  };
}

/** The systems of a run, in report order. */
const BASELINES = ["bm25-files", "bm25-functions"] as const;

/** One instance's line of the run record. */
interface InstanceRecord {
  instance_id: string;
  repo: string;
  base_commit: string;
  gold: {
    files: string[];
    added: string[];
    lines: number;
    insertion_lines: number;
    file_level_lines: number;
    moved_hunks: number;
    unmatched_hunks: number;
    functions: { file_path: string; qualified_name: string; lines: number[] }[];
  };
  corpus: { files: number; functions: number };
  timings: { checkout_ms: number; corpus_ms: number };
  systems: Record<string, SystemRecord>;
}

async function evaluate(
  instance: Instance,
  mirrors: string,
  contextEntry: string | undefined,
  keepIndex: boolean,
): Promise<InstanceRecord> {
  const { tree, ms: checkoutMs } = await checkout(mirrors, instance.repo, instance.base_commit);
  const corpusStart = performance.now();
  const corpus = await corpusOf(mirrorOf(mirrors, instance.repo), instance.base_commit, tree);
  const corpusMs = performance.now() - corpusStart;
  const gold = await goldOfInstance(instance, tree, corpus);
  const query = tokenize(instance.problem_statement);
  const systems: Record<string, SystemRecord> = {};
  let start = performance.now();
  systems["bm25-files"] = { ...measure(bm25Files(corpus, query), gold, false) };
  systems["bm25-files"].ms = performance.now() - start;
  start = performance.now();
  systems["bm25-functions"] = { ...measure(bm25Functions(corpus, query), gold, true) };
  systems["bm25-functions"].ms = performance.now() - start;
  if (contextEntry) {
    systems["llm-context"] = await contextRecord(instance, tree, gold, contextEntry, keepIndex);
  }
  return {
    instance_id: instance.instance_id,
    repo: instance.repo,
    base_commit: instance.base_commit,
    gold: {
      files: gold.files,
      added: gold.added,
      lines: gold.lines.length,
      insertion_lines: gold.lines.filter((line) => line.kind !== "removed").length,
      file_level_lines: gold.fileLevelLines.length,
      moved_hunks: gold.movedHunks,
      unmatched_hunks: gold.unmatchedHunks,
      functions: gold.functions.map((f) => ({
        file_path: f.file_path,
        qualified_name: f.qualified_name,
        lines: f.lines,
      })),
    },
    corpus: {
      files: corpus.length,
      functions: corpus.reduce((n, file) => n + file.info.functions.length, 0),
    },
    timings: { checkout_ms: checkoutMs, corpus_ms: corpusMs },
    systems,
  };
}

function outcomeText(record: SystemRecord): string {
  return MEASURES.map((m) => {
    const value = record.measures[m];
    return value === null ? "-" : value ? "1" : "0";
  }).join("");
}

function msText(values: number[]): string {
  return values.length === 0 ? "—" : `${median(values).toFixed(0)} ms`;
}

/** The timings table of a run. */
function timingsTable(records: InstanceRecord[], systems: string[]): string {
  const rows = [
    "| step | median per instance | total |",
    "|---|---|---|",
  ];
  const row = (name: string, values: number[]) => {
    const total = values.reduce((a, b) => a + b, 0) / 1000;
    rows.push(`| ${name} | ${msText(values)} | ${total.toFixed(1)} s |`);
  };
  row("checkout (0 when cached)", records.map((r) => r.timings.checkout_ms));
  row(
    "baseline corpus: list, read, parse (cached by blob), tokenize",
    records.map((r) => r.timings.corpus_ms),
  );
  for (const system of BASELINES) {
    row(
      `${system}: rank and pack`,
      records.map((r) => r.systems[system].ms),
    );
  }
  if (systems.includes("llm-context")) {
    row(
      "llm-context: symbols index, cold (wall)",
      records.map((r) => r.systems["llm-context"].index!.ms),
    );
    for (const budget of ["lines@2k", "lines@8k"] as const) {
      row(
        `llm-context: context --budget ${BUDGETS[budget]} (wall, Deno start included)`,
        records.map((r) => r.systems["llm-context"].context![budget].ms),
      );
    }
  }
  return rows.join("\n") + "\n";
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      data: { type: "string" },
      mirrors: { type: "string", default: "/work/.mirror" },
      set: { type: "string", default: "dev" },
      instances: { type: "string" },
      limit: { type: "string" },
      "no-context": { type: "boolean", default: false },
      "context-entry": { type: "string", default: CONTEXT_ENTRY },
      "keep-index": { type: "boolean", default: false },
      clean: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.clean) {
    for (const entry of await Array.fromAsync(Deno.readDir(CACHE_DIR)).catch(() => [])) {
      if (entry.name === "runs" || entry.name === "tasks") continue;
      await Deno.remove(join(CACHE_DIR, entry.name), { recursive: true });
    }
    console.error(`removed the trees and the parse cache of ${CACHE_DIR}`);
    return 0;
  }
  if (values.set !== "dev" && values.set !== "heldout") {
    console.error(`--set is dev or heldout, not ${values.set}`);
    return 2;
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    console.error(`--limit takes a positive integer, not ${values.limit}`);
    return 2;
  }
  let all: Instance[];
  try {
    all = await loadInstances(values.data, values.mirrors);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(
      `SWE-bench Lite not found (${reason}): give --data PATH (its JSON) or --mirrors DIR ` +
        `holding ${DATA_MIRROR}/repo`,
    );
    // Asked for by name, a missing data set fails; met in `deno task bench`, it is skipped.
    return values.data === undefined ? 0 : 1;
  }
  const chosen = selectInstances(all, {
    set: values.set,
    instances: values.instances?.split(",").map((id) => id.trim()).filter(Boolean),
    limit,
  });
  // A repository whose mirror could not be fetched (`fetch` brings at most 500 MB: django,
  // matplotlib and scikit-learn are larger) is left out of the set, and said so.
  const present = new Map<string, boolean>();
  for (const repo of new Set(chosen.map((instance) => instance.repo))) {
    present.set(
      repo,
      await Deno.stat(mirrorOf(values.mirrors, repo)).then(() => true, () => false),
    );
  }
  const absent = [...present].filter(([, there]) => !there).map(([repo]) => repo);
  const selected = chosen.filter((instance) => present.get(instance.repo));
  const leftOut = absent.length
    ? `left out, no mirror in ${values.mirrors}: ${
      absent.map((repo) => `${repo} (${chosen.filter((i) => i.repo === repo).length})`).join(", ")
    }`
    : "";
  if (leftOut) console.error(leftOut);
  // Instances of a repository in time order, so that consecutive trees share most files.
  const ordered = [...selected].sort((a, b) =>
    a.repo.localeCompare(b.repo) || (a.created_at ?? "").localeCompare(b.created_at ?? "")
  );
  const contextEntry = values["context-entry"];
  const withContext = !values["no-context"] && contextAvailable(contextEntry);
  const systems: string[] = [...BASELINES, ...(withContext ? ["llm-context"] : [])];
  const skipped = withContext
    ? ""
    : values["no-context"]
    ? "llm-context skipped (--no-context): baselines only"
    : `${contextEntry} does not exist yet: baselines only`;
  if (skipped) console.error(skipped);
  const label = values.instances ? "instances" : values.set;
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const runsDir = join(CACHE_DIR, "runs");
  await Deno.mkdir(runsDir, { recursive: true });
  const recordFile = join(runsDir, `${stamp}-${label}.jsonl`);
  console.error(`${ordered.length} instances; per instance: ${recordFile}`);
  const records: InstanceRecord[] = [];
  for (const [i, instance] of ordered.entries()) {
    const record = await evaluate(
      instance,
      values.mirrors,
      withContext ? contextEntry : undefined,
      values["keep-index"],
    );
    records.push(record);
    await Deno.writeTextFile(recordFile, JSON.stringify(record) + "\n", { append: true });
    const outcomes = systems.map((s) => `${s} ${outcomeText(record.systems[s])}`).join("  ");
    console.error(
      `[${i + 1}/${ordered.length}] ${instance.instance_id}: ${outcomes}  (corpus ${
        record.timings.corpus_ms.toFixed(0)
      } ms)`,
    );
  }
  const summaries: SystemSummary[] = systems.map((system) => ({
    system,
    tallies: tally(records.map((r) => r.systems[system].measures)),
  }));
  const title = `SWE-bench Lite ${label} set, ${records.length} instances`;
  const note = [skipped, leftOut].filter(Boolean).map((line) => `\n${line}.\n`).join("");
  const report = `## Localization: ${title} (${new Date().toISOString().slice(0, 10)})\n\n` +
    markdownTable(summaries) + note +
    `\nCells: mean (hits/instances measured); — where a measure does not apply to a system.\n\n` +
    `### Timings\n\n${timingsTable(records, systems)}`;
  await Deno.writeTextFile(recordFile.replace(/\.jsonl$/, ".md"), report);
  // The chart of a whole set goes to bench/; that of a part of one beside its run record.
  const whole = values.instances === undefined && limit === undefined;
  const chart = whole
    ? CHART.replace(/\.svg$/, values.set === "dev" ? ".svg" : `_${values.set}.svg`)
    : recordFile.replace(/\.jsonl$/, ".svg");
  await Deno.writeTextFile(chart, chartSvg(summaries, `Localization, ${title}: mean per measure`));
  // `deno fmt --check` covers SVG: the chart is written as the formatter writes it.
  await new Deno.Command("deno", { args: ["fmt", "--quiet", chart], stderr: "null" }).output();
  console.error(`chart: ${chart}`);
  console.log(report);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
