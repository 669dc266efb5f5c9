/**
 * How far `llm-context`'s ranking can go with the evidence it has: the measured floor behind the
 * localization targets it misses (issue 32). Three measures, each reproducible:
 *
 * - **Ceilings** (`--run FILE.jsonl`, a `localize_bench.ts` run's records, any set): `file@1` if
 *   the files listed were put in the best order (the gold file is among them), `func@10` if the
 *   8k answer's blocks were (every gold function has a block in it). Reading a finished run's
 *   aggregates tunes nothing.
 * - **Reweighting** (development set only): what each signal adds to each listed file, as the
 *   ranking counts it (`RankOptions.onEvidence`), fed to a listwise logistic regression fitted
 *   with each repository left out in turn; its `file@1` beside the hand-set weights'. When no
 *   weighting of the signals beats the hand-set one out of sample, the gap is in the evidence,
 *   not in the weights.
 * - **History** (development set only): a signal the ranking does not have, the repository's
 *   past fixes (BugLocator's similar-report score): BM25 of the task over the first-parent
 *   commit messages before `base_commit` (the mirror's log: nothing after the issue), the files
 *   of the best commits, fused with `llm-context`'s file scores at several weights.
 *
 * The last two read the trees and indexes a `localize_bench.ts --set dev --keep-index` run left
 * (as `localize_quick.ts` does) and never the held-out set.
 *
 * Run: `deno run -A bench/localize_floor.ts [--run FILE.jsonl] [--mirrors DIR] [--data PATH]`
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { context } from "../tools/context/engine.ts";
import { type Evidence, isAuxiliary } from "../tools/context/rank.ts";
import { bm25Rank, termBag, tokenize } from "./localize_bm25.ts";
import {
  CACHE_DIR,
  git,
  goldOfTree,
  type Instance,
  loadInstances,
  mirrorOf,
  selectInstances,
} from "./localize_bench.ts";

/** One listed file as the reweighting sees it. */
export interface Candidate {
  /** Root-relative path. */
  file_path: string;
  /** Its score in the answer (the hand-set weights'). */
  score: number;
  /** Whether it is a gold file. */
  gold: boolean;
  /** Its features, in {@linkcode FileFeatures.names} order. */
  features: number[];
}

/**
 * The signal a reason belongs to: its code, with a path named apart from a name named, and
 * callers and callees as one graph signal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signalOf } from "./localize_floor.ts";
 * assert.equal(signalOf("named_in_task:Foo.bar"), "named");
 * assert.equal(signalOf("named_in_task:src/a.py"), "path");
 * assert.equal(signalOf("callee_of:0123"), "graph");
 * assert.equal(signalOf("traceback:a.py:3"), "frame");
 * assert.equal(signalOf("terms"), "terms");
 * ```
 */
export function signalOf(reason: string): string {
  const colon = reason.indexOf(":");
  const code = colon < 0 ? reason : reason.slice(0, colon);
  const value = colon < 0 ? "" : reason.slice(colon + 1);
  if (code === "traceback") return "frame";
  if (code === "named_in_task") return value.includes("/") ? "path" : "named";
  if (code === "callee_of" || code === "caller_of") return "graph";
  return code;
}

/**
 * Signals counted after the files are ranked (the first file's own chunks): left out of a file's
 * features, which would otherwise say which file came first.
 */
const AFTER_FILES = new Set(["terms_in_file"]);

/** Per listed file, what each signal added: its own evidence and its best block's. */
export class FileFeatures {
  /** Feature names, in order. */
  readonly names: string[];
  readonly #signals: string[];

  /** Features over these signals (sorted, so the order is stable). */
  constructor(signals: Iterable<string>) {
    this.#signals = [...new Set(signals)].filter((s) => !AFTER_FILES.has(s)).sort();
    this.names = [
      ...this.#signals.map((s) => `own:${s}`),
      ...this.#signals.map((s) => `best:${s}`),
      "second_block",
      "auxiliary",
      "blocks",
      "hand_set",
    ];
  }

