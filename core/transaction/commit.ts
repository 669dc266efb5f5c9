/**
 * The all-or-nothing multi-file write every mutating tool uses.
 *
 * 1. Journal: back up every prior file under `<root>/.llm/journal/<execution_id>/`.
 * 2. Write each new file to a temporary file in its own directory, flushed to disk, with the
 *    prior file's mode (the files side by side, so their flushes share disk commits).
 * 3. Take the workspace's commit lock, then the lock of every directory written (keyed by the
 *    directory itself, so runs given different `--root` spellings of the same files exclude
 *    each other), and re-check that every original still holds the bytes the caller verified
 *    and still lies inside the root with no link on the way; if not, remove the temporary
 *    files: nothing was written.
 * 4. Rename each temporary file over its original, logging each step. If a rename fails,
 *    restore every file already renamed from the backups, so the operation lands in every file
 *    or in none. A process killed midway leaves a journal that `recoverJournals` rolls back.
 *
 * @module
 */
import { dirname } from "../path_syntax.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type { JournalFile } from "../../schema/journal.ts";
import { isPermissionRefusal, requirePermission } from "../permissions.ts";
import { checksumOfAsync, contentsAt, fileMode, removeFileIfPresent, syncDirectory } from "./fs.ts";
import { requireInsideRoot } from "./confine.ts";
import {
  Journal,
  journalBase,
  lockDirectories,
  lockRoot,
  pruneJournals,
  tempPathFor,
} from "./journal.ts";
import { eachLimited, NewFileError, PARALLEL_WRITES, writeNewFiles } from "./parallel.ts";
import { restoreFile } from "./restore.ts";
import type { FileChange, TransactionOptions } from "./types.ts";

/** What a committed transaction wrote. */
export interface CommitReport {
  /** Execution id of the operation (its journal's name). */
  execution_id: string;
  /** Absolute journal directory, kept for `--undo`. */
  journal: string;
  /** The files as journaled, in the order they were renamed. */
  files: JournalFile[];
}

const DEFAULT_KEEP = 100;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes every change or none. Throws the caller's `concurrentChange` code when a file no
 * longer holds its verified bytes (nothing written), `writeFailed` when a file or the journal
 * cannot be written (every file left or put back as it was), `outsideRoot` when a path is not
 * inside the root with no link on the way, `unsafeState` when the state folder is a link, and
 * `*-PERM-*` when the run lacks write permission for a path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitChanges } from "./commit.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = Deno.realPathSync(await Deno.makeTempDir());
 * await Deno.writeTextFile(`${root}/a.txt`, "old\n");
 * const report = await commitChanges([{
 *   file_path: "a.txt", path: `${root}/a.txt`,
 *   before: new TextEncoder().encode("old\n"), after: new TextEncoder().encode("new\n"),
 * }], {
 *   root, executionId: crypto.randomUUID(), tool: "llm-transform", operationType: "edit",
 *   prefix: "LMT", codes,
 * });
 * assert.equal(await Deno.readTextFile(`${root}/a.txt`), "new\n");
 * assert.ok(report.journal.startsWith(`${root}/.llm/journal/`)); // kept for an undo
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function commitChanges(
  changes: readonly FileChange[],
  options: TransactionOptions,
): Promise<CommitReport> {
  checkChanges(changes, options);
  const files = await describe(changes, options);
  const journal = await Journal.create(options, files, backupsOf(changes, files));
  try {
    await writeTemporaries(journal, changes, options);
    const unlock = await lockForCommit(journal, options);
    try {
      await commitLocked(journal, changes, files, options);
    } finally {
      unlock();
    }
  } finally {
    journal.release();
  }
  return { execution_id: options.executionId, journal: journal.dir, files };
}

/**
 * Refuses, before anything is written, a commit with no change or a path twice (a caller's
 * error), a path outside the root, and one the run may not write (or whose folder it may not).
 */
function checkChanges(changes: readonly FileChange[], options: TransactionOptions): void {
  if (changes.length === 0) throw new RangeError("commitChanges needs at least one change");
  if (new Set(changes.map((change) => change.path)).size !== changes.length) {
    throw new RangeError("commitChanges got the same path twice");
  }
  requirePermission(options.prefix, "write", journalBase(options.root));
  for (const change of changes) {
    requireInsideRoot(options.root, change.path, options.codes);
    requirePermission(options.prefix, "write", change.path);
    requirePermission(options.prefix, "write", dirname(change.path));
  }
}

