/** The shared result limit: first N in order, 0 for all, total and cut. */
import assert from "node:assert/strict";
import { Listing, listingCut } from "./listing.ts";

function listAll(limit: number, items: number[]): { listed: number[]; listing: Listing<number> } {
  const listed: number[] = [];
  const listing = new Listing<number>(limit, (item) => listed.push(item));
  for (const item of items) listing.offer(item);
  return { listed, listing };
}

Deno.test("listing: the first `limit` items in order, every one counted", () => {
  const { listed, listing } = listAll(2, [5, 6, 7, 8]);
  assert.deepEqual(listed, [5, 6]);
  assert.equal(listing.count, 2);
  assert.equal(listing.total, 4);
  assert.equal(listing.cut, true);
  assert.equal(listing.cutTotal, 4);
  assert.equal(listing.hasRoom, false);
});

Deno.test("listing: limit 0 lists all and is never cut", () => {
  const { listed, listing } = listAll(0, [1, 2, 3]);
  assert.deepEqual(listed, [1, 2, 3]);
  assert.equal(listing.cut, false);
  assert.equal(listing.cutTotal, undefined);
  assert.equal(listing.hasRoom, true);
});

Deno.test("listing: a negative limit lists all, as 0 does", () => {
  assert.deepEqual(listAll(-1, [1, 2]).listed, [1, 2]);
});

Deno.test("listing: exactly `limit` items is not cut", () => {
  const { listing } = listAll(3, [1, 2, 3]);
  assert.equal(listing.count, 3);
  assert.equal(listing.cut, false);
  assert.equal(listing.cutTotal, undefined);
});

Deno.test("listing: offer says whether the item was listed", () => {
  const listing = new Listing<string>(1, () => {});
  assert.equal(listing.offer("a"), true);
  assert.equal(listing.offer("b"), false);
});

Deno.test("listingCut: cut only when fewer listed than found", () => {
  assert.equal(listingCut(0, 0), false);
  assert.equal(listingCut(3, 3), false);
  assert.equal(listingCut(3, 4), true);
});

Deno.test("listing: countUnlisted adds to the total of a full listing, and refuses while room is left", () => {
  const { listed, listing } = listAll(2, [1, 2]);
  assert.throws(() => new Listing<number>(2, () => {}).countUnlisted(1), /still has room/);
  listing.countUnlisted(0);
  assert.equal(listing.cut, false);
  listing.countUnlisted(5);
  assert.deepEqual(listed, [1, 2]);
  assert.equal(listing.count, 2);
  assert.equal(listing.total, 7);
  assert.equal(listing.cutTotal, 7);
});
