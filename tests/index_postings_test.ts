/**
 * The posting table lists, for every trigram, exactly the units that hold it (a unit: a piece
 * of `unitBytes` of one file, where the trigram starts), in ascending order, each with the
 * offsets (mod 8, counted from the file's start) where the trigram starts and the bits of the
 * bytes that follow it, however the build is cut into segments (their merge re-encodes each
 * list's first gap) and whatever the unit size.
 */
import assert from "node:assert/strict";
import {
  decodePostings,
  nextByteBit,
  PostingBuilder,
  type PostingLayout,
} from "../core/trigram/postings.ts";
import { unitsOf } from "../core/trigram/format.ts";
import { Random } from "./search_regex_gen.ts";

/** A merged table: its layout and its lists as written. */
type PostingTable = PostingLayout & { postings: Uint8Array };

/** The first unit of each file, as the index numbers them. */
function firstUnits(files: Uint8Array[], unitBytes: number): number[] {
  let next = 0;
  return files.map((bytes) => {
    const first = next;
    next += unitsOf(bytes.length, 0, unitBytes);
    return first;
  });
}

/** The layout and the lists as written, in chunks of a size that cuts through lists. */
function build(files: Uint8Array[], unitBytes: number, chunkPairs?: number): PostingTable {
  const builder = new PostingBuilder({ unitBytes, chunkPairs });
  const firsts = firstUnits(files, unitBytes);
  files.forEach((bytes, id) => builder.add(firsts[id], bytes));
  const layout = builder.finish();
  const chunks: number[] = [];
  builder.writeLists(layout, (chunk) => chunks.push(...chunk), 7);
  const postings = Uint8Array.from(chunks);
  assert.equal(postings.length, layout.offsets[layout.trigrams.length], "lists as laid out");
  return { ...layout, postings };
}

/** A posting as [id, offset mask, next-byte mask]. */
type Posting = [number, number, number];

/** trigram → ascending postings, by brute force: unit by unit, trigram by trigram. */
function expected(files: Uint8Array[], unitBytes: number): Map<number, Posting[]> {
  const lists = new Map<number, Posting[]>();
  const firsts = firstUnits(files, unitBytes);
  files.forEach((bytes, id) => {
    for (let start = 0; start < bytes.length; start += unitBytes) {
      const masks = new Map<number, [number, number]>();
      for (let i = start; i < start + unitBytes && i + 3 <= bytes.length; i++) {
        const trigram = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
        const [offsets, nexts] = masks.get(trigram) ?? [0, 0];
        const next = i + 3 < bytes.length ? 1 << nextByteBit(bytes[i + 3]) : 0;
        masks.set(trigram, [offsets | (1 << (i % 8)), nexts | next]);
      }
      const unit = firsts[id] + start / unitBytes;
      for (const [trigram, [offsets, nexts]] of masks) {
        lists.set(trigram, [...lists.get(trigram) ?? [], [unit, offsets, nexts]]);
      }
    }
  });
  return lists;
}

function lists(table: PostingTable): Map<number, Posting[]> {
  const result = new Map<number, Posting[]>();
  table.trigrams.forEach((trigram, i) => {
    const postings: Posting[] = [];
    decodePostings(
      table.postings.subarray(table.offsets[i], table.offsets[i + 1]),
      (id, offsets, nexts) => postings.push([id, offsets, nexts]),
    );
    result.set(trigram, postings);
  });
  return result;
}

Deno.test("posting lists and their masks are exact and ascending, in one segment or many", () => {
  const random = new Random(17);
  // Ids far apart make multi-byte gaps; a small alphabet makes long lists.
  const files = Array.from(
    { length: 400 },
    () =>
      Uint8Array.from(
        { length: random.int(random.chance(0.1) ? 600 : 60) },
        () => random.pick([0x61, 0x62, 0x63, 0x00, 0xff]),
      ),
  );
  for (const unitBytes of [1 << 16, 1, 7, 64]) {
    const truth = expected(files, unitBytes);
    const whole = build(files, unitBytes);
    assert.deepEqual(lists(whole), new Map([...truth].sort((a, b) => a[0] - b[0])), `${unitBytes}`);
    for (const chunkPairs of [60, 61, 97, 500]) {
      assert.deepEqual(build(files, unitBytes, chunkPairs), whole, `${unitBytes}/${chunkPairs}`);
    }
  }
});
