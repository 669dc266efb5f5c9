/**
 * Property tests of span edits: thousands of random edit sets on random UTF-8 texts (ASCII,
 * 2-, 3- and 4-byte characters, CRLF, a BOM) against an independent reference that applies the
 * edits one by one from the highest offset down with plain string slicing; the reported new
 * spans must point exactly at the inserted text. Invalid edit sets (overlaps, offsets inside a
 * character or past the end, start after end) must be refused with the right code and change
 * nothing. A smaller run goes through the whole engine on real files.
 */
import assert from "node:assert/strict";
import { applyPatch, parsePatch } from "diff";
import { LineIndex, sha256 } from "../schema/mod.ts";
import { buildRequest, transform } from "../tools/transform/main.ts";
import { applySpanEdits, type SpanEdit } from "../tools/transform/spans.ts";
import { findOccurrences } from "../tools/transform/replace.ts";
import { unifiedDiff } from "../core/transaction/diff.ts";
import { makeTree, seededRandom as random } from "./helpers.ts";

const PIECES = [
  "a",
  "b",
  "Z",
  " ",
  "\t",
  "\n",
  "\r\n",
  "é", // 2 bytes
  "€", // 3 bytes
  "中", // 3 bytes
  "😀", // 4 bytes
  "x",
  "=",
];

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

interface Sample {
  text: string;
  /** Characters (code points) of the text, so offsets never split one. */
  chars: string[];
  /** Byte offset of each character boundary: `boundaries[i]` is before `chars[i]`. */
  boundaries: number[];
}