  /**
   * One file's features from the evidence of one ranking; `share` is its hand-set score over the
   * first file's (a feature too, so a fit can keep the hand-set order and correct it).
   */
  of(path: string, evidence: readonly Evidence[], share: number): number[] {
    const own = new Map<string, number>();
    const blocks = new Map<string, Map<string, number>>();
    for (const piece of evidence) {
      if (piece.file_path !== path) continue;
      const signal = signalOf(piece.reason);
      if (AFTER_FILES.has(signal)) continue;
      const into = piece.block === undefined
        ? own
        : blocks.get(piece.block) ?? blocks.set(piece.block, new Map()).get(piece.block)!;
      into.set(signal, (into.get(signal) ?? 0) + piece.score);
    }
    const totals = [...blocks.values()].map((parts) => ({
      parts,
      total: [...parts.values()].reduce((sum, score) => sum + score, 0),
    })).sort((a, b) => b.total - a.total);
    const best = totals[0]?.parts ?? new Map<string, number>();
    return [
      ...this.#signals.map((s) => Math.log1p(Math.max(0, own.get(s) ?? 0))),
      ...this.#signals.map((s) => Math.log1p(Math.max(0, best.get(s) ?? 0))),
      Math.log1p(Math.max(0, totals[1]?.total ?? 0)),
      isAuxiliary(path) ? 1 : 0,
      Math.log1p(totals.length),
      Math.log(Math.max(share, 1e-3)),
    ];
  }
}

/** One instance's listed files, for the reweighting. */
export interface Listing {
  /** The instance. */
  instance_id: string;
  /** Its repository (the fold it is left out with). */
  repo: string;
  /** Its gold files, listed or not. */
  gold_files: string[];
  /** Its listed files, in the answer's order. */
  candidates: Candidate[];
}

/**
 * Weights of a listwise logistic regression: the softmax of `w · x` over an instance's files
 * puts the most probability on its gold files, with an L2 penalty `lambda`; fitted by Adam from
 * zero, a fixed number of steps (deterministic). Instances with no gold file listed teach
 * nothing and are skipped.
 *
 * @example Two instances where the second feature marks the gold file
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitListwise, topChoice } from "./localize_floor.ts";
 * const listing = (gold: number) => ({
 *   instance_id: `i${gold}`, repo: "r", gold_files: [`f${gold}`],
 *   candidates: [0, 1].map((k) => ({
 *     file_path: `f${k}`, score: 1, gold: k === gold, features: [1, k === gold ? 1 : 0],
 *   })),
 * });
 * const weights = fitListwise([listing(0), listing(1)], 0.1);
 * assert.ok(weights[1] > weights[0]);
 * assert.equal(topChoice(listing(1).candidates, weights).file_path, "f1");
 * ```
 */
export function fitListwise(listings: readonly Listing[], lambda: number, steps = 3000): number[] {
  const taught = listings.filter((l) => l.candidates.some((c) => c.gold));
  const dims = listings.find((l) => l.candidates.length > 0)?.candidates[0].features.length ?? 0;
  const w = new Array<number>(dims).fill(0);
  const m = new Array<number>(dims).fill(0);
  const v = new Array<number>(dims).fill(0);
  const rate = 0.05;
  for (let step = 1; step <= steps; step++) {
    const grad = w.map((wi) => 2 * lambda * wi);
    for (const listing of taught) {
      const scores = listing.candidates.map((c) => dot(w, c.features));
      const top = Math.max(...scores);
      const exp = scores.map((s) => Math.exp(s - top));
      const sum = exp.reduce((a, b) => a + b, 0);
      const golds = listing.candidates.filter((c) => c.gold).length;
      listing.candidates.forEach((c, k) => {
        const share = exp[k] / sum - (c.gold ? 1 / golds : 0);
        c.features.forEach((x, d) => grad[d] += share * x);
      });
    }
    for (let d = 0; d < dims; d++) {
      m[d] = 0.9 * m[d] + 0.1 * grad[d];
      v[d] = 0.999 * v[d] + 0.001 * grad[d] ** 2;
      const mh = m[d] / (1 - 0.9 ** step);
      const vh = v[d] / (1 - 0.999 ** step);
      w[d] -= rate * mh / (Math.sqrt(vh) + 1e-8);
    }
  }
  return w;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += a[k] * b[k];
  return sum;
}

/** The candidate the weights put first (ties: the answer's order). */
export function topChoice(candidates: readonly Candidate[], weights: readonly number[]): Candidate {
  let best = candidates[0];
  let bestScore = -Infinity;
  for (const candidate of candidates) {
    const score = dot(weights, candidate.features);
    if (score > bestScore) [best, bestScore] = [candidate, score];
  }
  return best;
}

