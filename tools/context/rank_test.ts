import assert from "node:assert/strict";
import { join } from "node:path";
import { indexRoot } from "../../core/symbol_index/indexer.ts";
import { IndexStore, locateDb } from "../../core/symbol_index/store.ts";
import { type Evidence, rankTask } from "./rank.ts";
import { extractTerms } from "./terms.ts";

/** Files padding a tree under `folder`: a term in most chunks would count for nothing. */
function padding(folder: string): Record<string, string> {
  return Object.fromEntries(
    Array.from(
      { length: 12 },
      (_, i) => [`${folder}pad${i}.py`, `def pad${i}():\n    return ${i}\n`],
    ),
  );
}

/** Runs `check` on the index of a tree of `files`, built as `llm-symbols index` builds it. */
async function withIndex(
  files: Record<string, string>,
  check: (store: IndexStore) => void,
): Promise<void> {
  const root = await Deno.makeTempDir();
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(join(root, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, path), text);
    }
    await indexRoot({ root, threads: 0 });
    const store = IndexStore.open(locateDb(root, undefined, false), "read");
    try {
      check(store);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("rankTask: of two equal definitions, the one in the file ranked higher comes first", async () => {
  // Two definitions of the same words, one in each of two files the task ranks apart.
  const files = {
    "zeta.py": "def fail(order):\n    raise KeyError(order)\n",
    "mid.py": "def tally_mid(order):\n    return order.widgets.frobnicate()\n",
    "alpha.py": "def tally_alpha(order):\n    return order.widgets.frobnicate()\n",
    ...padding(""),
  };
  const task =
    "Widgets frobnicate twice\n\nSee mid.py.\n\n```\nTraceback (most recent call last):\n" +
    '  File "/src/app/zeta.py", line 2, in fail\nKeyError: 3\n```\n';
  await withIndex(files, (store) => {
    const ranking = rankTask(store, extractTerms(task));
    const paths = ranking.files.map((file) => file.file_path);
    assert.deepEqual(paths.slice(0, 2), ["zeta.py", "mid.py"]);
    const names = ranking.blocks.map((block) => block.symbol?.name);
    const [mid, alpha] = [names.indexOf("tally_mid"), names.indexOf("tally_alpha")];
    assert.ok(mid >= 0 && alpha >= 0, JSON.stringify(names));
    // Equal evidence of their own; without the file's share, the tie went by path (alpha).
    assert.ok(mid < alpha, JSON.stringify(ranking.blocks));
  });
});

Deno.test("rankTask: a file whose path the title spells in two words or more is named by it", async () => {
  const files = {
    "lib/printing/pretty/pretty.py": "def pretty_print(expr):\n    return str(expr)\n",
    "lib/printing/latex.py": "def latex(expr):\n    return str(expr)\n",
    "lib/vector/vector.py":
      "class Vector:\n    def __init__(self, parts):\n        self.parts = parts\n",
    ...padding("lib/"),
  };
  await withIndex(files, (store) => {
    const ranking = rankTask(store, extractTerms("vectors break pretty printing\n\nIt is wrong."));
    const [first] = ranking.files;
    assert.equal(first.file_path, "lib/printing/pretty/pretty.py");
    assert.ok(first.reasons.includes("title_path:pretty,printing"), JSON.stringify(first));
    // One word of a path is not enough, nor does `lib`, every file's folder, count.
    const latex = ranking.files.find((file) => file.file_path === "lib/printing/latex.py");
    assert.ok(!latex?.reasons.some((reason) => reason.startsWith("title_path:")));
    const again = rankTask(store, extractTerms("lib printing is slow\n\nIt is."));
    assert.ok(!again.files.some((file) => file.reasons.some((r) => r.startsWith("title_path:"))));
  });
});

Deno.test("rankTask: a renamed file's frame finds its function defined once per class in one file", async () => {
  // `lookup` is a method of four classes, all in mapping.py (the frame's core.py was renamed).
  const mapping = ["Hue", "Size", "Style", "Shape"].map((name) =>
    `class ${name}Mapping:\n    def lookup(self, key):\n        return self.table[key]\n`
  ).join("\n\n");
  const files = {
    "pkg/__init__.py": "",
    "pkg/mapping.py": mapping,
    "pkg/plot.py": "def lookup_all(keys):\n    return keys\n",
    ...padding("pkg/"),
  };
  const task = "KeyError in plots\n\n```\nTraceback (most recent call last):\n" +
    '  File "/venv/lib/python3.11/site-packages/pkg/core.py", line 144, in lookup\n' +
    "KeyError: 'setosa'\n```\n";
  await withIndex(files, (store) => {
    const ranking = rankTask(store, extractTerms(task));
    const [first] = ranking.files;
    assert.equal(first.file_path, "pkg/mapping.py", JSON.stringify(ranking.files));
    assert.ok(first.reasons.includes("traceback:pkg/core.py"));
    const framed = ranking.blocks.filter((block) =>
      block.reasons.includes("traceback:pkg/core.py")
    );
    assert.equal(framed.length, 4);
  });
});

Deno.test("rankTask: the evidence told is what the ranking counts, and telling it changes nothing", async () => {
  const files = {
    "shop/orders.py": "class Order:\n    def total(self):\n        return tally(self.lines)\n",
    "shop/tally.py": "def tally(lines):\n    return sum(line.price for line in lines)\n",
    ...padding("shop/"),
  };
  const task =
    "Order.total() is wrong for refunds\n\nThe tally of refunded lines adds their price.";
  await withIndex(files, (store) => {
    const pieces: Evidence[] = [];
    const told = rankTask(store, extractTerms(task), { onEvidence: (piece) => pieces.push(piece) });
    assert.deepEqual(told, rankTask(store, extractTerms(task)));
    // Every reason a block or a file gives was told for its file, but those made of others:
    // `blocks` (a file's best blocks) and `imports` (a share of the first file's best block).
    for (const ranked of [...told.blocks, ...told.files]) {
      for (const reason of ranked.reasons.filter((r) => r !== "blocks" && r !== "imports")) {
        assert.ok(
          pieces.some((piece) => piece.file_path === ranked.file_path && piece.reason === reason),
          `${ranked.file_path} ${reason}`,
        );
      }
    }
    // In the first file (trusted in full, no test), a block's score is the sum of its evidence.
    const first = told.files[0].file_path;
    const sums = new Map<string, number>();
    for (const piece of pieces) {
      if (piece.file_path === first && piece.block) {
        sums.set(piece.block, (sums.get(piece.block) ?? 0) + piece.score);
      }
    }
    const scores = told.blocks.filter((b) =>
      b.file_path === first && !b.reasons.includes("imports")
    )
      .map((b) => b.score);
    const round = (values: number[]) => values.map((v) => v.toFixed(9)).sort();
    assert.deepEqual(round(scores), round([...sums.values()]));
  });
});
