/**
 * The whole statement a definition is written as, read from its file's tree: what a delete
 * removes and what an insertion goes beside. A definition's own extent can be a part of it:
 * the `function …` of `export function …` or `export default function …`, the declarator of
 * `export const f = () => …`, the `def` of a decorated Python function, a C++ template without
 * its `template <…>` head, an item preceded by its Rust attributes or a method by its
 * decorators. Removing that part alone leaves the rest (`export`, `@decorator`, `#[inline]`,
 * `template <…>`) applied to whatever follows, or a file that no longer parses; a language
 * server's delete takes the statement.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { createParser } from "../../grammars/loader.ts";
import type { Def, LoadedFile } from "./view.ts";

/** Where a definition's statement lies. */
export interface Statement {
  /** Start byte (a wrapper's, a decorator's or an attribute's when one comes first). */
  start: number;
  /** End byte. */
  end: number;
  /**
   * When the statement declares others too (`const a = 1, b = 2`): the definition's declarator
   * with the comma that joins it to a neighbour, which is all a delete removes.
   */
  listed?: { start: number; end: number };
  /** A Python block the statement is the only statement of (it needs `pass` once emptied). */
  onlyInBlock: boolean;
}

/** Nodes that wrap a declaration with no meaning of their own left once it is gone. */
const WRAPPERS: Readonly<Record<string, ReadonlySet<string>>> = {
  javascript: new Set(["export_statement"]),
  typescript: new Set(["export_statement", "ambient_declaration"]),
  tsx: new Set(["export_statement", "ambient_declaration"]),
  python: new Set(["decorated_definition"]),
  cpp: new Set(["template_declaration"]),
};

/** Nodes written before a declaration that apply to it: decorators, attributes, annotations. */
const APPLIED = new Set(["decorator", "attribute_item", "annotation", "marker_annotation"]);

/** Nodes that hold statements or members: bodies, blocks, lists, a file. */
const CONTAINER =
  /(block|body|_list|^program|^module|^source_file|^translation_unit|^compilation_unit)$/;

/** Declarations that list declarators (`const a = 1, b = 2;`). */
const DECLARATION_LISTS = new Set(["lexical_declaration", "variable_declaration"]);

function declarators(list: Node): Node[] {
  return list.namedChildren.filter((child): child is Node => child?.type === "variable_declarator");
}

/** The node whose extent is exactly `[start, end)` of the tree's text (UTF-16 units), if any. */
function nodeSpanning(root: Node, start: number, end: number): Node | undefined {
  let node: Node | null = root.descendantForIndex(start, Math.max(start, end - 1));
  while (node && (node.startIndex > start || node.endIndex < end)) node = node.parent;
  if (!node || node.startIndex !== start || node.endIndex !== end) return undefined;
  // The outermost of several nodes with that extent (an expression's statement), short of a
  // body it may fill alone (a class's block holding one method).
  while (
    node.parent && node.parent.startIndex === start && node.parent.endIndex === end &&
    !CONTAINER.test(node.parent.type)
  ) {
    node = node.parent;
  }
  return node;
}

/** The statement around `node` (through wrappers and its declaration), and its declarator. */
function outermost(node: Node, language: string): { node: Node; listed?: Node } {
  const wrappers = WRAPPERS[language] ?? new Set<string>();
  let current = node;
  let listed: Node | undefined;
  for (;;) {
    const parent = current.parent;
    if (!parent) break;
    if (current.type === "variable_declarator" && DECLARATION_LISTS.has(parent.type)) {
      if (declarators(parent).length > 1) listed = current;
    } else if (!wrappers.has(parent.type)) break;
    current = parent;
  }
  return listed ? { node: current, listed } : { node: current };
}

/** The start of the decorators and attributes written right before `node` (its siblings). */
function appliedStart(node: Node): number {
  let start = node.startIndex;
  for (let sibling = node.previousNamedSibling; sibling; sibling = sibling.previousNamedSibling) {
    if (!APPLIED.has(sibling.type)) break;
    start = sibling.startIndex;
  }
  return start;
}

/**
 * The declarator of `def` when its extent is a declaration of several (`const a = 1, b = 2`
 * is the extent of both `a` and `b`): the one holding its name.
 */
function declaratorOf(node: Node, def: Def, file: LoadedFile): Node | undefined {
  if (!DECLARATION_LISTS.has(node.type) || def.name_start === undefined) return undefined;
  const name = file.decoded.unitIndex(def.name_start);
  return declarators(node).find((child) => child.startIndex <= name && name < child.endIndex);
}

/** One declarator of a list, with the comma that joins it to its neighbour. */
function listedExtent(node: Node): { start: number; end: number } {
  const next = node.nextSibling;
  if (next?.type === ",") {
    const after = next.nextSibling;
    return { start: node.startIndex, end: after ? after.startIndex : next.endIndex };
  }
  const previous = node.previousSibling;
  if (previous?.type === ",") return { start: previous.startIndex, end: node.endIndex };
  return { start: node.startIndex, end: node.endIndex };
}

/**
 * The statement `def` of `file` is written as; its own extent when the tree does not show the
 * definition (a parse that disagrees with the index), so the caller's line rules still apply.
 */
export async function statementOf(file: LoadedFile, def: Def): Promise<Statement> {
  const own = { start: def.byte_start, end: def.byte_end, onlyInBlock: false };
  const decoded = file.decoded;
  const parser = await createParser(file.language);
  try {
    const tree = parser.parse(decoded.text);
    if (!tree) return own;
    try {
      const found = nodeSpanning(
        tree.rootNode,
        decoded.unitIndex(def.byte_start),
        decoded.unitIndex(def.byte_end),
      );
      if (!found) return own;
      const { node, listed } = outermost(declaratorOf(found, def, file) ?? found, file.language);
      const block = node.parent;
      const statement: Statement = {
        start: decoded.byteOffset(appliedStart(node)),
        end: decoded.byteOffset(node.endIndex),
        onlyInBlock: file.language === "python" && block?.type === "block" &&
          block.namedChildren.every((child) =>
            child === null || child.id === node.id || child.type === "comment"
          ),
      };
      if (listed) {
        const extent = listedExtent(listed);
        statement.listed = {
          start: decoded.byteOffset(extent.start),
          end: decoded.byteOffset(extent.end),
        };
      }
      return statement;
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}
