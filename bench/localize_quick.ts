/**
 * A quick loop for tuning `llm-context` on the development set: its measures, computed as
 * `localize_bench.ts` computes them, but in this process and over the trees and symbol indexes a
 * `localize_bench.ts --set dev --keep-index` run left (an instance without them is skipped and
 * named). No baseline, no index build, no Deno start per call: a whole pass takes seconds, so a
 * change to the ranking can be measured on every instance before the full bench is run again
 * beside its BM25 baselines. Never point it at held-out instances: tuning there is what the
 * issue forbids.
 *
 * Run: `deno run -A bench/localize_quick.ts [--instances ID,…] [--data PATH] [--mirrors DIR]
 * [--verbose]` (`--verbose`: one line per instance with its outcomes and the gold's ranks).
 *
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { context } from "../tools/context/engine.ts";
import { packBlocks, textTokens } from "./localize_bm25.ts";
import type { AnswerBlock } from "./localize_context.ts";
import {
  BUDGETS,
  fileAt,
  funcAt,
  funcRanks,
  goldFileRank,
  linesWithin,
  type Measure,
  MEASURES,
  type Outcome,
} from "./localize_measures.ts";
import { CACHE_DIR, goldOfTree, loadInstances, selectInstances } from "./localize_bench.ts";

/** `llm-context`'s files and blocks for a task at a budget, in this process. */
async function ask(tree: string, task: string, budget: number) {
  const { data } = await context({ cwd: tree, task, budget });
  const blocks: AnswerBlock[] = data.blocks.map((block) => ({
    file_path: block.span.file_path,
    start_line: block.span.start_line,
    end_line: block.span.end_line,
    end_col: block.span.end_col,
    byte_start: block.span.byte_start,
    byte_end: block.span.byte_end,
    tokens: textTokens(block.text),
  }));
  return { files: data.files.map((file) => file.file_path), blocks };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      instances: { type: "string" },
      data: { type: "string" },
      mirrors: { type: "string", default: "/work/.mirror" },
      verbose: { type: "boolean", default: false },
    },
  });
  const all = await loadInstances(values.data, values.mirrors);
  const chosen = selectInstances(all, {
    set: "dev",
    ...(values.instances ? { instances: values.instances.split(",") } : {}),
  });
  const hits = Object.fromEntries(MEASURES.map((m) => [m, [0, 0]])) as Record<
    Measure,
    [number, number]
  >;
  const skipped: string[] = [];
  const started = performance.now();
  for (const instance of chosen) {
    const tree = join(CACHE_DIR, instance.repo.replace("/", "+"), instance.base_commit);
    if (!await exists(join(tree, ".llm", "index.db"))) {
      skipped.push(instance.instance_id);
      continue;
    }
    const gold = await goldOfTree(instance, tree);
    const large = await ask(tree, instance.problem_statement, BUDGETS["lines@8k"]);
    const small = await ask(tree, instance.problem_statement, BUDGETS["lines@2k"]);
    const outcomes: Record<Measure, Outcome> = {
      "file@1": fileAt(large.files, gold.files, 1),
      "file@5": fileAt(large.files, gold.files, 5),
      "func@10": funcAt(large.blocks, gold.functions, 10),
      "lines@2k": linesWithin(packBlocks(small.blocks, BUDGETS["lines@2k"]), gold.lines),
      "lines@8k": linesWithin(packBlocks(large.blocks, BUDGETS["lines@8k"]), gold.lines),
    };
    for (const measure of MEASURES) {
      const outcome = outcomes[measure];
      if (outcome === null) continue;
      hits[measure][1]++;
      if (outcome) hits[measure][0]++;
    }
    if (values.verbose) {
      const marks = MEASURES.map((m) => outcomes[m] === null ? "-" : outcomes[m] ? "1" : "0");
      console.log(
        `${instance.instance_id.padEnd(28)} ${marks.join("")}  file ${
          goldFileRank(large.files, gold.files) ?? "-"
        }  funcs ${JSON.stringify(funcRanks(large.blocks, gold.functions))}  top ${
          large.files.slice(0, 3).join(" ")
        }`,
      );
    }
  }
  const cells = MEASURES.map((m) => {
    const [hit, of] = hits[m];
    return `${m} ${of ? (hit / of).toFixed(2) : "—"} (${hit}/${of})`;
  });
  console.log(cells.join("  "));
  console.log(
    `${chosen.length - skipped.length} instances in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s${skipped.length ? `; skipped (no tree or index): ${skipped.join(", ")}` : ""}`,
  );
}

if (import.meta.main) await main();