/** The journal's backups: the old bytes of each file that existed, by its backup name. */
function backupsOf(
  changes: readonly FileChange[],
  files: readonly JournalFile[],
): Map<string, Uint8Array> {
  const backups = new Map<string, Uint8Array>();
  changes.forEach((change, index) => {
    if (change.before) backups.set(files[index].backup!, change.before);
  });
  return backups;
}

/**
 * Under the commit locks: checks the files again, puts every temporary in place (the journal
 * says `committing` meanwhile, so a crash is recovered), syncs their folders, marks the journal
 * `committed` and prunes the oldest journals.
 */
async function commitLocked(
  journal: Journal,
  changes: readonly FileChange[],
  files: readonly JournalFile[],
  options: TransactionOptions,
): Promise<void> {
  await recheck(journal, changes, options);
  await journal.setState("committing");
  await putInPlace(journal, changes, options);
  const dirs = [...new Set(files.map((file) => dirname(file.path)))];
  await eachLimited(dirs, PARALLEL_WRITES, syncDirectory);
  await journal.setState("committed");
  await pruneJournals(options.root, options.keepJournals ?? DEFAULT_KEEP, options.codes);
}

/**
 * Takes the root's commit lock, then every written directory's; if either cannot be taken (a
 * linked lock file, say), abandons the journal: nothing was written. Returns the release.
 */
async function lockForCommit(
  journal: Journal,
  options: TransactionOptions,
): Promise<() => void> {
  let rootLock: Deno.FsFile | undefined;
  try {
    rootLock = await lockRoot(options.root, options.codes);
    const releaseDirectories = await lockDirectories(
      journal.manifest.files.map((file) => dirname(file.path)),
    );
    const held = rootLock;
    return () => {
      releaseDirectories();
      held.close();
    };
  } catch (error) {
    rootLock?.close();
    await abandon(journal, journal.manifest.files.map((file) => file.temp));
    throw error;
  }
}

/** The journal entries of the changes, with each prior file's mode. */
async function describe(
  changes: readonly FileChange[],
  options: TransactionOptions,
): Promise<JournalFile[]> {
  const files: JournalFile[] = [];
  for (const [index, change] of changes.entries()) {
    const file: JournalFile = {
      file_path: change.file_path,
      path: change.path,
      temp: tempPathFor(change.path, options.executionId, index),
      checksum_before: change.before ? await checksumOfAsync(change.before) : null,
      checksum_after: change.after ? await checksumOfAsync(change.after) : null,
    };
    if (change.before) {
      file.backup = `backup-${index}`;
      try {
        file.mode = await fileMode(change.path);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
        throw new ToolError(
          options.codes.concurrentChange,
          `${change.file_path} vanished after it was verified; nothing was written`,
          { file: change.file_path },
        );
      }
      await probeWritable(change, options);
    }
    files.push(file);
  }
  return files;
}

/**
 * Refuses a file the operating system would not let us write (a read-only file, an immutable
 * one, a read-only file system): renaming over it would bypass that protection.
 */
async function probeWritable(change: FileChange, options: TransactionOptions): Promise<void> {
  try {
    (await Deno.open(change.path, { write: true })).close();
  } catch (error) {
    if (isPermissionRefusal(error)) throw error;
    throw new ToolError(
      options.codes.writeFailed,
      `cannot write ${change.file_path}: ${messageOf(error)}; nothing was changed`,
      { file: change.file_path },
    );
  }
}

/**
 * Writes every temporary file and flushes them side by side (see {@linkcode writeNewFiles}); on
 * failure removes the ones written and abandons the journal.
 */
