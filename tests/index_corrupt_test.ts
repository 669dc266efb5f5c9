/**
 * A corrupt or stale repository index is detected and ignored with an `LMS-IO-010` warning,
 * never trusted: the results stay those of a search without it. `llm-symbols index` writes the
 * index; `llm-search` reads it with read permission only and says how it used it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { search } from "../tools/search/engine.ts";
import { discover } from "../tools/discover/engine.ts";
import { buildTrigramIndex } from "../core/trigram/build.ts";
import { checksum32 } from "../core/trigram/checksum.ts";
import { align, FORMAT_VERSION, HEADER_BYTES, HEADER_CHECKSUM_AT } from "../core/trigram/format.ts";
import { makeTree, parseJson, REPO, runEntry } from "./helpers.ts";

const FILES: Record<string, string> = {
  "src/a.c": "int x = PM_RESUME;\n",
  "src/b.c": "int y = PM_SUSPEND;\n",
  "docs/readme.txt": "nothing here\n",
};

/** Ages every file and folder an hour so the index trusts their stamps. */
function age(root: string): void {
  const past = Date.now() / 1000 - 3600;
  for (const path of Object.keys(FILES)) Deno.utimeSync(join(root, path), past, past);
  for (const dir of ["src", "docs", "."]) Deno.utimeSync(join(root, dir), past, past);
}

async function indexedRoot(): Promise<string> {
  const root = await makeTree(FILES);
  Deno.mkdirSync(join(root, ".llm"));
  age(root);
  buildTrigramIndex({ root });
  return root;
}

async function run(root: string, useIndex = true) {
  const result = await search({ patterns: ["PM_RESUME"], cwd: root, threads: 1, useIndex });
  const matches = result.data.matches.map((match) => match.span);
  return { result, matches };
}