/** Ceilings of a bench run's `llm-context` records (see the module doc). */
export interface Ceilings {
  /** Instances with gold files. */
  files: number;
  /** The gold file first. */
  file_at_1: number;
  /** The gold file among the files listed: `file@1` in the best order. */
  file_listed: number;
  /** Instances with gold functions. */
  functions: number;
  /** Every gold function in the first ten blocks. */
  func_at_10: number;
  /** Every gold function with a block in the 8k answer: `func@10` in the best order. */
  func_answered: number;
}

/** One record of a bench run, as far as the ceilings read it. */
interface RunRecord {
  systems: Record<string, {
    gold_file_rank: number | null;
    gold_function_ranks: (number | null)[] | null;
  }>;
}

/**
 * The ceilings of `llm-context` in a run's records (JSON lines).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ceilingsOf } from "./localize_floor.ts";
 * const line = (file: number | null, funcs: (number | null)[]) =>
 *   JSON.stringify({ systems: { "llm-context": { gold_file_rank: file, gold_function_ranks: funcs } } });
 * const c = ceilingsOf([line(1, [1]), line(3, [12]), line(null, [null])].join("\n"));
 * assert.deepEqual(c, {
 *   files: 3, file_at_1: 1, file_listed: 2, functions: 3, func_at_10: 1, func_answered: 2,
 * });
 * ```
 */
export function ceilingsOf(jsonl: string): Ceilings {
  const ceilings = {
    files: 0,
    file_at_1: 0,
    file_listed: 0,
    functions: 0,
    func_at_10: 0,
    func_answered: 0,
  };
  for (const line of jsonl.split("\n")) {
    if (line.trim() === "") continue;
    const system = (JSON.parse(line) as RunRecord).systems["llm-context"];
    if (!system) continue;
    ceilings.files++;
    if (system.gold_file_rank === 1) ceilings.file_at_1++;
    if (system.gold_file_rank !== null) ceilings.file_listed++;
    const ranks = system.gold_function_ranks;
    if (ranks && ranks.length > 0) {
      ceilings.functions++;
      if (ranks.every((r) => r !== null && r <= 10)) ceilings.func_at_10++;
      if (ranks.every((r) => r !== null)) ceilings.func_answered++;
    }
  }
  return ceilings;
}

/** Commits of the first-parent history before `commit`, newest first: message and files. */
async function history(
  mirror: string,
  commit: string,
  limit: number,
): Promise<{ message: string; files: string[] }[]> {
  const log = await git([
    "--git-dir",
    mirror,
    "log",
    "--first-parent",
    "-m",
    "--name-only",
    `-n${limit}`,
    "--format=%x00%s%n%b%x01",
    commit,
  ]);
  return new TextDecoder().decode(log).split("\0").slice(1).map((entry) => {
    const [message, files = ""] = entry.split("\x01");
    return { message, files: files.split("\n").filter((f) => f.trim() !== "") };
  }).filter((c) => c.files.length > 0);
}

/** Files of the commits whose messages are most like the task, BugLocator's way. */
function historyScores(
  commits: readonly { message: string; files: string[] }[],
  task: string,
  best: number,
): Map<string, number> {
  const ranked = bm25Rank(commits.map((c) => termBag(tokenize(c.message))), tokenize(task));
  const scores = new Map<string, number>();
  for (const { index, score } of ranked.slice(0, best)) {
    const files = commits[index].files.filter((f) => !isAuxiliary(f));
    for (const file of files) {
      scores.set(file, (scores.get(file) ?? 0) + score / Math.sqrt(files.length));
    }
  }
  return scores;
}

/** File@1 of `llm-context`'s scores fused with history's at weight `mu` (each scaled to 1). */
function fusedTop(listed: readonly Candidate[], past: ReadonlyMap<string, number>, mu: number) {
  const top = listed[0]?.score || 1;
  const most = Math.max(0, ...past.values()) || 1;
  const fused = new Map<string, number>();
  for (const c of listed) fused.set(c.file_path, c.score / top);
  for (const [file, score] of past) fused.set(file, (fused.get(file) ?? 0) + mu * score / most);
  return [...fused].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The development set's listings (and each instance's history scores). */
async function devListings(
  instances: readonly Instance[],
  mirrors: string,
  commits: number,
): Promise<
  { listings: Listing[]; evidence: Evidence[][]; past: Map<string, number>[]; skipped: string[] }
