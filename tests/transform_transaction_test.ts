/**
 * The transaction module (core/transaction) as later mutating tools use it: all-or-nothing
 * writes with real failures injected by real means (a directory where the temporary file goes,
 * an unwritable file or directory, a temporary file removed while the commit lock is held, a
 * file changed by someone else meanwhile), creation and deletion, undo, pruning.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sha256, ToolError } from "../schema/mod.ts";
import {
  commitChanges,
  type FileChange,
  findInterrupted,
  journalBase,
  tempPathFor,
  type TransactionOptions,
  undoOperation,
} from "../core/transaction/mod.ts";
import { transactionCodes } from "../core/transaction/codes.ts";
import { makeTree } from "./helpers.ts";
import {
  exists,
  holdCommitLock,
  journalIds,
  makeUnwritable,
  manifestOf,
  snapshot,
  temporaries,
  until,
} from "./transform_helpers.ts";

const TRANSACTION_CODES = transactionCodes("LMT");

const encoder = new TextEncoder();

function options(root: string, executionId: string = crypto.randomUUID()): TransactionOptions {
  return {
    root,
    executionId,
    tool: "llm-transform",
    operationType: "edit",
    prefix: "LMT",
    codes: TRANSACTION_CODES,
  };
}

/** Changes that replace every file's text by its upper-case version. */
async function upperCase(root: string, names: string[]): Promise<FileChange[]> {
  return await Promise.all(names.map(async (name) => {
    const before = await Deno.readFile(join(root, name));
    const after = encoder.encode(new TextDecoder().decode(before).toUpperCase());
    return { file_path: name, path: join(root, name), before, after };
  }));
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}`);
}

const FILES = { "a.txt": "alpha\n", "sub/b.txt": "beta\n", "sub/c.txt": "gamma\n" };
const NAMES = Object.keys(FILES);

Deno.test("a directory where the last file's temporary file goes fails the write: nothing changes", async () => {
  const root = await makeTree(FILES);
  try {
    const before = await snapshot(root);
    const run = options(root);
    const blocker = tempPathFor(join(root, "sub/c.txt"), run.executionId, 2);
    await Deno.mkdir(blocker);
    await Deno.writeTextFile(join(blocker, "keep"), "not ours");
    const error = await rejectsWith(commitChanges(await upperCase(root, NAMES), run), "LMT-IO-011");
    assert.match(error.message, /cannot write sub\/c\.txt: .*nothing was changed/);
    const after = await snapshot(root);
    assert.equal(after["sub/.llm-tmp." + run.executionId + ".2/keep"], sha256("not ours"));
    delete after["sub/.llm-tmp." + run.executionId + ".2/keep"];
    assert.deepEqual(after, before);
    assert.deepEqual(await temporaries(root), [`sub/.llm-tmp.${run.executionId}.2`]);
    assert.equal((await manifestOf(root, run.executionId)).state, "rolled_back");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an unwritable last file or directory fails the operation before anything is written", async (t) => {
  for (const target of ["sub/c.txt", "sub"]) {
    await t.step(target, async () => {
      const root = await makeTree(FILES);
      const restore = await makeUnwritable(join(root, target));
      try {
        if (!restore) return; // neither chmod nor chattr can stop this user here
        const before = await snapshot(root);
        await rejectsWith(commitChanges(await upperCase(root, NAMES), options(root)), "LMT-IO-011");
        assert.deepEqual(await snapshot(root), before);
        assert.deepEqual(await temporaries(root), []);
      } finally {
        await restore?.();
        await Deno.remove(root, { recursive: true });
      }
    });
  }
});

Deno.test("a file changed by someone else while the commit lock is held: detected, nothing written", async () => {
  const root = await makeTree(FILES);
  try {
    const run = options(root);
    const lock = await holdCommitLock(root);
    const commit = commitChanges(await upperCase(root, NAMES), run);
    const settled = commit.catch((error) => error);
    await until(() => exists(tempPathFor(join(root, "sub/c.txt"), run.executionId, 2)), "temps");
    assert.deepEqual(
      await findInterrupted(root, TRANSACTION_CODES),
      [],
      "a live operation counts as interrupted",
    );
    await Deno.writeTextFile(join(root, "sub/b.txt"), "beta, edited meanwhile\n");
    lock.close();
    const error = await settled;
    assert.ok(error instanceof ToolError && error.code === "LMT-V-009", String(error));
    assert.match(error.details.note!, /^sub\/b\.txt: expected sha256:/);
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "alpha\n");
    assert.equal(await Deno.readTextFile(join(root, "sub/b.txt")), "beta, edited meanwhile\n");
    assert.equal(await Deno.readTextFile(join(root, "sub/c.txt")), "gamma\n");
    assert.deepEqual(await temporaries(root), []);
    assert.equal((await manifestOf(root, run.executionId)).state, "rolled_back");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a rename failing after another landed restores the landed file", async () => {
  const root = await makeTree(FILES);
  try {
    const before = await snapshot(root);
    const run = options(root);
    const lock = await holdCommitLock(root);
    const settled = commitChanges(await upperCase(root, NAMES), run).catch((error) => error);
    const middle = tempPathFor(join(root, "sub/b.txt"), run.executionId, 1);
    await until(() => exists(tempPathFor(join(root, "sub/c.txt"), run.executionId, 2)), "temps");
    await Deno.remove(middle); // e.g. a temp-file cleaner ran; the rename of b.txt will fail
    lock.close();
    const error = await settled;
    assert.ok(error instanceof ToolError && error.code === "LMT-IO-011", String(error));
    assert.match(error.message, /every file was restored/);
    assert.deepEqual(await snapshot(root), before);
    assert.deepEqual(await temporaries(root), []);
    assert.equal((await manifestOf(root, run.executionId)).state, "rolled_back");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("files can be created and deleted in a transaction, and the undo reverses both", async () => {
  const root = await makeTree({ "old.txt": "to delete\n", "keep.txt": "keep\n" });
  try {
    const run = options(root);
    const created = encoder.encode("created\n");
    await commitChanges([
      {
        file_path: "new/dir/made.txt",
        path: join(root, "new/dir/made.txt"),
        before: null,
        after: created,
      },
      {
        file_path: "old.txt",
        path: join(root, "old.txt"),
        before: await Deno.readFile(join(root, "old.txt")),
        after: null,
      },
    ], run);
    assert.equal(await Deno.readTextFile(join(root, "new/dir/made.txt")), "created\n");
    assert.equal(await exists(join(root, "old.txt")), false);
    const undo = { ...options(root), operationType: "undo", undoOf: run.executionId };
    await undoOperation(undo);
    assert.equal(await exists(join(root, "new/dir/made.txt")), false);
    assert.equal(await Deno.readTextFile(join(root, "old.txt")), "to delete\n");
    assert.equal((await manifestOf(root, run.executionId)).state, "undone");
    assert.equal((await manifestOf(root, run.executionId)).undone_by, undo.executionId);

    // Creating a file that appeared meanwhile is a concurrent change, not an overwrite.
    await Deno.writeTextFile(join(root, "race.txt"), "someone else's\n");
    await rejectsWith(
      commitChanges([{
        file_path: "race.txt",
        path: join(root, "race.txt"),
        before: null,
        after: created,
      }], options(root)),
      "LMT-V-009",
    );
    assert.equal(await Deno.readTextFile(join(root, "race.txt")), "someone else's\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a finished journal (committed, undone, rolled back) keeps no lock file", async () => {
  const root = await makeTree(FILES);
  try {
    const lockOf = (id: string) => join(journalBase(root), id, "lock");
    const committed = options(root);
    await commitChanges(await upperCase(root, ["a.txt"]), committed);
    const undo = { ...options(root), operationType: "undo", undoOf: committed.executionId };
    await undoOperation(undo);
    const rolledBack = options(root);
    const changes = await upperCase(root, ["sub/b.txt"]);
    await Deno.writeTextFile(join(root, "sub/b.txt"), "beta, edited meanwhile\n");
    await rejectsWith(commitChanges(changes, rolledBack), "LMT-V-009");
    for (const run of [committed, undo, rolledBack]) {
      assert.equal(await exists(lockOf(run.executionId)), false, run.executionId);
    }
    assert.equal((await manifestOf(root, rolledBack.executionId)).state, "rolled_back");
    assert.deepEqual(await findInterrupted(root, TRANSACTION_CODES), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Commits `count` as the whole of `a.txt`, keeping `keep` journals; returns the execution id. */
async function commitCount(root: string, count: number, keep: number): Promise<string> {
  const before = await Deno.readFile(join(root, "a.txt"));
  const run = { ...options(root), keepJournals: keep };
  const after = encoder.encode(String(count));
  await commitChanges([{ file_path: "a.txt", path: join(root, "a.txt"), before, after }], run);
  return run.executionId;
}

Deno.test("an execution id names one journal only; finished journals are pruned to the newest", async () => {
  const root = await makeTree({ "a.txt": "0" });
  try {
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) ids.push(await commitCount(root, i, 2));
    assert.deepEqual(await journalIds(root), ids.slice(2).sort());
    const reused = options(root, ids[3]);
    await rejectsWith(
      commitChanges([{
        file_path: "a.txt",
        path: join(root, "a.txt"),
        before: encoder.encode("4"),
        after: encoder.encode("5"),
      }], reused),
      "LMT-ARG-002",
    );
    assert.equal(await Deno.readTextFile(join(root, "a.txt")), "4");
    assert.equal(await Deno.readTextFile(join(journalBase(root), ".gitignore")), "*\n");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("finished journals are pruned once they pass the kept count, down to a tenth fewer", async () => {
  const root = await makeTree({ "a.txt": "0" });
  try {
    const ids: string[] = [];
    for (let i = 1; i <= 21; i++) {
      ids.push(await commitCount(root, i, 20));
      if (i === 20) assert.equal((await journalIds(root)).length, 20, "none pruned at the count");
    }
    assert.deepEqual(await journalIds(root), ids.slice(3).sort(), "the newest 18 are kept");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
