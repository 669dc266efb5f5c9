/**
 * The transaction writes its backups and temporary files side by side (so their flushes share
 * disk commits): a failure among them still leaves every file byte-identical, removes every
 * temporary file it wrote (and nothing it did not write), and the helper that runs them waits
 * for every write in flight before anyone cleans up; files are created in order, then flushed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256, ToolError } from "../schema/mod.ts";
import { commitChanges, type FileChange, tempPathFor } from "../core/transaction/mod.ts";
import { eachLimited, NewFileError, writeNewFiles } from "../core/transaction/parallel.ts";
import { transactionCodes } from "../core/transaction/codes.ts";
import { makeTree } from "./helpers.ts";
import { manifestOf, snapshot, temporaries } from "./transform_helpers.ts";

const REFACTOR_TRANSACTION_CODES = transactionCodes("SPL");

const encoder = new TextEncoder();

/** Forty files in four folders. */
const FILES = Object.fromEntries(
  Array.from({ length: 40 }, (_, i) => [`d${i % 4}/f${i}.c`, `int f${i}(void);\n`]),
);

function changesOf(root: string): FileChange[] {
  return Object.entries(FILES).map(([name, text]) => ({
    file_path: name,
    path: join(root, name),
    before: encoder.encode(text),
    after: encoder.encode(text.replace("int", "long")),
  }));
}

function transaction(root: string) {
  return {
    root,
    executionId: crypto.randomUUID(),
    tool: "llm-refactor",
    operationType: "rename",
    prefix: "SPL" as const,
    codes: REFACTOR_TRANSACTION_CODES,
  };
}

Deno.test("a temporary file that cannot be written among forty written side by side: nothing changes, no temporary left", async () => {
  const root = await makeTree(FILES);
  try {
    const before = await snapshot(root);
    const run = transaction(root);
    const blocker = tempPathFor(join(root, "d0/f0.c"), run.executionId, 0);
    await Deno.mkdir(blocker);
    await Deno.writeTextFile(join(blocker, "keep"), "not ours");
    const error = await commitChanges(changesOf(root), run).then(
      () => assert.fail("the commit should fail"),
      (error: unknown) => error,
    );
    assert.ok(error instanceof ToolError, String(error));
    assert.equal(error.code, "SPL-IO-010");
    assert.match(error.message, /cannot write d0\/f0\.c: .*nothing was changed/);
    const after = await snapshot(root);
    const kept = `d0/.llm-tmp.${run.executionId}.0/keep`;
    assert.equal(after[kept], sha256("not ours"));
    delete after[kept];
    assert.deepEqual(after, before);
    assert.deepEqual(await temporaries(root), [`d0/.llm-tmp.${run.executionId}.0`]);
    assert.equal((await manifestOf(root, run.executionId)).state, "rolled_back");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("forty files committed side by side land with their new bytes and their backups", async () => {
  const root = await makeTree(FILES);
  try {
    const run = transaction(root);
    const report = await commitChanges(changesOf(root), run);
    for (const [name, text] of Object.entries(FILES)) {
      assert.equal(await Deno.readTextFile(join(root, name)), text.replace("int", "long"));
    }
    for (const file of report.files) {
      const backup = await Deno.readTextFile(join(report.journal, file.backup!));
      assert.equal(backup, FILES[file.file_path]);
    }
    assert.deepEqual(await temporaries(root), []);
    assert.equal((await manifestOf(root, run.executionId)).state, "committed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("eachLimited keeps to its limit, starts nothing after a failure, waits for what runs, throws the first failure in order", async () => {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const finished: number[] = [];
  const failing = new Set([3, 2]);
  const error = await eachLimited(Array.from({ length: 20 }, (_, i) => i), 4, async (item) => {
    started.push(item);
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, item === 3 ? 1 : 20));
    running--;
    finished.push(item);
    if (failing.has(item)) throw new Error(`item ${item}`);
  }).then(() => undefined, (error: unknown) => error);
  assert.ok(error instanceof Error);
  assert.equal(error.message, "item 2");
  assert.equal(most, 4);
  assert.deepEqual(started, [0, 1, 2, 3]);
  assert.deepEqual([...finished].sort((a, b) => a - b), [0, 1, 2, 3]);
  assert.equal(running, 0);
});

Deno.test("writeNewFiles creates the files in order, flushed, and stops at the first it cannot create", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "f2"));
    const files = Array.from({ length: 5 }, (_, i) => ({
      path: join(dir, `f${i}`),
      bytes: encoder.encode(`file ${i}\n`),
      mode: 0o600,
    }));
    const created: string[] = [];
    const error = await writeNewFiles(files, created).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof NewFileError, String(error));
    assert.equal(error.index, 2);
    assert.deepEqual(created, [files[0].path, files[1].path]);
    assert.equal(await Deno.readTextFile(files[1].path), "file 1\n");
    assert.equal((await Deno.stat(files[1].path)).mode! & 0o777, 0o600);
    assert.equal(await Deno.stat(files[3].path).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