Deno.test("a sound index rules files out and says so", async () => {
  const root = await indexedRoot();
  try {
    const { result, matches } = await run(root);
    assert.deepEqual(result.data.index, {
      used: true,
      walk: true,
      postings: true,
      files_verified: 1,
      files_ruled_out: 2,
      files_changed: 0,
      freshness: "stamps",
    });
    assert.deepEqual(matches, (await run(root, false)).matches);
    assert.equal(result.data.files_searched, 3);
    assert.equal((await run(root, false)).result.data.index, undefined);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

/** Where the header holds the offsets of the meta data and of the posting lists. */
const META_OFFSET_AT = 20;
const POSTINGS_OFFSET_AT = 52;
/** Where it holds the body's checksum and the listing's. */
const BODY_CHECKSUM_AT = 60;
const LISTING_CHECKSUM_AT = 68;

/** Where the header holds the offset of the per-entry arrays (flags, then sizes as f64). */
const ARRAYS_OFFSET_AT = 36;
/** Where it holds the offset of the trigram table, which follows those arrays. */
const TABLE_OFFSET_AT = 40;

/** Where the listing (meta, paths, flags: all that a walk reads) of `bytes` ends. */
function listingEnd(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return view.getUint32(ARRAYS_OFFSET_AT, true) + align(view.getUint32(12, true), 8);
}

/**
 * `bytes` with `from` replaced by `to` (as long) in the path list, every checksum made to match:
 * a forged index, which only a check of its content can refuse.
 */
function forgedPath(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const copy = bytes.slice();
  const encoder = new TextEncoder();
  const [was, now] = [encoder.encode(from), encoder.encode(to)];
  const at = copy.findIndex((_, i) => was.every((byte, j) => copy[i + j] === byte));
  assert.ok(at > 0 && was.length === now.length);
  copy.set(now, at);
  return sealed(copy);
}

/** `bytes` with the size of every entry set to `size`, every checksum made to match. */
function forgedSizes(bytes: Uint8Array, size: number): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  const sizesAt = listingEnd(copy);
  for (let id = 0; id < view.getUint32(12, true); id++) {
    view.setFloat64(sizesAt + 8 * id, size, true);
  }
  return sealed(copy);
}

/** `bytes` (an index) with its body, listing and header checksums made to match its content. */
function sealed(copy: Uint8Array): Uint8Array {
  const view = new DataView(copy.buffer);
  const metaOffset = view.getUint32(META_OFFSET_AT, true);
  const body = copy.subarray(metaOffset, view.getUint32(POSTINGS_OFFSET_AT, true));
  view.setUint32(BODY_CHECKSUM_AT, checksum32(body), true);
  const listing = copy.subarray(metaOffset, listingEnd(copy));
  view.setUint32(LISTING_CHECKSUM_AT, checksum32(listing), true);
  view.setUint32(HEADER_CHECKSUM_AT, checksum32(copy.subarray(0, HEADER_CHECKSUM_AT)), true);
  return copy;
}

/** Damages to the index file: each must be detected. */
const DAMAGES: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  "magic": (bytes) => flip(bytes, 0),
  "version": (bytes) => flip(bytes, 8),
  "the previous format's version, its checksums intact": (bytes) => {
    // An index written by the previous release (no posting masks) passes every checksum.
    const copy = bytes.slice();
    const view = new DataView(copy.buffer);
    view.setUint32(8, FORMAT_VERSION - 1, true);
    view.setUint32(HEADER_CHECKSUM_AT, checksum32(copy.subarray(0, HEADER_CHECKSUM_AT)), true);
    return copy;
  },
  "a header field": (bytes) => flip(bytes, 20),
  "meta data": (bytes) => flip(bytes, HEADER_BYTES + 2),
  "the middle of the body": (bytes) => flip(bytes, Math.floor(bytes.length * 0.6)),
  "an entry's flags": (bytes) => flip(bytes, listingEnd(bytes) - 8),
  "the posting lists": (bytes) => {
    const copy = bytes.slice();
    const postings = new DataView(bytes.buffer).getUint32(POSTINGS_OFFSET_AT, true);
    for (let at = postings; at < copy.length; at++) copy[at] ^= 0x01;
    return copy;
  },
  "its path list, checksums made to match: a path leaving the root": (bytes) =>
    forgedPath(bytes, "src/b.c", "../b.cc"),
  "its path list, checksums made to match: an absolute path": (bytes) =>
    forgedPath(bytes, "src/b.c", "/tmp/bc"),
  "its path list, checksums made to match: a '..' inside a path": (bytes) =>
    forgedPath(bytes, "src/b.c", "sr/../c"),
  "its path list, checksums made to match: a leading './'": (bytes) =>
    forgedPath(bytes, "src/b.c", "./src/b"),
  "its path list, checksums made to match: an empty component": (bytes) =>
    forgedPath(bytes, "src/b.c", "src//bc"),
  "its section offsets, checksums made to match: the trigram table inside the entry arrays": (
    bytes,
  ) => {
    const copy = bytes.slice();
    const view = new DataView(copy.buffer);
    view.setUint32(TABLE_OFFSET_AT, view.getUint32(ARRAYS_OFFSET_AT, true), true);
    return sealed(copy);
  },
  "its file sizes, checksums made to match: a terabyte each": (bytes) =>
    forgedSizes(bytes, 2 ** 40),
  "truncation": (bytes) => bytes.slice(0, bytes.length - 3),
  "an appended byte": (bytes) => new Uint8Array([...bytes, 0]),
  "emptiness": () => new Uint8Array(0),
};

function flip(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] ^= 0x40;
  return copy;
}

for (const [name, damage] of Object.entries(DAMAGES)) {
  Deno.test(`an index damaged in ${name} is ignored with LMS-IO-010`, async () => {
    const root = await indexedRoot();
    try {
      const path = join(root, ".llm", "trigram.idx");
      Deno.writeFileSync(path, damage(Deno.readFileSync(path)));
      const { result, matches } = await run(root);
      assert.deepEqual(result.diagnostics.map((diagnostic) => diagnostic.code), ["LMS-IO-010"]);
      assert.equal(result.data.index, undefined);
      assert.deepEqual(matches, (await run(root, false)).matches);
      assert.equal(matches.length, 1);
    } finally {
      Deno.removeSync(root, { recursive: true });
    }
  });
}

/**
 * Whether `damaged` differs from `bytes` where a walk reads (the header and the listing), or in
 * length. The body's checksum in the header is for a search, and the header's own checksum is
 * resealed after it by the forgeries; a walk reads neither.
 */
