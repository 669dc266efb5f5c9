/**
 * The bound on how much of one file the facts are taken from. The cost of extraction grows with
 * the query's matches, and a generated file can hold hundreds of thousands of them: 500,000
 * lines of `x = 1` (3 MB, 2.5 million syntax nodes) took `index` 20 s and 2.2 GB, nearly all of
 * it in the match objects and the facts made from them. So a tree larger than
 * {@linkcode FILE_NODE_BUDGET} nodes is cut: the text before the cut (whole top-level
 * statements, where the tree allows) is parsed again alone, and its facts are the file's. A
 * query over a byte or line range would not bound the work: a pattern rooted at the file's own
 * node (a module-level variable in Python) still walks every statement. A long file's first
 * {@linkcode PARSE_WINDOW} is parsed first, so that a file over the budget there is cut without
 * its whole tree ever being built (about 0.4 GB of parser memory for those 3 MB).
 *
 * @module
 */
import type { Node, Parser, Tree } from "web-tree-sitter";
import type { FactsCut } from "./facts.ts";

/**
 * Syntax nodes a file's facts are taken from, at most. Measured here (tree-sitter's node count
 * of the whole file): hand-written files stay far below it (`GL/glext.h` 172,000, `cuda.h`
 * 30,000, `avx512fintrin.h` 114,000, this repository's largest file 10,343), and so do the
 * largest generated files people keep in their repositories (Go's `rewriteAMD64.go` 335,000,
 * `tzdata/zipdata.go` 359,000, a 1.4 MB generated Kubernetes client 161,000); 500,000 lines of
 * `x = 1` have 2.5 million. Cut at the bound, that file's `index` run peaked at 0.64 GB and
 * took 5–6 s of CPU here (2.25 GB and 16–17 s whole).
 */
export const FILE_NODE_BUDGET = 500_000;

/**
 * Text (UTF-16 code units) of a long file parsed first, alone: dense generated text reaches the
 * budget well within it (`x = 1` lines: 870,000 nodes a MiB), while a long file under the budget
 * is then parsed whole, which costs it this much parsing again.
 */
export const PARSE_WINDOW = 1024 * 1024;

/**
 * Where to cut `text`, whose tree has more than `budget` nodes: before the top-level statement
 * that holds the `budget`-th node in document order, so the text before it parses as it did in
 * the whole file. When that statement is the first (a file wrapped in one namespace, class or
 * function), before the line that holds the node (most generated code has a statement a line),
 * or before the node itself on the first line. The index is in UTF-16 code units, as
 * tree-sitter counts a string.
 */
export function cutIndex(text: string, root: Node, budget: number): number {
  const cursor = root.walk();
  let target: Node;
  try {
    cursor.gotoDescendant(budget);
    target = cursor.currentNode;
  } finally {
    cursor.delete();
  }
  const top = root.childWithDescendant(target);
  if (top && top.startIndex > 0) return top.startIndex;
  const lineStart = text.lastIndexOf("\n", target.startIndex - 1) + 1;
  return lineStart > 0 ? lineStart : target.startIndex;
}

/**
 * `text` parsed by `parser`, within the node budget: the whole tree when it has at most
 * `budget` nodes; else the tree of the text before {@linkcode cutIndex}, with where the file was
 * cut (the facts of such a tree are the file's first part only). A text longer than `window`
 * has its first `window` (to a line's end) parsed first: over the budget, the cut is made there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createParser } from "../../grammars/loader.ts";
 * import { parseWithinBudget } from "./extract_budget.ts";
 * const parser = await createParser("python");
 * // 16 nodes: the module and 5 per statement; with two statements the tree has 11, over 10.
 * const { tree, cut } = await parseWithinBudget(parser, "a = 1\nb = 2\nc = 3\n", 10);
 * assert.equal(cut?.line, 2);
 * assert.equal(tree.rootNode.text, "a = 1\n");
 * tree.delete();
 * parser.delete();
 * ```
 */
export async function parseWithinBudget(
  parser: Parser,
  text: string,
  budget: number = FILE_NODE_BUDGET,
  window: number = PARSE_WINDOW,
  pause?: () => Promise<void>,
): Promise<{ tree: Tree; cut?: FactsCut }> {
  if (text.length > window) {
    const head = text.slice(0, text.lastIndexOf("\n", window) + 1 || window);
    const first = await parse(parser, head, pause);
    if (first.rootNode.descendantCount > budget) {
      return await cutAt(parser, text, first, budget, pause);
    }
    first.delete();
  }
  const whole = await parse(parser, text, pause);
  if (whole.rootNode.descendantCount <= budget) return { tree: whole };
  return await cutAt(parser, text, whole, budget, pause);
}

/** The tree of `text` before {@linkcode cutIndex} of `tree` (a tree of its start; deleted). */
async function cutAt(
  parser: Parser,
  text: string,
  tree: Tree,
  budget: number,
  pause: (() => Promise<void>) | undefined,
): Promise<{ tree: Tree; cut: FactsCut }> {
  let end: number;
  try {
    end = cutIndex(text, tree.rootNode, budget);
  } finally {
    // Its memory is the parser's to reuse for the part kept.
    tree.delete();
  }
  const kept = text.slice(0, end);
  let line = 1;
  for (let at = kept.indexOf("\n"); at >= 0; at = kept.indexOf("\n", at + 1)) line++;
  return { tree: await parse(parser, kept, pause), cut: { budget, line } };
}

/** How long a parse runs before it lets the event loop run, when it may (ms). */
const PARSE_SLICE_MS = 20;

/**
 * `text`'s tree. With `pause` (a parse on a host's only thread), the parse halts every
 * PARSE_SLICE_MS and awaits `pause`, and tree-sitter resumes it where it halted; a `pause` that
 * throws (a cancelled run) resets the parser and throws.
 */
async function parse(
  parser: Parser,
  text: string,
  pause: (() => Promise<void>) | undefined,
): Promise<Tree> {
  if (!pause) {
    const tree = parser.parse(text);
    if (!tree) throw new Error("tree-sitter returned no tree");
    return tree;
  }
  let sliceEnd = performance.now() + PARSE_SLICE_MS;
  let calls = 0;
  // The clock is read on every 16th progress call: a few thousand parse steps apart.
  const options = {
    progressCallback: () => (++calls & 15) === 0 && performance.now() >= sliceEnd,
  };
  for (let tree = parser.parse(text, null, options);; tree = parser.parse(text, null, options)) {
    if (tree) return tree;
    try {
      await pause();
    } catch (error) {
      parser.reset();
      throw error;
    }
    sliceEnd = performance.now() + PARSE_SLICE_MS;
  }
}