async function writeTemporaries(
  journal: Journal,
  changes: readonly FileChange[],
  options: TransactionOptions,
): Promise<void> {
  const pending = changes.flatMap((change, index) =>
    change.after ? [{ change, after: change.after, file: journal.manifest.files[index] }] : []
  );
  const written: string[] = [];
  try {
    for (const [index, { change, file }] of pending.entries()) {
      if (change.before) continue;
      await Deno.mkdir(dirname(file.path), { recursive: true })
        .catch((error) => Promise.reject(new NewFileError(index, error)));
    }
    await writeNewFiles(
      pending.map(({ after, file }) => ({ path: file.temp, bytes: after, mode: file.mode })),
      written,
    );
  } catch (error) {
    await abandon(journal, written);
    if (!(error instanceof NewFileError)) throw error;
    if (isPermissionRefusal(error.cause)) throw error.cause;
    const { change, file } = pending[error.index];
    throw new ToolError(
      options.codes.writeFailed,
      `cannot write ${change.file_path}: ${error.message}; nothing was changed`,
      { file: change.file_path, note: `temporary file: ${file.temp}` },
    );
  }
}

/** Removes the temporary files written and marks the journal rolled back. */
async function abandon(journal: Journal, temps: readonly string[]): Promise<void> {
  for (const temp of temps) await removeFileIfPresent(temp);
  await journal.setState("rolled_back");
}

/** Throws `concurrentChange` (after abandoning) unless every original is as verified. */
async function recheck(
  journal: Journal,
  changes: readonly FileChange[],
  options: TransactionOptions,
): Promise<void> {
  const drifted: string[] = [];
  for (const [index, change] of changes.entries()) {
    try {
      requireInsideRoot(options.root, change.path, options.codes);
    } catch (error) {
      await abandon(journal, journal.manifest.files.map((file) => file.temp));
      throw error;
    }
    const expected = journal.manifest.files[index].checksum_before;
    const now = await contentsAt(change.path);
    const found = now ? now.checksum : "not a regular file";
    if (found !== expected) {
      drifted.push(
        `${change.file_path}: expected ${expected ?? "no file"}, found ${found ?? "no file"}`,
      );
    }
  }
  if (drifted.length === 0) return;
  await abandon(journal, journal.manifest.files.map((file) => file.temp));
  throw new ToolError(
    options.codes.concurrentChange,
    `${drifted.length} file(s) changed after they were verified; nothing was written`,
    { file: drifted[0].slice(0, drifted[0].indexOf(": ")), note: drifted.join("\n") },
  );
}

/** Renames, creates or removes each file; on failure restores the ones already done. */
async function putInPlace(
  journal: Journal,
  changes: readonly FileChange[],
  options: TransactionOptions,
): Promise<void> {
  const done: number[] = [];
  for (const [index, change] of changes.entries()) {
    const file = journal.manifest.files[index];
    try {
      if (!change.after) await Deno.remove(file.path);
      else if (change.before) await Deno.rename(file.temp, file.path);
      else await createFrom(file);
      done.push(index);
      await journal.logProgress(index, !change.after ? "removed" : "renamed");
    } catch (error) {
      await rollBack(journal, done, options, change.file_path, error);
    }
  }
}

/** Links the temporary file to a path that must still be free, then drops the temporary name. */
async function createFrom(file: JournalFile): Promise<void> {
  await Deno.link(file.temp, file.path);
  await Deno.remove(file.temp);
}

/** Restores the files in `done` and throws `writeFailed` saying how far the rollback got. */
async function rollBack(
  journal: Journal,
  done: readonly number[],
  options: TransactionOptions,
  failedFile: string,
  cause: unknown,
): Promise<never> {
  const problems: string[] = [];
  for (const index of [...done].reverse()) {
    const file = journal.manifest.files[index];
    try {
      await restoreFile(journal.dir, file, options.codes);
    } catch (error) {
      problems.push(`${file.file_path}: ${messageOf(error)}`);
    }
  }
  for (const file of journal.manifest.files) await removeFileIfPresent(file.temp);
  if (isPermissionRefusal(cause) && problems.length === 0) {
    await journal.setState("rolled_back");
    throw cause;
  }
  if (problems.length === 0) {
    await journal.setState("rolled_back");
    throw new ToolError(
      options.codes.writeFailed,
      `cannot write ${failedFile}: ${messageOf(cause)}; every file was restored`,
      { file: failedFile, note: `restored ${done.length} file(s) already written` },
    );
  }
  throw new ToolError(
    options.codes.writeFailed,
    `cannot write ${failedFile}: ${messageOf(cause)}; the rollback is incomplete, run --recover`,
    { file: failedFile, note: problems.join("\n") },
  );
}
