/**
 * The best N of a stream of scored paths, by score descending then path ascending, in
 * O(log N) per offer and no work at all for the many that cannot enter.
 *
 * @module
 */

/** A scored candidate. */
export interface Ranked<T> {
  /** Ranking score (higher first). */
  score: number;
  /** Tiebreak (ascending, plain string order). */
  path: string;
  /** What travels with it. */
  value: T;
}

/** Whether `a` ranks below `b`. */
function worse<T>(a: Ranked<T>, b: Ranked<T>): boolean {
  return a.score < b.score || (a.score === b.score && a.path > b.path);
}

/**
 * Keeps the best `limit` candidates offered (all of them when `limit` is 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TopN } from "./top.ts";
 * const top = new TopN<null>(2);
 * for (const [score, path] of [[1, "b"], [3, "a"], [1, "a"]] as const) {
 *   top.offer(score, path, null);
 * }
 * assert.deepEqual(top.sorted().map((entry) => entry.path), ["a", "a"]); // scores 3 and 1
 * ```
 */
export class TopN<T> {
  readonly #limit: number;
  /** A binary heap with the worst kept candidate at the root. */
  readonly #heap: Ranked<T>[] = [];

  /** Keeps at most `limit` candidates; 0 keeps every one. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Whether a candidate with this score and path would be kept now. */
  admits(score: number, path: string): boolean {
    if (this.#limit === 0 || this.#heap.length < this.#limit) return true;
    const root = this.#heap[0];
    return score > root.score || (score === root.score && path < root.path);
  }

  /** Offers a candidate. */
  offer(score: number, path: string, value: T): void {
    if (!this.admits(score, path)) return;
    const entry = { score, path, value };
    const heap = this.#heap;
    if (this.#limit === 0 || heap.length < this.#limit) {
      heap.push(entry);
      this.#siftUp(heap.length - 1);
    } else {
      heap[0] = entry;
      this.#siftDown(0);
    }
  }

  #siftUp(index: number): void {
    const heap = this.#heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!worse(heap[index], heap[parent])) break;
      [heap[index], heap[parent]] = [heap[parent], heap[index]];
      index = parent;
    }
  }

  #siftDown(index: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && worse(heap[left], heap[worst])) worst = left;
      if (right < heap.length && worse(heap[right], heap[worst])) worst = right;
      if (worst === index) return;
      [heap[index], heap[worst]] = [heap[worst], heap[index]];
      index = worst;
    }
  }

  /** The kept candidates, best first. */
  sorted(): Ranked<T>[] {
    return [...this.#heap].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }
}
