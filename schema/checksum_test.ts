import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { normalizeChecksum, sha256, sha256Async } from "./checksum.ts";

Deno.test("checksums are sha256:<hex>; inputs accept bare or prefixed hex in any case", () => {
  const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  assert.equal(sha256(""), `sha256:${empty}`);
  assert.equal(sha256(new Uint8Array()), `sha256:${empty}`);
  assert.equal(normalizeChecksum(empty.toUpperCase()), `sha256:${empty}`);
  assert.equal(normalizeChecksum(`sha256:${empty}`), `sha256:${empty}`);
  assert.equal(normalizeChecksum("md5:abc"), undefined);
});

Deno.test("sha256Async equals sha256 and node:crypto on every size, views and strings", async () => {
  // Sizes straddle the SHA-256 block and padding edges and the TypeScript hash's 64 KiB limit.
  const sizes = [0, 1, 55, 56, 63, 64, 65, 1000, 65535, 65536, 65537, 300_000];
  const backing = new Uint8Array(300_100).map((_, i) => (i * 2654435761) >>> 24);
  for (const size of sizes) {
    const view = backing.subarray(7, 7 + size);
    const expected = `sha256:${createHash("sha256").update(view).digest("hex")}`;
    assert.equal(await sha256Async(view), expected, `size ${size}`);
    assert.equal(sha256(view), expected, `size ${size}`);
  }
  const shared = new Uint8Array(new SharedArrayBuffer(3));
  shared.set([97, 98, 99]);
  assert.equal(await sha256Async(shared), sha256("abc"));
  assert.equal(await sha256Async("héllo"), sha256("héllo"));
});
