/**
 * The posting table lists, for every trigram, exactly the files that hold it, in ascending
 * order, however the build is cut into segments (their merge re-encodes each list's first gap).
 */
import assert from "node:assert/strict";
import { decodePostings, PostingBuilder, type PostingTable } from "../core/trigram/postings.ts";
import { Random } from "./search_regex_gen.ts";

function build(files: Uint8Array[], chunkPairs?: number): PostingTable {
  const builder = new PostingBuilder(chunkPairs);
  files.forEach((bytes, id) => builder.add(id, bytes));
  return builder.finish();
}

/** trigram → ascending ids, by brute force. */
function expected(files: Uint8Array[]): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  files.forEach((bytes, id) => {
    const seen = new Set<number>();
    for (let i = 0; i + 3 <= bytes.length; i++) {
      seen.add((bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2]);
    }
    for (const trigram of seen) lists.set(trigram, [...lists.get(trigram) ?? [], id]);
  });
  return lists;
}

function lists(table: PostingTable): Map<number, number[]> {
  const result = new Map<number, number[]>();
  table.trigrams.forEach((trigram, i) => {
    const ids: number[] = [];
    decodePostings(
      table.postings.subarray(table.offsets[i], table.offsets[i + 1]),
      (id) => ids.push(id),
    );
    result.set(trigram, ids);
  });
  return result;
}

Deno.test("posting lists are exact and ascending, in one segment or many", () => {
  const random = new Random(17);
  // Ids far apart make multi-byte gaps; a small alphabet makes long lists.
  const files = Array.from(
    { length: 400 },
    () =>
      Uint8Array.from(
        { length: random.int(60) },
        () => random.pick([0x61, 0x62, 0x63, 0x00, 0xff]),
      ),
  );
  const truth = expected(files);
  const whole = build(files);
  assert.deepEqual(lists(whole), new Map([...truth].sort((a, b) => a[0] - b[0])));
  for (const chunkPairs of [60, 61, 97, 500]) assert.deepEqual(build(files, chunkPairs), whole);
});
