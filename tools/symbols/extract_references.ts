/**
 * Calls and other references of a tree, from a language's reference query.
 *
 * @module
 */
import type { Node, Query } from "web-tree-sitter";
import type { Definition } from "../ast-search/definitions.ts";
import type { ReferenceFact } from "./facts.ts";
import type { Enclosures, ExtentMapper } from "./extract.ts";

/**
 * The calls and references `query` finds under `root`, in document order, each with its
 * enclosing definition; the name nodes of `definitions` are not references.
 */
export function collectReferences(
  _query: Query,
  _root: Node,
  _definitions: Definition[],
  _enclosures: Enclosures,
  _mapper: ExtentMapper,
): ReferenceFact[] {
  return [];
}
