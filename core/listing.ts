/**
 * Result limiting shared by the query tools: list the first `limit` items (0: all), count every
 * item found, and say whether the listing was cut, which sets `total` and `partial` in the
 * envelope.
 *
 * @module
 */

/**
 * Whether a listing of `count` items out of `total` found was cut by its limit: the rule that
 * sets `partial` and `total` in every query tool's data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listingCut } from "./listing.ts";
 * assert.equal(listingCut(20, 20), false);
 * assert.equal(listingCut(20, 31), true);
 * ```
 */
export function listingCut(count: number, total: number): boolean {
  return total > count;
}

/**
 * The first `limit` items offered (every one when `limit` is 0), each handed to `sink` (kept in
 * an array or streamed) in the order offered, while all of them are counted.
 *
 * @example List two of three matches
 * ```ts
 * import assert from "node:assert/strict";
 * import { Listing } from "./listing.ts";
 * const listed: string[] = [];
 * const listing = new Listing<string>(2, (item) => listed.push(item));
 * for (const item of ["a", "b", "c"]) listing.offer(item);
 * assert.deepEqual(
 *   [listed, listing.count, listing.total, listing.cut, listing.cutTotal],
 *   [["a", "b"], 2, 3, true, 3],
 * );
 * ```
 */
export class Listing<T> {
  readonly #limit: number;
  readonly #sink: (item: T) => void;
  #count = 0;
  #total = 0;

  /** A listing of at most `limit` items (0 or less: no limit), each handed to `sink`. */
  constructor(limit: number, sink: (item: T) => void) {
    this.#limit = limit;
    this.#sink = sink;
  }

  /** Whether the next item offered would be listed (the limit is not reached yet). */
  get hasRoom(): boolean {
    return this.#limit <= 0 || this.#count < this.#limit;
  }

  /** Counts `item` and lists it while there is room; returns whether it was listed. */
  offer(item: T): boolean {
    this.#total++;
    if (!this.hasRoom) return false;
    this.#count++;
    this.#sink(item);
    return true;
  }

  /**
   * Counts `count` items that are not offered because the listing is full, so they were never
   * made (a search past its limit counts matches without building them). Throws while there is
   * room: such items would have been listed.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { Listing } from "./listing.ts";
   * const listing = new Listing<string>(1, () => {});
   * listing.offer("a");
   * listing.countUnlisted(4);
   * assert.deepEqual([listing.count, listing.cutTotal], [1, 5]);
   * ```
   */
  countUnlisted(count: number): void {
    if (this.hasRoom && count > 0) throw new Error("countUnlisted: the listing still has room");
    this.#total += count;
  }

  /** Items listed. */
  get count(): number {
    return this.#count;
  }

  /** Items offered, listed or not. */
  get total(): number {
    return this.#total;
  }

  /** Whether the limit cut the listing. */
  get cut(): boolean {
    return listingCut(this.#count, this.#total);
  }

  /** The `total` of the data: the items offered when the limit cut the listing, else absent. */
  get cutTotal(): number | undefined {
    return this.cut ? this.#total : undefined;
  }
}