> {
  const listings: Listing[] = [];
  const evidence: Evidence[][] = [];
  const past: Map<string, number>[] = [];
  const skipped: string[] = [];
  for (const instance of selectInstances(instances, { set: "dev" })) {
    const tree = join(CACHE_DIR, instance.repo.replace("/", "+"), instance.base_commit);
    if (!await exists(join(tree, ".llm", "index.db"))) {
      skipped.push(instance.instance_id);
      continue;
    }
    const gold = await goldOfTree(instance, tree);
    const pieces: Evidence[] = [];
    const { data } = await context({
      cwd: tree,
      task: instance.problem_statement,
      budget: 8000,
      onEvidence: (piece) => pieces.push(piece),
    });
    evidence.push(pieces);
    listings.push({
      instance_id: instance.instance_id,
      repo: instance.repo,
      gold_files: gold.files,
      candidates: data.files.map((file) => ({
        file_path: file.file_path,
        score: file.score,
        gold: gold.files.includes(file.file_path),
        features: [],
      })),
    });
    const log = await history(mirrorOf(mirrors, instance.repo), instance.base_commit, commits);
    past.push(historyScores(log, instance.problem_statement, HISTORY_COMMITS_USED));
  }
  return { listings, evidence, past, skipped };
}

/** Commits of a task's most similar past fixes whose files count. */
const HISTORY_COMMITS_USED = 20;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      run: { type: "string" },
      data: { type: "string" },
      mirrors: { type: "string", default: "/work/.mirror" },
      commits: { type: "string", default: "20000" },
    },
  });
  if (values.run) {
    const c = ceilingsOf(await Deno.readTextFile(values.run));
    const share = (n: number, of: number) => `${(n / of).toFixed(2)} (${n}/${of})`;
    console.log(
      `file@1 ${share(c.file_at_1, c.files)}; best order of the listed files ${
        share(c.file_listed, c.files)
      }`,
    );
    console.log(
      `func@10 ${share(c.func_at_10, c.functions)}; best order of the 8k answer ${
        share(c.func_answered, c.functions)
      }`,
    );
    return;
  }
  const instances = await loadInstances(values.data, values.mirrors);
  const { listings, evidence, past, skipped } = await devListings(
    instances,
    values.mirrors,
    Number(values.commits),
  );
  const features = new FileFeatures(evidence.flat().map((piece) => signalOf(piece.reason)));
  listings.forEach((listing, k) => {
    const top = listing.candidates[0]?.score || 1;
    for (const c of listing.candidates) {
      c.features = features.of(c.file_path, evidence[k], c.score / top);
    }
  });
  const n = listings.length;
  const hand = listings.filter((l) => l.candidates[0]?.gold).length;
  const listed = listings.filter((l) => l.candidates.some((c) => c.gold)).length;
  console.log(`dev: ${n} instances; file@1 hand-set ${hand}/${n}; gold file listed ${listed}/${n}`);
  if (skipped.length > 0) console.log(`skipped (no tree or index): ${skipped.join(", ")}`);
  console.log(`features (${features.names.length}): ${features.names.join(" ")}`);
  const hits = (weights: number[], of: readonly Listing[]) =>
    of.filter((l) => l.candidates.length > 0 && topChoice(l.candidates, weights).gold).length;
  const repos = [...new Set(listings.map((l) => l.repo))].sort();
  for (const lambda of [1, 3, 10]) {
    const inSample = hits(fitListwise(listings, lambda), listings);
    let leftOut = 0;
    for (const repo of repos) {
      const weights = fitListwise(listings.filter((l) => l.repo !== repo), lambda);
      leftOut += hits(weights, listings.filter((l) => l.repo === repo));
    }
    console.log(
      `reweighted (L2 ${lambda}): file@1 in sample ${inSample}/${n}, each repository left out ${leftOut}/${n}`,
    );
  }
  const fused = [0.1, 0.2, 0.3, 0.5, 1].map((mu) => {
    const got = listings.filter((l, k) => {
      const top = fusedTop(l.candidates, past[k], mu);
      return top !== undefined && l.gold_files.includes(top);
    }).length;
    return `${mu}: ${got}/${n}`;
  });
  const alone = listings.filter((l, k) => {
    const best = [...past[k]].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
    return best !== undefined && l.gold_files.includes(best);
  }).length;
  console.log(`history alone file@1 ${alone}/${n}; fused at weight ${fused.join(", ")}`);
}

if (import.meta.main) await main();
