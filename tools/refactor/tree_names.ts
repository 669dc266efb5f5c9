/**
 * Names read straight from a file's tree where the extracted facts do not list them: every
 * identifier leaf spelled some way (a collision check must see locals too), and the object
 * shorthands of JavaScript and TypeScript (`{ name }` uses `name` and names a key at once).
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { createParser } from "../../grammars/loader.ts";
import type { LoadedFile } from "./view.ts";

/** A leaf of the tree: its byte extent, line, and whether a function encloses it. */
export interface NameLeaf {
  /** Start byte. */
  start: number;
  /** End byte. */
  end: number;
  /** 1-based line. */
  line: number;
  /** Whether it sits inside a function (where a local could shadow it). */
  inFunction: boolean;
}

const FUNCTION_NODE = /function|method|arrow|lambda|closure/;

/** Leaves of `file`'s tree spelled `name` whose type `accept` takes, in document order. */
async function leavesNamed(
  file: LoadedFile,
  name: string,
  accept: (type: string) => boolean,
): Promise<NameLeaf[]> {
  const text = file.decoded.text;
  if (!text.includes(name)) return [];
  const parser = await createParser(file.language);
  try {
    const tree = parser.parse(text);
    if (!tree) return [];
    try {
      const found: NameLeaf[] = [];
      const visit = (node: Node, inFunction: boolean) => {
        if (node.childCount === 0) {
          if (accept(node.type) && node.text === name) {
            // Tree indices count UTF-16 units of the decoded text; spans count bytes.
            found.push({
              start: file.decoded.byteOffset(node.startIndex),
              end: file.decoded.byteOffset(node.endIndex),
              line: node.startPosition.row + 1,
              inFunction,
            });
          }
          return;
        }
        const inside = inFunction || FUNCTION_NODE.test(node.type);
        for (const child of node.children) if (child) visit(child, inside);
      };
      visit(tree.rootNode, false);
      return found;
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** Identifier leaves spelled `name` (definitions, locals, uses, fields). */
export async function identifiersNamed(file: LoadedFile, name: string): Promise<NameLeaf[]> {
  return await leavesNamed(file, name, (type) => /identifier|^name$|^constant$/.test(type));
}

/** Object shorthands `{ name }` of JavaScript and TypeScript (not destructuring patterns). */
export async function shorthandsNamed(file: LoadedFile, name: string): Promise<NameLeaf[]> {
  if (!["javascript", "typescript", "tsx"].includes(file.language)) return [];
  return await leavesNamed(file, name, (type) => type === "shorthand_property_identifier");
}
