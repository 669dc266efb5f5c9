/**
 * The text chunks of a file for the index's full-text table (`chunks`): one per definition, its
 * own text without the text of the definitions nested in it (a class's chunk is its header, its
 * docstring, its class-level statements and its members' signature lines; each method is its own
 * chunk), and one for the text outside every definition (the module-level code). Each chunk is
 * given as its terms ({@linkcode chunkTerms}), joined by spaces: what the table stores, and all
 * that leaves the extraction worker.
 *
 * @module
 */
import { addTerms, MAX_CHUNK_TERMS } from "./chunk_terms.ts";

/** A definition as its chunk needs it: its range of the text (code units), and its signature. */
export interface ChunkSource {
  /** Code-unit offset of its start in the text. */
  start: number;
  /** Code-unit offset of its end. */
  end: number;
  /** Its signature line (what its enclosing definition's chunk holds of it). */
  signature: string;
}

/** The terms of a file's chunks, each chunk's joined by spaces. */
export interface ChunkTexts {
  /** One per definition, in the order given. */
  definitions: string[];
  /** The text outside every definition. */
  module: string;
}

/**
 * The chunks of `text` whose definitions are `sources` (in any order; nested ones inside their
 * enclosing ones), each capped at `max` terms. A definition that overlaps another without lying
 * inside it is not nested: the text they share counts for both.
 *
 * @example A class, its method and the module's code
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkTexts } from "./extract_chunks.ts";
 * const text = "import os\nclass Parser:\n    '''Reads input.'''\n    def parse_line(self):\n        return os.sep\n";
 * const classStart = text.indexOf("class");
 * const methodStart = text.indexOf("def");
 * const chunks = chunkTexts(text, [
 *   { start: classStart, end: text.length, signature: "class Parser:" },
 *   { start: methodStart, end: text.length, signature: "def parse_line(self):" },
 * ]);
 * assert.deepEqual(chunks.definitions, [
 *   "parser reads input parse line parseline", // the class: header, docstring, method signature
 *   "parse line parseline os sep", // the method
 * ]);
 * assert.equal(chunks.module, "os");
 * ```
 */
export function chunkTexts(
  text: string,
  sources: readonly ChunkSource[],
  max: number = MAX_CHUNK_TERMS,
): ChunkTexts {
  // Outer ones first: by start, then longest.
  const order = sources.map((_, index) => index).sort((a, b) =>
    sources[a].start - sources[b].start || sources[b].end - sources[a].end || a - b
  );
  // The children of each definition (and of the file: index -1), in text order.
  const children = new Map<number, number[]>();
  const open: number[] = [];
  for (const index of order) {
    const source = sources[index];
    while (open.length > 0 && sources[open[open.length - 1]].end < source.end) open.pop();
    const parent = open.length > 0 ? open[open.length - 1] : -1;
    let list = children.get(parent);
    if (!list) children.set(parent, list = []);
    list.push(index);
    open.push(index);
  }
  const terms: string[] = [];
  const own = (start: number, end: number, parent: number): string => {
    terms.length = 0;
    let at = start;
    let room = true;
    for (const child of children.get(parent) ?? []) {
      const source = sources[child];
      if (room && source.start > at) room = addTerms(terms, text, at, source.start, max);
      if (room && parent >= 0) {
        room = addTerms(terms, source.signature, 0, source.signature.length, max);
      }
      at = Math.max(at, source.end);
    }
    if (room && end > at) addTerms(terms, text, at, end, max);
    return terms.join(" ");
  };
  return {
    definitions: sources.map((source, index) => own(source.start, source.end, index)),
    module: own(0, text.length, -1),
  };
}
