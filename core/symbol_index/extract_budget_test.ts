import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { createParser } from "../../grammars/loader.ts";
import { parseWithinBudget } from "./extract_budget.ts";

/** `count` lines `v<i> = <i>` (five syntax nodes each, after the module's one). */
function assignments(count: number): string {
  return Array.from({ length: count }, (_, i) => `v${i} = ${i}\n`).join("");
}

Deno.test("parseWithinBudget: a tree within the budget is the whole file's, not cut", async () => {
  const parser = await createParser("python");
  try {
    const text = assignments(10);
    const { tree, cut } = await parseWithinBudget(parser, text, 51);
    strictEqual(cut, undefined);
    strictEqual(tree.rootNode.text, text);
    tree.delete();
  } finally {
    parser.delete();
  }
});

Deno.test("parseWithinBudget: a larger tree is cut before the statement holding the budget's node", async () => {
  const parser = await createParser("python");
  try {
    const text = assignments(10);
    // Nodes in document order: the module, then five per line; node 23 is in line 5.
    const { tree, cut } = await parseWithinBudget(parser, text, 23);
    deepStrictEqual(cut, { budget: 23, line: 5 });
    strictEqual(tree.rootNode.text, assignments(4));
    strictEqual(tree.rootNode.hasError, false);
    tree.delete();
  } finally {
    parser.delete();
  }
});

Deno.test("parseWithinBudget: the first window decides a long file's cut as the whole tree does", async () => {
  const parser = await createParser("python");
  try {
    const text = assignments(1000);
    const whole = await parseWithinBudget(parser, text, 200, Infinity);
    // A window of 100 lines holds 501 nodes, over the budget: the rest is never parsed.
    const windowed = await parseWithinBudget(parser, text, 200, assignments(100).length - 3);
    deepStrictEqual(windowed.cut, whole.cut);
    strictEqual(windowed.tree.rootNode.text, whole.tree.rootNode.text);
    // A window under the budget: the whole file is parsed and cut as before.
    const small = await parseWithinBudget(parser, text, 200, assignments(10).length);
    deepStrictEqual(small.cut, whole.cut);
    for (const { tree } of [whole, windowed, small]) tree.delete();
  } finally {
    parser.delete();
  }
});

Deno.test("parseWithinBudget: a file that is one statement is cut before the line of the node", async () => {
  const parser = await createParser("python");
  try {
    const line = (i: number) => `    x${i} = ${i}\n`;
    const text = `class Big:\n${Array.from({ length: 50 }, (_, i) => line(i)).join("")}`;
    // The class header takes nodes 1–5, then five a line: node 40 is in `x6 = 6`, on line 8.
    const { tree, cut } = await parseWithinBudget(parser, text, 40);
    deepStrictEqual(cut, { budget: 40, line: 8 });
    strictEqual(
      tree.rootNode.text,
      `class Big:\n${Array.from({ length: 6 }, (_, i) => line(i)).join("")}`,
    );
    tree.delete();
  } finally {
    parser.delete();
  }
});
