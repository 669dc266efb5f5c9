/**
 * The syntax errors of a tree-sitter tree: its ERROR and MISSING nodes. Shared by the search
 * tools (which report them) and the syntax gate (which rejects a file for them).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";

/**
 * Every node of the tree that is an error or a missing token, outermost first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createParser } from "./loader.ts";
 * import { errorNodes } from "./syntax_errors.ts";
 * const parser = await createParser("c");
 * const tree = parser.parse("int main( { return 0; }\n")!;
 * assert.ok(errorNodes(tree.rootNode).length > 0);
 * tree.delete();
 * parser.delete();
 * ```
 */
export function errorNodes(root: Node): Node[] {
  const found: Node[] = [];
  if (!root.hasError) return found;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      const descend = !node.isError && !node.isMissing && node.hasError &&
        cursor.gotoFirstChild();
      if (node.isError || node.isMissing) found.push(node);
      if (descend) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return found;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Longest quoted text of an error node, in UTF-16 code units. */
const QUOTED_MAX = 60;

/**
 * A one-line description of an error node: `missing X` for a missing token, else `unexpected
 * "…"` quoting the start of the text the parser could not fit, cut from `source` (the parsed
 * text: an error node can span most of a file, and `node.text` would copy all of it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createParser } from "./loader.ts";
 * import { errorNodes, syntaxErrorMessage } from "./syntax_errors.ts";
 * const parser = await createParser("json");
 * const tree = parser.parse('{"a": 1')!;
 * assert.equal(syntaxErrorMessage(errorNodes(tree.rootNode)[0], '{"a": 1'), "missing }");
 * tree.delete();
 * parser.delete();
 * ```
 */
export function syntaxErrorMessage(node: Node, source: string): string {
  if (node.isMissing) return `missing ${node.type}`;
  const end = Math.min(node.endIndex, node.startIndex + QUOTED_MAX);
  const text = source.slice(node.startIndex, end);
  const cut = end < node.endIndex ? `${text}…` : text;
  return `unexpected ${JSON.stringify(cut)}`;
}
