/**
 * The measures and the report of the localization bench (`bench/localize_measures.ts`,
 * `bench/localize_report.ts`), and its selection of instances (`bench/localize_bench.ts`).
 */
import assert from "node:assert/strict";
import {
  fileAt,
  funcAt,
  funcRanks,
  goldFileRank,
  lastLine,
  linesCovered,
  linesWithin,
  mean,
  tally,
} from "../bench/localize_measures.ts";
import { chartSvg, markdownTable } from "../bench/localize_report.ts";
import { DEV_REPOS, inDevSet, selectInstances } from "../bench/localize_bench.ts";
import type { GoldFunction, GoldLine } from "../bench/localize_gold.ts";

function fn(file_path: string, name: string, lines: number[]): GoldFunction {
  return {
    file_path,
    name,
    qualified_name: name,
    kind: "function",
    start_line: Math.min(...lines) - 1,
    end_line: Math.max(...lines) + 1,
    lines,
  };
}

function block(file_path: string, start_line: number, end_line: number, end_col?: number) {
  return { file_path, start_line, end_line, ...(end_col === undefined ? {} : { end_col }) };
}

const line = (file_path: string, n: number): GoldLine => ({ file_path, line: n, kind: "removed" });

Deno.test("file@k: any gold file among the first k", () => {
  const ranked = ["c.py", "b.py", "x.py", "y.py", "z.py", "a.py"];
  assert.equal(fileAt(ranked, ["a.py", "b.py"], 1), false);
  assert.equal(fileAt(ranked, ["a.py", "b.py"], 5), true);
  assert.equal(fileAt(ranked, ["a.py"], 5), false);
  assert.equal(fileAt([], ["a.py"], 5), false);
  assert.equal(fileAt(ranked, [], 1), null);
  assert.equal(goldFileRank(ranked, ["a.py", "x.py"]), 3);
});

Deno.test("func@10: every gold function needs a block over one of its gold lines", () => {
  const f = fn("a.py", "f", [10, 12]);
  const g = fn("b.py", "g", [40]);
  // A block over f's span but not its gold lines does not count.
  assert.equal(funcAt([block("a.py", 9, 9), block("b.py", 40, 41)], [f, g], 10), false);
  assert.equal(funcAt([block("a.py", 12, 20), block("b.py", 40, 41)], [f, g], 10), true);
  // The same lines in another file do not count.
  assert.equal(funcAt([block("b.py", 1, 50)], [f], 10), false);
  // Only the first k blocks are read.
  const late = [...Array(10)].map(() => block("z.py", 1, 1)).concat([block("a.py", 1, 99)]);
  assert.equal(funcAt(late, [f], 10), false);
  assert.equal(funcAt(late, [f], 11), true);
  assert.equal(funcAt([block("a.py", 1, 99)], [], 10), null);
  assert.deepEqual(funcRanks(late, [f, g]), [11, null]);
});

Deno.test("a span ending at column 0 does not cover its last line", () => {
  assert.equal(lastLine(block("a.py", 3, 6, 0)), 5);
  assert.equal(lastLine(block("a.py", 3, 6, 4)), 6);
  assert.equal(lastLine(block("a.py", 3, 3, 0)), 3); // an empty span on one line
  assert.equal(linesWithin([block("a.py", 3, 6, 0)], [line("a.py", 6)]), false);
  assert.equal(linesWithin([block("a.py", 3, 6)], [line("a.py", 6)]), true);
});

Deno.test("lines@budget: every gold line, across blocks and files", () => {
  const gold = [line("a.py", 5), line("a.py", 30), line("b.py", 2)];
  const blocks = [block("a.py", 1, 10), block("a.py", 25, 35)];
  assert.equal(linesCovered(blocks, gold), 2 / 3);
  assert.equal(linesWithin(blocks, gold), false);
  assert.equal(linesWithin([...blocks, block("b.py", 1, 3)], gold), true);
  assert.equal(linesWithin(blocks, []), null);
  assert.equal(linesCovered(blocks, []), null);
});

Deno.test("tally and mean leave out what does not apply", () => {
  const t = tally([
    { "file@1": true, "func@10": null, "lines@8k": false },
    { "file@1": false, "func@10": true, "lines@8k": true },
    { "file@1": true, "func@10": false, "lines@8k": true },
  ]);
  assert.deepEqual(t["file@1"], { hits: 2, n: 3, left_out: 0 });
  assert.deepEqual(t["func@10"], { hits: 1, n: 2, left_out: 1 });
  assert.deepEqual(t["lines@2k"], { hits: 0, n: 0, left_out: 3 });
  assert.equal(mean(t["lines@8k"]), 2 / 3);
  assert.equal(mean(t["lines@2k"]), null);
});

Deno.test("the Markdown table and the chart show every system and measure", () => {
  const files = tally([{ "file@1": true, "file@5": true, "lines@2k": false, "lines@8k": true }]);
  const functions = tally([{
    "file@1": false,
    "file@5": true,
    "func@10": null,
    "lines@2k": true,
    "lines@8k": true,
  }]);
  const summaries = [
    { system: "bm25-files", tallies: files },
    { system: "bm25-functions", tallies: functions },
  ];
  const table = markdownTable(summaries);
  assert.match(table, /^\| system \| file@1 \| file@5 \| func@10 \| lines@2k \| lines@8k \|/);
  assert.match(
    table,
    /\| bm25-files \| 1\.00 \(1\/1\) \| 1\.00 \(1\/1\) \| — \| 0\.00 \(0\/1\) \| 1\.00 \(1\/1\) \|/,
  );
  assert.match(table, /\| bm25-functions \| 0\.00 \(0\/1\) \|/);
  const svg = chartSvg(summaries, "a <title> & more");
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /a &#60;title&#62; &#38; more/);
  assert.equal(svg.match(/<rect x="\d+" y="[\d.]+" width="26"/g)?.length, 8); // no func@10 bar
  assert.ok(svg.includes(">bm25-functions<"));
  assert.ok(svg.trimEnd().endsWith("</svg>"));
});

Deno.test("the development set: five repositories, even instance numbers", () => {
  const all = [
    ...DEV_REPOS.flatMap((repo) => {
      const stem = repo.replace("/", "__");
      return [10, 11, 12].map((n) => ({ repo, instance_id: `${stem}-${n}` }));
    }),
    { repo: "django/django", instance_id: "django__django-100" },
    { repo: "astropy/astropy", instance_id: "astropy__astropy-7" },
  ];
  const dev = selectInstances(all, { set: "dev" });
  assert.equal(dev.length, 10);
  assert.ok(dev.every((i) => inDevSet(i) && !i.instance_id.endsWith("1")));
  const heldout = selectInstances(all, { set: "heldout" });
  assert.deepEqual(heldout.map((i) => i.repo), ["django/django", "astropy/astropy"]);
  assert.equal(selectInstances(all, { set: "dev", limit: 3 }).length, 3);
  assert.deepEqual(
    selectInstances(all, { set: "heldout", instances: ["psf__requests-11"] }).map((i) =>
      i.instance_id
    ),
    ["psf__requests-11"],
  );
  assert.throws(() => selectInstances(all, { set: "dev", instances: ["nope-1"] }), /nope-1/);
});
