/** Worker availability and thread counts, shared by search, ast-search and the MCP server. */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { packageDirectory, threadCount, workersAvailable } from "./workers.ts";

Deno.test("packageDirectory: the folder that holds core/", () => {
  const here = fileURLToPath(new URL("./", import.meta.url));
  assert.equal(`${packageDirectory()}core/`, here);
  assert.ok(Deno.statSync(`${packageDirectory()}deno.json`).isFile);
});

Deno.test("workersAvailable: follows read permission for the package", async () => {
  const state = (await Deno.permissions.query({ name: "read", path: packageDirectory() })).state;
  assert.equal(workersAvailable(), state === "granted");
});

Deno.test("threadCount: the request, else the cores, at least one", () => {
  assert.equal(threadCount(3), 3);
  assert.equal(threadCount(0), 1);
  assert.equal(threadCount(-2), 1);
  assert.equal(threadCount(undefined), Math.max(1, navigator.hardwareConcurrency ?? 1));
});
