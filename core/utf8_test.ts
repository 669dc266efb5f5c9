import assert from "node:assert/strict";
import { bomWidth, decodeFile, decodeText, decodeUtf8 } from "./utf8.ts";

const BOM = [0xef, 0xbb, 0xbf];

Deno.test("decodeText and decodeUtf8 keep a BOM as U+FEFF, the way back counting its bytes", () => {
  const bytes = new Uint8Array([...BOM, 0x61, 0xff, 0x62]);
  assert.equal(decodeText(bytes), "\ufeffa\ufffdb");
  const decoded = decodeUtf8(bytes);
  assert.equal(decoded.text, decodeText(bytes));
  assert.deepEqual([0, 1, 2, 3, 4].map(decoded.byteOffset), [0, 3, 4, 5, 6]);
  assert.deepEqual([0, 3, 4, 5, 6].map(decoded.unitIndex), [0, 1, 2, 3, 4]);
  assert.equal(decodeFile(bytes).bytes, bytes);
  assert.equal(decodeFile(bytes).decoded.text, decoded.text);
});

Deno.test("bomWidth: 3 for a leading BOM only", () => {
  assert.equal(bomWidth(new Uint8Array(BOM)), 3);
  assert.equal(bomWidth(new Uint8Array([...BOM, 0x0a])), 3);
  assert.equal(bomWidth(new Uint8Array([0x20, ...BOM])), 0);
  assert.equal(bomWidth(new Uint8Array([0xef, 0xbb])), 0);
  assert.equal(bomWidth(new Uint8Array()), 0);
});
