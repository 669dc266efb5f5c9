/**
 * The floor measures of the localization bench (`bench/localize_floor.ts`): a run's ceilings,
 * the per-file features made of the ranking's evidence, and the listwise fit.
 */
import assert from "node:assert/strict";
import {
  type Candidate,
  ceilingsOf,
  FileFeatures,
  fitListwise,
  type Listing,
  signalOf,
  topChoice,
} from "../bench/localize_floor.ts";
import type { Evidence } from "../tools/context/rank.ts";

/** One bench record of `llm-context` with its gold file's rank and gold functions' ranks. */
function record(file: number | null, functions: (number | null)[] | null): string {
  return JSON.stringify({
    instance_id: "x",
    systems: {
      "bm25-files": { gold_file_rank: 1, gold_function_ranks: [1] },
      "llm-context": { gold_file_rank: file, gold_function_ranks: functions },
    },
  });
}

Deno.test("localize floor: a run's ceilings count the gold listed anywhere, the hits only first", () => {
  const jsonl = [
    record(1, [2]), // hit both ways
    record(4, [11, 3]), // listed, not first; one function past the tenth block
    record(null, [null]), // not listed, not answered
    record(2, []), // no gold function: left out of the function counts
    record(10, null),
  ].join("\n") + "\n";
  assert.deepEqual(ceilingsOf(jsonl), {
    files: 5,
    file_at_1: 1,
    file_listed: 4,
    functions: 3,
    func_at_10: 1,
    func_answered: 2,
  });
  // Another system's hits are not llm-context's.
  assert.equal(ceilingsOf(record(null, null)).file_listed, 0);
});

Deno.test("localize floor: reasons fall into signals", () => {
  assert.equal(signalOf("traceback:pkg/a.py:12"), "frame");
  assert.equal(signalOf("named_in_task:pkg/a.py"), "path");
  assert.equal(signalOf("named_in_task:Order.total"), "named");
  assert.equal(signalOf("caller_of:00ff"), "graph");
  assert.equal(signalOf("callee_of:00ff"), "graph");
  assert.equal(signalOf("message:index out of range"), "message");
  assert.equal(signalOf("blocks"), "blocks");
});

Deno.test("localize floor: a file's features are its own evidence and its best block's, by signal", () => {
  const evidence: Evidence[] = [
    { file_path: "a.py", reason: "module:a", score: 2 },
    { file_path: "a.py", reason: "module:pkg.a", score: 1 },
    { file_path: "a.py", block: "f", reason: "terms", score: 1 },
    { file_path: "a.py", block: "g", reason: "terms", score: 2 },
    { file_path: "a.py", block: "g", reason: "named_in_task:g", score: 3 },
    { file_path: "a.py", block: "g", reason: "terms_in_file", score: 50 },
    { file_path: "b.py", block: "h", reason: "named_in_task:h", score: 9 },
  ];
  const features = new FileFeatures(evidence.map((piece) => signalOf(piece.reason)));
  // Evidence counted after the files are ranked says which file came first: not a feature.
  assert.deepEqual(features.names, [
    "own:module",
    "own:named",
    "own:terms",
    "best:module",
    "best:named",
    "best:terms",
    "second_block",
    "auxiliary",
    "blocks",
    "hand_set",
  ]);
  const of = Object.fromEntries(
    features.names.map((name, k) => [name, features.of("a.py", evidence, 0.5)[k]]),
  );
  assert.equal(of["own:module"], Math.log1p(3));
  assert.equal(of["own:named"], 0);
  assert.equal(of["best:named"], Math.log1p(3)); // g (2 + 3) before f (1)
  assert.equal(of["best:terms"], Math.log1p(2));
  assert.equal(of["second_block"], Math.log1p(1));
  assert.equal(of["blocks"], Math.log1p(2));
  assert.equal(of["auxiliary"], 0);
  assert.equal(of["hand_set"], Math.log(0.5));
  const test = features.of("tests/test_a.py", evidence, 1);
  assert.equal(test[features.names.indexOf("auxiliary")], 1);
  assert.equal(test[features.names.indexOf("blocks")], 0);
});

Deno.test("localize floor: the listwise fit learns the feature that marks the gold file, the same way each time", () => {
  // Feature 0 is noise shared by every file; feature 1 marks the gold one, wherever it is listed.
  const listings: Listing[] = [0, 1, 2, 0, 2].map((gold, i) => ({
    instance_id: `i${i}`,
    repo: `r${i % 2}`,
    gold_files: [`f${gold}`],
    candidates: [0, 1, 2].map((k): Candidate => ({
      file_path: `f${k}`,
      score: 3 - k,
      gold: k === gold,
      features: [(i + k) % 3, k === gold ? 1 : 0],
    })),
  }));
  // One with no gold file listed teaches nothing.
  listings.push({
    instance_id: "none",
    repo: "r0",
    gold_files: ["elsewhere.py"],
    candidates: [{ file_path: "f0", score: 1, gold: false, features: [5, 5] }],
  });
  const weights = fitListwise(listings, 0.1);
  assert.ok(weights[1] > 1 && Math.abs(weights[0]) < weights[1], JSON.stringify(weights));
  assert.deepEqual(fitListwise(listings, 0.1), weights);
  for (const listing of listings.slice(0, 5)) {
    assert.ok(topChoice(listing.candidates, weights).gold, listing.instance_id);
  }
  // A larger penalty keeps the weights smaller.
  assert.ok(fitListwise(listings, 10)[1] < weights[1]);
});
