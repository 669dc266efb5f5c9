/**
 * Imports and includes of a tree, from a language's import query.
 *
 * @module
 */
import type { Node, Query } from "web-tree-sitter";
import type { ImportFact } from "./facts.ts";
import type { ExtentMapper } from "./extract.ts";

/** The imports `query` finds under `root`, in document order. */
export function collectImports(_query: Query, _root: Node, _mapper: ExtentMapper): ImportFact[] {
  return [];
}
