import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sha256Hex } from "./sha256.ts";

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

Deno.test("sha256Hex is node:crypto's SHA-256 on generated inputs of every length to 300 bytes", () => {
  const random = seeded(7);
  for (let length = 0; length <= 300; length++) {
    for (let round = 0; round < 4; round++) {
      const data = Uint8Array.from({ length }, () => Math.floor(random() * 256));
      assert.equal(sha256Hex(data), createHash("sha256").update(data).digest("hex"), `${length}`);
    }
  }
});

Deno.test("sha256Hex matches the FIPS 180-4 examples", () => {
  const text = (value: string) => sha256Hex(new TextEncoder().encode(value));
  assert.equal(text("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

Deno.test("sha256 (the contract's checksum) equals node:crypto below, at and past the TypeScript limit", async () => {
  const { sha256 } = await import("./checksum.ts");
  const random = seeded(11);
  // Below 64 KiB the TypeScript hash while its 256 KiB last, else node:crypto.
  const lengths = [0, 1, 55, 56, 64, 1000, 65_535, 65_536, 600_000, 3];
  for (const length of [...lengths, ...Array(5).fill(65_000), ...lengths]) {
    const data = Uint8Array.from({ length }, () => Math.floor(random() * 256));
    assert.equal(sha256(data), `sha256:${createHash("sha256").update(data).digest("hex")}`);
  }
  assert.equal(sha256("héllo"), `sha256:${createHash("sha256").update("héllo").digest("hex")}`);
});
