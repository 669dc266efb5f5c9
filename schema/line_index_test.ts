import assert from "node:assert/strict";
import { LineIndex, OffsetError } from "./line_index.ts";
import { makeSpan } from "./span_build.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("LF: offsets map to 1-based lines and 0-based byte columns", () => {
  const index = LineIndex.fromText("ab\ncd\n");
  assert.deepEqual(index.position(0), { line: 1, col: 0 });
  assert.deepEqual(index.position(2), { line: 1, col: 2 });
  assert.deepEqual(index.position(3), { line: 2, col: 0 });
  assert.deepEqual(index.position(6), { line: 3, col: 0 });
  assert.equal(index.offset({ line: 2, col: 1 }), 4);
});

Deno.test("CRLF: \\r\\n is one break and \\r belongs to the line it ends", () => {
  const index = LineIndex.fromText("ab\r\ncd");
  assert.deepEqual(index.position(2), { line: 1, col: 2 });
  assert.deepEqual(index.position(3), { line: 1, col: 3 });
  assert.deepEqual(index.position(4), { line: 2, col: 0 });
  assert.deepEqual(index.lineRange(1), [0, 3]);
  assert.equal(index.lineCount, 2);
});

Deno.test("a lone \\r does not end a line", () => {
  const index = LineIndex.fromText("a\rb\nc");
  assert.deepEqual(index.position(2), { line: 1, col: 2 });
  assert.deepEqual(index.position(4), { line: 2, col: 0 });
});

Deno.test("a BOM counts as three bytes of line 1", () => {
  const index = new LineIndex(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x62]));
  assert.deepEqual(index.position(3), { line: 1, col: 3 });
  assert.deepEqual(index.position(5), { line: 2, col: 0 });
  assert.throws(() => index.position(1), OffsetError);
});

Deno.test("2-, 3- and 4-byte characters advance columns by their byte width", () => {
  const text = "é€😀x"; // 2 + 3 + 4 bytes, then x at byte 9
  const index = LineIndex.fromText(text);
  assert.deepEqual(index.position(2), { line: 1, col: 2 });
  assert.deepEqual(index.position(5), { line: 1, col: 5 });
  assert.deepEqual(index.position(9), { line: 1, col: 9 });
  assert.equal(index.offset({ line: 1, col: 9 }), 9);
});

Deno.test("mid-character offsets are refused with a clear error", () => {
  const index = LineIndex.fromText("é€😀");
  for (const offset of [1, 3, 4, 6, 7, 8]) {
    assert.throws(
      () => index.position(offset),
      (error: unknown) =>
        error instanceof OffsetError && error.problem === "mid_character" &&
        error.message.includes(`${offset}`) && error.message.includes("multi-byte"),
    );
  }
});

Deno.test("out-of-range offsets name the file length", () => {
  const index = LineIndex.fromText("abc");
  for (const offset of [-1, 4, 1.5]) {
    assert.throws(
      () => index.position(offset),
      (error: unknown) =>
        error instanceof OffsetError && error.problem === "out_of_range" &&
        error.message.includes("length 3"),
    );
  }
  assert.throws(() => index.offset({ line: 5, col: 0 }), OffsetError);
  assert.throws(() => index.offset({ line: 1, col: 9 }), OffsetError);
});

Deno.test("an empty file has one empty line and offset 0 = length is valid", () => {
  const index = new LineIndex(new Uint8Array());
  assert.deepEqual(index.position(0), { line: 1, col: 0 });
  assert.equal(index.lineCount, 1);
  assert.throws(() => index.position(1), OffsetError);
});

Deno.test("a file without a final newline ends on its last line; offset = length is its end", () => {
  const index = LineIndex.fromText("a\nbc");
  assert.deepEqual(index.position(4), { line: 2, col: 2 });
  assert.equal(index.lineEnd(2), 4);
});

Deno.test("makeSpan builds byte-exact spans with end positions of byte_end itself", () => {
  const index = new LineIndex(bytes("x\r\nαβ\n"));
  const span = makeSpan("src/a.txt", index, 3, 7);
  assert.deepEqual(span, {
    file_path: "src/a.txt",
    byte_start: 3,
    byte_end: 7,
    start_line: 2,
    start_col: 0,
    end_line: 2,
    end_col: 4,
    span_id: span.span_id,
  });
  assert.match(span.span_id, /^[0-9a-f]{16}$/);
  assert.throws(() => makeSpan("a", index, 5, 4), RangeError);
  assert.throws(() => makeSpan("a", index, 4, 5), OffsetError);
});

Deno.test("line starts are every offset after a newline, at any alignment of the bytes", () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let round = 0; round < 300; round++) {
    const buffer = Uint8Array.from(
      { length: Math.floor(next() * 80) },
      () => next() < 0.3 ? 0x0a : [0x61, 0x0d, 0x0b, 0x8a, 0x0a0 & 0xff][Math.floor(next() * 5)],
    );
    const from = Math.floor(next() * Math.min(5, buffer.length + 1));
    const view = buffer.subarray(from);
    const expected = [0];
    view.forEach((byte, at) => byte === 0x0a && expected.push(at + 1));
    assert.deepEqual(new LineIndex(view).lineStarts, expected, `round ${round}`);
  }
});