function randomText(next: () => number, maxPieces: number): string {
  const count = Math.floor(next() * (maxPieces + 1));
  let text = next() < 0.1 ? "\ufeff" : "";
  for (let i = 0; i < count; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

function sample(text: string): Sample {
  const chars = [...text];
  const boundaries = [0];
  for (const char of chars) boundaries.push(boundaries.at(-1)! + encoder.encode(char).length);
  return { text, chars, boundaries };
}

interface RandomEdit {
  index: number;
  startChar: number;
  endChar: number;
  text: string;
}

/** Random non-overlapping edits (touching, empty, several insertions at one point), shuffled. */
function randomEdits(next: () => number, length: number): RandomEdit[] {
  const pairs = Math.floor(next() * 6);
  const points: number[] = [];
  for (let i = 0; i < pairs * 2; i++) points.push(Math.floor(next() * (length + 1)));
  points.sort((a, b) => a - b);
  const spans: [number, number][] = [];
  for (let i = 0; i + 1 < points.length; i += 2) spans.push([points[i], points[i + 1]]);
  for (let i = 0; i < spans.length; i++) {
    if (next() < 0.3) spans.push([spans[i][0], spans[i][0]]); // insertion at a span's start
    if (next() < 0.2) spans.push([spans[i][1], spans[i][1]]); // … or at its end
  }
  if (next() < 0.2) {
    // Several insertions at one point; a span's end never lies inside another span.
    const at = points.length ? points[Math.floor(next() * points.length)] : length;
    spans.push([at, at], [at, at], [at, at]);
  }
  for (let i = spans.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [spans[i], spans[j]] = [spans[j], spans[i]];
  }
  return spans.map(([startChar, endChar], index) => ({
    index,
    startChar,
    endChar,
    text: randomText(next, 4).replace("\ufeff", ""),
  }));
}

/**
 * The reference: apply the edits one by one, highest offset first, by slicing a string of
 * characters. Ties: the larger end first, then the later plan index first, so insertions at
 * one point end up in plan order and an insertion at a replaced range's start precedes it.
 */
function reference(chars: string[], edits: RandomEdit[]): string {
  let current = [...chars];
  const order = [...edits].sort((a, b) =>
    b.startChar - a.startChar || b.endChar - a.endChar || b.index - a.index
  );
  for (const edit of order) {
    current = [
      ...current.slice(0, edit.startChar),
      ...edit.text,
      ...current.slice(edit.endChar),
    ];
  }
  return current.join("");
}

function toSpanEdits(input: Sample, edits: RandomEdit[], withChecksums: boolean): SpanEdit[] {
  return edits.map((edit) => {
    const byteStart = input.boundaries[edit.startChar];
    const byteEnd = input.boundaries[edit.endChar];
    const spanEdit: SpanEdit = {
      index: edit.index,
      byte_start: byteStart,
      byte_end: byteEnd,
      new_text: edit.text,
    };
    if (withChecksums) {
      spanEdit.expected_checksum = sha256(encoder.encode(input.text).subarray(byteStart, byteEnd));
    }
    return spanEdit;
  });
}

Deno.test("random valid edit sets give what string slicing gives, and new spans point at the new text", () => {
  const seed = 0x5eed1;
  const next = random(seed);
  let edits = 0;
  for (let round = 0; round < 4000; round++) {
    const input = sample(randomText(next, 40));
    const planned = randomEdits(next, input.chars.length);
    const bytes = encoder.encode(input.text);
    const result = applySpanEdits(bytes, toSpanEdits(input, planned, next() < 0.5));
    const context = `seed ${seed} round ${round}: ${JSON.stringify(input.text)} ${
      JSON.stringify(planned)
    }`;
    assert.deepEqual(result.problems, [], context);
    const expected = reference(input.chars, planned);
    assert.equal(decoder.decode(result.bytes), expected, context);
    assert.deepEqual(result.bytes, encoder.encode(expected), context);
    assert.equal(result.placed.length, planned.length, context);
    const newIndex = new LineIndex(result.bytes);
    for (const placed of result.placed) {
      const edit = planned[placed.index];
      const inserted = result.bytes.subarray(placed.new_start, placed.new_end);
      assert.equal(decoder.decode(inserted), edit.text, context);
      assert.equal(placed.checksum_after, sha256(edit.text), context);
      assert.equal(
        placed.checksum_before,
        sha256(bytes.subarray(placed.byte_start, placed.byte_end)),
        context,
      );
      // Both ends of the new span are character boundaries of the new file.
      newIndex.check(placed.new_start);
      newIndex.check(placed.new_end);
    }
    edits += planned.length;
  }
  assert.ok(edits > 10000, `only ${edits} edits were generated`);
});

Deno.test("random invalid edit sets are refused with the right code and change nothing", () => {
  const seed = 0xbad5;
  const next = random(seed);
  const seen = new Set<string>();
  for (let round = 0; round < 2000; round++) {
    const input = sample(randomText(next, 30) + "é€😀");
    const bytes = encoder.encode(input.text);
    const planned = toSpanEdits(input, randomEdits(next, input.chars.length), false);
    const index = planned.length;
    const kind = Math.floor(next() * 5);
    let bad: SpanEdit;
    let code: string;
    if (kind === 0) {
      // Overlap: a copy of a non-empty span, or a span crossing one.
      const target = planned.find((edit) => edit.byte_end > edit.byte_start);
      if (!target) continue;
      bad = { index, byte_start: target.byte_start, byte_end: target.byte_end, new_text: "o" };
      code = "LMT-V-006";
    } else if (kind === 1) {
      // Inside a multi-byte character (the text ends with 2-, 3- and 4-byte ones).
      const inner = bytes.length - 1 - Math.floor(next() * 3);
      bad = { index, byte_start: inner, byte_end: inner, new_text: "m" };
      code = "LMT-V-005";
    } else if (kind === 2) {
      bad = { index, byte_start: bytes.length, byte_end: bytes.length + 1, new_text: "" };
      code = "LMT-V-003";
    } else if (kind === 3) {
      const start = input.boundaries[input.boundaries.length - 1];
      const end = input.boundaries[Math.max(0, input.boundaries.length - 2)];
      bad = { index, byte_start: start, byte_end: end, new_text: "s" };
      code = start > end ? "LMT-V-004" : "";
      if (!code) continue;
    } else {
      const target = planned[0];
      if (!target) continue;
      bad = { ...target, index, expected_checksum: sha256("not these bytes") };
      planned.splice(0, 1);
      code = "LMT-V-002";
    }
    const result = applySpanEdits(bytes, [...planned, bad]);
    const context = `seed ${seed} round ${round} kind ${kind}: ${JSON.stringify(input.text)}`;
    assert.ok(result.problems.some((problem) => problem.code === code), context);
    assert.equal(result.bytes, bytes, context);
    assert.deepEqual(result.placed, [], context);
    seen.add(code);
  }
  assert.deepEqual([...seen].sort(), [
    "LMT-V-002",
    "LMT-V-003",
    "LMT-V-004",
    "LMT-V-005",
    "LMT-V-006",
  ]);
});

Deno.test("random plans through the engine on real files match the reference byte for byte", async () => {
  const seed = 0xf11e5;
  const next = random(seed);
  const root = await makeTree({});
  try {
    for (let round = 0; round < 60; round++) {
      const inputs = [0, 1, 2].map(() => sample(randomText(next, 30)));
      const plans = inputs.map((input) => randomEdits(next, input.chars.length));
      const names = inputs.map((_, i) => `dir${i % 2}/file-${round}-${i}.txt`);
      for (const [i, input] of inputs.entries()) {
        await Deno.mkdir(`${root}/dir${i % 2}`, { recursive: true });
        await Deno.writeTextFile(`${root}/${names[i]}`, input.text);
      }
      const edits = inputs.flatMap((input, i) =>
        toSpanEdits(input, plans[i], true).map((edit) => ({
          file_path: names[i],
          byte_start: edit.byte_start,
          byte_end: edit.byte_end,
          new_text: edit.new_text,
          expected_checksum: edit.expected_checksum,
        }))
      );
      if (edits.length === 0) continue;
      const file_checksums = Object.fromEntries(
        inputs.map((input, i) => [names[i], sha256(input.text)]),
      );
      const request = await buildRequest(
        { edits, file_checksums, all: false, recover: false },
        { cwd: root },
      );
      const dryRun = next() < 0.3;
      const report = await transform(request, {
        root,
        cwd: root,
        executionId: crypto.randomUUID(),
        dryRun,
      });
      const context = `seed ${seed} round ${round}`;
      assert.equal(report.status, "ok", `${context}: ${report.message}`);
      const result = report.result as import("../schema/mod.ts").TransformResult;
      for (const [i, input] of inputs.entries()) {
        const expected = reference(input.chars, plans[i]);
        const onDisk = await Deno.readTextFile(`${root}/${names[i]}`);
        assert.equal(onDisk, dryRun ? input.text : expected, context);
        const file = result.files.find((entry) => entry.file_path === names[i]);
        if (!file) continue;
        assert.equal(file.final_checksum, sha256(expected), context);
        assert.equal(
          file.total_byte_shift,
          encoder.encode(expected).length - encoder.encode(input.text).length,
          context,
        );
        const newBytes = encoder.encode(expected);
        const index = new LineIndex(newBytes);
        for (const edit of result.edits.filter((entry) => entry.file_path === names[i])) {
          const span = edit.new_span!;
          assert.equal(
            decoder.decode(newBytes.subarray(span.byte_start, span.byte_end)),
            plans[i][edit.index - edits.findIndex((e) => e.file_path === names[i])].text,
            context,
          );
          assert.deepEqual(
            [span.start_line, span.start_col, span.end_line, span.end_col],
            [
              index.position(span.byte_start).line,
              index.position(span.byte_start).col,
              index.position(span.byte_end).line,
              index.position(span.byte_end).col,
            ],
            context,
          );
        }
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("findOccurrences finds what a naive left-to-right scan finds", () => {
  const next = random(0x0cc);
  const alphabet = ["a", "b", "ab", "é", "\r\n"];
  for (let round = 0; round < 3000; round++) {
    const pick = (n: number) =>
      Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
    const haystack = encoder.encode(pick(Math.floor(next() * 30)));
    const needle = encoder.encode(pick(1 + Math.floor(next() * 3)));
    const naive: number[] = [];
    for (let at = 0; at + needle.length <= haystack.length;) {
      if (needle.every((byte, k) => haystack[at + k] === byte)) {
        naive.push(at);
        at += needle.length;
      } else at++;
    }
    assert.deepEqual(findOccurrences(haystack, needle), naive, `round ${round}`);
  }
});

Deno.test("the windowed dry-run diff applies to the old text and gives the new text", () => {
  const next = random(0xd1ff);
  const lines = ["alpha\n", "beta\n", "\n", "gamma é\r\n", "delta 😀\n", "x\n"];
  let hunks = 0;
  for (let round = 0; round < 500; round++) {
    const count = Math.floor(next() * 40);
    let text = Array.from({ length: count }, () => lines[Math.floor(next() * lines.length)])
      .join("");
    if (next() < 0.3) text += "no final newline";
    const input = sample(text);
    const planned = randomEdits(next, input.chars.length).map((edit) => ({
      ...edit,
      text: next() < 0.5 ? edit.text : edit.text + "\n",
    }));
    const bytes = encoder.encode(text);
    const result = applySpanEdits(bytes, toSpanEdits(input, planned, false));
    const regions = result.placed.map((placed) => ({
      old_start: placed.byte_start,
      old_end: placed.byte_end,
      new_start: placed.new_start,
      new_end: placed.new_end,
    }));
    const patch = unifiedDiff("f.txt", bytes, result.bytes, regions);
    const after = decoder.decode(result.bytes);
    const context = `round ${round}: ${JSON.stringify(text)} ${JSON.stringify(planned)}`;
    if (after === text) {
      assert.equal(patch, "--- a/f.txt\n+++ b/f.txt\n", context);
      continue;
    }
    assert.equal(applyPatch(text, patch), after, `${context}\n${patch}`);
    // Strictly: every hunk's old side is at the very line its header names (no fuzzy search).
    const oldLines = text.split("\n");
    for (const hunk of parsePatch(patch)[0].hunks) {
      const side = hunk.lines.filter((line) => line[0] === " " || line[0] === "-")
        .map((line) => line.slice(1));
      const first = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
      assert.deepEqual(
        side.map((line) => line.replace(/\r$/, "")),
        oldLines.slice(first, first + side.length).map((line) => line.replace(/\r$/, "")),
        `${context}\n${patch}`,
      );
    }
    hunks += patch.split("\n@@").length - 1;
  }
  assert.ok(hunks > 300, `only ${hunks} hunks were checked`);
});
