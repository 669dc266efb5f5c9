/**
 * `--undo <execution_id>`: put back the exact prior bytes of a committed operation, provided
 * its files still hold what it wrote. The undo is itself a journaled transaction, so it is
 * all-or-nothing and can be undone in turn.
 *
 * @module
 */
import { join } from "../path_syntax.ts";
import { sha256Async } from "../../schema/checksum.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type { JournalManifest, UndoResult } from "../../schema/journal.ts";
import { commitChanges, type CommitReport } from "./commit.ts";
import { isJournalFile } from "./confine.ts";
import { checksumOf, contentsAt } from "./fs.ts";
import { openJournal, writeManifest } from "./journal.ts";
import {
  compareText,
  type FileChange,
  type TransactionCodes,
  type TransactionOptions,
} from "./types.ts";

/** What undoing an operation changes. */
export interface UndoPlan {
  /** The manifest of the operation to undo. */
  manifest: JournalManifest;
  /** Its journal directory. */
  dir: string;
  /** The changes that revert it: from what it wrote back to what was there. */
  changes: FileChange[];
}

/**
 * The files of an undo's result: each path with its checksum before the undo and after it
 * (`null` where the file is absent), by path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { undoneFiles } from "./undo.ts";
 * const [file] = undoneFiles([
 *   { file_path: "a.txt", path: "/r/a.txt", before: new Uint8Array(), after: null },
 * ]);
 * assert.equal(file.final_checksum, null);
 * ```
 */
export function undoneFiles(changes: readonly FileChange[]): UndoResult["files"] {
  return changes.map((change) => ({
    file_path: change.file_path,
    checksum_before: change.before ? checksumOf(change.before) : null,
    final_checksum: change.after ? checksumOf(change.after) : null,
  })).sort((a, b) => compareText(a.file_path, b.file_path));
}

const STATE_REASONS: Record<string, string> = {
  prepared: "was interrupted before it changed anything; run --recover to clean it up",
  committing: "was interrupted midway; run --recover to roll it back",
  rolled_back: "was rolled back, so there is nothing to undo",
};

/**
 * Checks that operation `id` can be undone and returns the changes that would undo it.
 * Throws `noJournal` for an unknown id, `journalUnusable` for an operation that is not
 * committed (or whose backups are damaged), `undoConflict` when a file no longer holds the
 * bytes the operation wrote, and `outsideRoot` or `unsafeState` when its journal names a path
 * outside the root or is reached through a link: nothing is read, hashed or written then.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitChanges } from "./commit.ts";
 * import { planUndo } from "./undo.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.writeTextFileSync(`${root}/a.txt`, "old\n");
 * const [before, after] = [new TextEncoder().encode("old\n"), new TextEncoder().encode("new\n")];
 * const edit = crypto.randomUUID();
 * await commitChanges([{ file_path: "a.txt", path: `${root}/a.txt`, before, after }], {
 *   root, executionId: edit, tool: "llm-transform", operationType: "edit", prefix: "LMT", codes,
 * });
 * const plan = await planUndo(root, edit, codes);
 * assert.equal(plan.changes.length, 1); // the files the undo would restore
 * assert.equal(Deno.readTextFileSync(`${root}/a.txt`), "new\n"); // nothing undone yet
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function planUndo(
  root: string,
  id: string,
  codes: TransactionCodes,
): Promise<UndoPlan> {
  const { dir, manifest } = await openJournal(root, id, codes);
  if (manifest.state !== "committed") {
    const reason = manifest.state === "undone"
      ? `was already undone by ${manifest.undone_by ?? "an earlier undo"}`
      : STATE_REASONS[manifest.state];
    throw new ToolError(codes.journalUnusable, `operation ${id} ${reason}`, { file: dir });
  }
  const drifted: string[] = [];
  const changes: FileChange[] = [];
  for (const file of manifest.files) {
    const now = await contentsAt(file.path);
    if (!now) {
      drifted.push(`${file.file_path}: no longer a regular file`);
      continue;
    }
    const { bytes: current, checksum: found } = now;
    if (found !== file.checksum_after) {
      drifted.push(
        `${file.file_path}: the operation wrote ${file.checksum_after ?? "no file"}, found ${
          found ?? "no file"
        }`,
      );
      continue;
    }
    let prior: Uint8Array | null = null;
    if (file.backup) {
      const backup = join(dir, file.backup);
      prior = (await isJournalFile(backup, codes)) ? await Deno.readFile(backup) : null;
      if (prior === null || await sha256Async(prior) !== file.checksum_before) {
        throw new ToolError(
          codes.journalUnusable,
          `the journal's backup of ${file.file_path} is damaged; nothing was undone`,
          { file: join(dir, file.backup) },
        );
      }
    }
    changes.push({ file_path: file.file_path, path: file.path, before: current, after: prior });
  }
  if (drifted.length) {
    throw new ToolError(
      codes.undoConflict,
      `cannot undo ${id}: ${drifted.length} file(s) changed after it; nothing was undone`,
      { file: drifted[0].slice(0, drifted[0].indexOf(": ")), note: drifted.join("\n") },
    );
  }
  return { manifest, dir, changes };
}

/**
 * Undoes operation `undoOf` as a new transaction described by `options` (its own execution id
 * and journal), then marks the undone operation's journal `undone`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commitChanges } from "./commit.ts";
 * import { undoOperation } from "./undo.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.writeTextFileSync(`${root}/a.txt`, "old\n");
 * const [before, after] = [new TextEncoder().encode("old\n"), new TextEncoder().encode("new\n")];
 * const options = { root, tool: "llm-transform", operationType: "edit", prefix: "LMT", codes };
 * const edit = crypto.randomUUID();
 * await commitChanges([{ file_path: "a.txt", path: `${root}/a.txt`, before, after }], {
 *   ...options, executionId: edit,
 * });
 * await undoOperation({ ...options, executionId: crypto.randomUUID(), undoOf: edit });
 * assert.equal(Deno.readTextFileSync(`${root}/a.txt`), "old\n");
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function undoOperation(
  options: TransactionOptions & { undoOf: string },
): Promise<{ plan: UndoPlan; report: CommitReport }> {
  const plan = await planUndo(options.root, options.undoOf, options.codes);
  const report = await commitChanges(plan.changes, options);
  await writeManifest(plan.dir, {
    ...plan.manifest,
    state: "undone",
    undone_by: options.executionId,
    updated_at: new Date().toISOString(),
  }, true);
  return { plan, report };
}
