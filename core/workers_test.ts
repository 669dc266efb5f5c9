/** Worker availability and thread counts, shared by search, ast-search and the MCP server. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  MAX_DEFAULT_WORKERS,
  packageDirectory,
  threadCount,
  workersAvailable,
  workersFor,
} from "./workers.ts";

Deno.test("packageDirectory: the folder that holds core/", () => {
  const here = fileURLToPath(new URL("./", import.meta.url));
  assert.equal(`${packageDirectory()}core/`, here);
  assert.ok(Deno.statSync(`${packageDirectory()}deno.json`).isFile);
});

Deno.test("workersAvailable: follows read permission for the package", async () => {
  const state = (await Deno.permissions.query({ name: "read", path: packageDirectory() })).state;
  assert.equal(workersAvailable(), state === "granted");
});

const cores = navigator.hardwareConcurrency ?? 1;

Deno.test("threadCount: the request, else the cores up to the default cap, at least one", () => {
  assert.equal(threadCount(3), 3);
  assert.equal(threadCount(0), 1);
  assert.equal(threadCount(-2), 1);
  assert.equal(threadCount(undefined), Math.max(1, Math.min(cores, MAX_DEFAULT_WORKERS)));
});

Deno.test("workersFor: the request, else one per share of the work, within the cores and the cap", () => {
  assert.equal(workersFor(12, 0, 1), 12);
  assert.equal(workersFor(undefined, 0, 1_000), 1);
  assert.equal(workersFor(undefined, 999, 1_000), 1);
  // Below four cores a thread takes twice the bytes (its start-up takes a core the parse needs).
  const share = cores < 4 ? 2_000 : 1_000;
  for (const shares of [1, 2, 3, 5, 8, 16, 64]) {
    assert.equal(
      workersFor(undefined, shares * share, 1_000),
      Math.max(1, Math.min(shares, cores, MAX_DEFAULT_WORKERS)),
    );
  }
  if (cores < 4) assert.equal(workersFor(undefined, 3_800, 1_000), 1, "this repository's 3.8 MB");
});