function touchesListing(bytes: Uint8Array, damaged: Uint8Array): boolean {
  if (damaged.length !== bytes.length) return true;
  const unread = (at: number) =>
    (at >= BODY_CHECKSUM_AT && at < BODY_CHECKSUM_AT + 4) || at >= HEADER_CHECKSUM_AT;
  return damaged.subarray(0, listingEnd(bytes)).some((byte, at) =>
    byte !== bytes[at] && !(at < HEADER_BYTES && unread(at))
  );
}

for (const [name, damage] of Object.entries(DAMAGES)) {
  Deno.test(`llm-discover ignores an index damaged in ${name} where it reads it`, async () => {
    const root = await indexedRoot();
    try {
      const path = join(root, ".llm", "trigram.idx");
      const bytes = Deno.readFileSync(path);
      const damaged = damage(bytes);
      Deno.writeFileSync(path, damaged);
      const result = await discover({ query: "c", cwd: root, kind: "file" });
      // Discover reads only the listing: a damage elsewhere is for a search to find.
      const expected = touchesListing(bytes, damaged) ? ["LMD-IO-010"] : [];
      assert.deepEqual(result.diagnostics.map((diagnostic) => diagnostic.code), expected);
      const paths = result.data.results.map((found) => found.path);
      const walked = await discover({ query: "c", cwd: root, kind: "file", useIndex: false });
      assert.deepEqual(paths, walked.data.results.map((found) => found.path));
      assert.equal(paths.length, 3);
    } finally {
      Deno.removeSync(root, { recursive: true });
    }
  });
}

Deno.test("an index built for another root is ignored with LMS-IO-010", async () => {
  const root = await indexedRoot();
  const other = await makeTree({ "src/a.c": "int z = PM_RESUME;\n", "x.txt": "PM_RESUME\n" });
  try {
    Deno.mkdirSync(join(other, ".llm"));
    Deno.copyFileSync(join(root, ".llm", "trigram.idx"), join(other, ".llm", "trigram.idx"));
    const { result, matches } = await run(other);
    assert.deepEqual(result.diagnostics.map((diagnostic) => diagnostic.code), ["LMS-IO-010"]);
    assert.equal(matches.length, 2);
  } finally {
    Deno.removeSync(root, { recursive: true });
    Deno.removeSync(other, { recursive: true });
  }
});

Deno.test("an index reached through a linked .llm folder is not read", async () => {
  const root = await indexedRoot();
  const elsewhere = await makeTree({});
  try {
    Deno.renameSync(join(root, ".llm"), join(elsewhere, ".llm"));
    Deno.symlinkSync(join(elsewhere, ".llm"), join(root, ".llm"));
    const { result, matches } = await run(root);
    assert.equal(result.data.index, undefined);
    assert.equal(matches.length, 1);
  } finally {
    Deno.removeSync(root, { recursive: true });
    Deno.removeSync(elsewhere, { recursive: true });
  }
});

Deno.test("llm-symbols index writes the index; llm-search reads it with read permission only", async () => {
  const root = await makeTree(FILES);
  try {
    const indexed = parseJson(
      await runEntry("tools/symbols/main.ts", ["index", "--threads", "0"], {
        cwd: root,
        // `index` loads its indexer at run time (no query reads the parser's graph at start),
        // which needs read permission for the package too.
        permissions: [`--allow-read=${root},${REPO}`, `--allow-write=${join(root, ".llm")}`],
      }),
    );
    const written = (indexed.result as { trigram_index?: { files: number } }).trigram_index;
    assert.equal(written?.files, 3, JSON.stringify(indexed));
    const searched = parseJson(
      await runEntry("tools/search/main.ts", ["PM_RESUME"], {
        cwd: root,
        permissions: [`--allow-read=${root}`],
      }),
    );
    const data = searched.data as { index?: { used: boolean }; match_count: number };
    assert.equal(data.index?.used, true);
    assert.equal(data.match_count, 1);
    const scanned = parseJson(
      await runEntry("tools/search/main.ts", ["PM_RESUME", "--no-index"], {
        cwd: root,
        permissions: [`--allow-read=${root}`],
      }),
    );
    assert.equal((scanned.data as { index?: unknown }).index, undefined);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});
