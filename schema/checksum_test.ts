import assert from "node:assert/strict";
import { normalizeChecksum, sha256 } from "./checksum.ts";

Deno.test("checksums are sha256:<hex>; inputs accept bare or prefixed hex in any case", () => {
  const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  assert.equal(sha256(""), `sha256:${empty}`);
  assert.equal(sha256(new Uint8Array()), `sha256:${empty}`);
  assert.equal(normalizeChecksum(empty.toUpperCase()), `sha256:${empty}`);
  assert.equal(normalizeChecksum(`sha256:${empty}`), `sha256:${empty}`);
  assert.equal(normalizeChecksum("md5:abc"), undefined);
});
