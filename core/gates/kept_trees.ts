/**
 * The last tree the syntax gate parsed for a file, kept so the next version of the file parses
 * incrementally: an agent validates edit after edit of the same file, and tree-sitter reuses
 * every subtree the edit did not touch. A full parse of 5,000 lines costs 30–100 ms in wasm
 * (tree-sitter's own work: the lexer and the parse stack, not how the text reaches it); a
 * parse that starts from the previous tree costs a few.
 *
 * @module
 */
import type { Edit, Point, Tree } from "web-tree-sitter";

/** Texts at least this long (UTF-16 code units) keep their tree; shorter ones parse fast. */
export const KEEP_FROM_UNITS = 16 * 1024;

/** At most this many trees are kept: each holds its text's nodes in the wasm heap. */
export const KEPT_TREES = 4;

/** A kept tree and the text it is the tree of. */
export interface KeptTree {
  /** The text parsed. */
  text: string;
  /** Its tree (owned by the keeper until taken). */
  tree: Tree;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The row and column (UTF-16 code units) of `index` in `text`. */
function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < index; nl = text.indexOf("\n", nl + 1)) {
    row++;
    lineStart = nl + 1;
  }
  return { row, column: index - lineStart };
}

/**
 * The one edit that turns `before` into `after`: everything between their common prefix and
 * their common suffix is replaced (never splitting a surrogate pair), in the code units and
 * points web-tree-sitter counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textEdit } from "./kept_trees.ts";
 * assert.equal(textEdit("int a;\nint b;\n", "int a;\nlong b;\n").startIndex, 7);
 * ```
 */
export function textEdit(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let tail = 0;
  while (
    tail < shorter - start &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) tail++;
  if (tail > 0 && isHighSurrogate(before.charCodeAt(before.length - tail - 1))) tail--;
  const [oldEnd, newEnd] = [before.length - tail, after.length - tail];
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

/**
 * The kept trees, by key (language and file), the least recently kept dropped first. A tree is
 * taken out to be edited and parsed from, and the new tree is kept in its place.
 */
export class TreeKeeper {
  #trees = new Map<string, KeptTree>();

  /** Takes the tree kept under `key` (the caller now owns it), if any. */
  take(key: string): KeptTree | undefined {
    const kept = this.#trees.get(key);
    this.#trees.delete(key);
    return kept;
  }

  /** Keeps `tree` of `text` under `key` when the text is long enough, else deletes it. */
  keep(key: string, text: string, tree: Tree): void {
    this.take(key)?.tree.delete();
    if (text.length < KEEP_FROM_UNITS) {
      tree.delete();
      return;
    }
    this.#trees.set(key, { text, tree });
    for (const [oldest, kept] of this.#trees) {
      if (this.#trees.size <= KEPT_TREES) break;
      this.#trees.delete(oldest);
      kept.tree.delete();
    }
  }

  /** Forgets every tree without deleting it (the runtime that held them aborted). */
  forget(): void {
    this.#trees.clear();
  }
}
