/**
 * Recovery of operations that were killed midway: `--recover` finishes an operation whose
 * every file already landed, and rolls back any other, from the journal's backups.
 *
 * @module
 */
import type {
  JournalManifest,
  RecoveredFile,
  RecoveredJournal,
  RecoverResult,
} from "../../schema/journal.ts";
import { dirname } from "../path_syntax.ts";
import { contentsAt, removeFileIfPresent } from "./fs.ts";
import {
  confineJournal,
  FINAL_STATES,
  type JournalEntry,
  listJournals,
  lockDirectories,
  lockRoot,
  readProgress,
  tryLockJournal,
  writeManifest,
} from "./journal.ts";
import { restoreFile } from "./restore.ts";
import { compareText, type TransactionCodes } from "./types.ts";

/** A journal that recovery could not read. */
export interface DamagedJournal {
  /** Its execution id. */
  execution_id: string;
  /** Absolute journal directory. */
  dir: string;
  /** Why its manifest could not be used. */
  reason: string;
}

/** What {@linkcode recoverJournals} found and did. */
export interface RecoveryReport {
  /** The result to report. */
  result: RecoverResult;
  /** Journals skipped because their manifest is damaged. */
  damaged: DamagedJournal[];
}

/**
 * Finds every interrupted operation of the workspace and, newest first, rolls it back (or
 * finishes it when all its files already hold their new bytes). A file that holds neither the
 * prior nor the new bytes was changed by someone else: it is left alone, reported as a
 * `conflict`, and the journal is kept. An operation whose process is still alive is skipped.
 * With `dryRun`, nothing is changed and the report says what would be done.
 *
 * Before anything is read, hashed or changed, every interrupted journal is checked (see
 * `confineJournal`): one that names a path outside the root, or is reached through a
 * link, refuses the whole run with the caller's `outsideRoot`, `journalUnusable` or
 * `unsafeState` code, so a crafted manifest can neither change nor probe an outside file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recoverJournals } from "./recover.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = Deno.makeTempDirSync();
 * const report = await recoverJournals(root, { dryRun: true, codes });
 * assert.equal(report.result.count, 0); // no interrupted operation
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function recoverJournals(
  root: string,
  options: { dryRun: boolean; codes: TransactionCodes },
): Promise<RecoveryReport> {
  const { codes } = options;
  const rootLock = options.dryRun ? undefined : await lockRoot(root, codes);
  try {
    const journals: RecoveredJournal[] = [];
    const damaged: DamagedJournal[] = [];
    const entries = (await listJournals(root, codes)).reverse();
    for (const entry of entries) {
      if (!entry.manifest || FINAL_STATES.has(entry.manifest.state)) continue;
      await confineJournal(root, { ...entry, manifest: entry.manifest }, codes);
    }
    for (const entry of entries) {
      if (entry.damaged !== undefined) {
        damaged.push({ execution_id: entry.id, dir: entry.dir, reason: entry.damaged });
      } else if (!entry.manifest) {
        if (!options.dryRun) await removeOrphan(entry, codes);
      } else if (!FINAL_STATES.has(entry.manifest.state)) {
        journals.push(await recoverOne(entry, entry.manifest, options));
      }
    }
    return { result: { dry_run: options.dryRun, count: journals.length, journals }, damaged };
  } finally {
    rootLock?.close();
  }
}

/**
 * The interrupted operations of a workspace, without touching anything: those whose journal
 * is not final and whose process is gone. Cheap enough to run before every operation: only the
 * journals that still have a lock file are read (a final state removes it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findInterrupted } from "./recover.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = Deno.makeTempDirSync();
 * assert.deepEqual(await findInterrupted(root, codes), []); // a healthy workspace
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export async function findInterrupted(
  root: string,
  codes: TransactionCodes,
): Promise<JournalManifest[]> {
  const found: JournalManifest[] = [];
  for (const entry of await listJournals(root, codes, { lockedOnly: true })) {
    if (!entry.manifest || FINAL_STATES.has(entry.manifest.state)) continue;
    const lock = await tryLockJournal(entry.dir, codes);
    if (lock === "held") continue;
    lock?.close();
    found.push(entry.manifest);
  }
  return found;
}

/** A journal directory without a manifest: the operation died before touching any file. */
async function removeOrphan(entry: JournalEntry, codes: TransactionCodes): Promise<void> {
  const lock = await tryLockJournal(entry.dir, codes);
  if (lock === "held") return;
  lock?.close();
  await Deno.remove(entry.dir, { recursive: true });
}

type Found = "before" | "after" | "neither";

async function recoverOne(
  entry: JournalEntry,
  manifest: JournalManifest,
  options: { dryRun: boolean; codes: TransactionCodes },
): Promise<RecoveredJournal> {
  const { dryRun, codes } = options;
  const head = {
    execution_id: manifest.execution_id,
    tool: manifest.tool,
    operation_type: manifest.operation_type,
    state_found: manifest.state,
  };
  const lock = await tryLockJournal(entry.dir, codes);
  if (lock === "held") return { ...head, outcome: "in_progress", files: [] };
  const releaseDirectories = dryRun
    ? undefined
    : await lockDirectories(manifest.files.map((file) => dirname(file.path)));
  try {
    const renamed = await readProgress(entry.dir);
    const states: { found: Found; checksum: string | null }[] = [];
    for (const file of manifest.files) {
      const now = await contentsAt(file.path);
      if (!now) {
        states.push({ found: "neither", checksum: null });
        continue;
      }
      const checksum = now.checksum;
      const found: Found = checksum === file.checksum_before
        ? "before"
        : checksum === file.checksum_after
        ? "after"
        : "neither";
      states.push({ found, checksum });
    }
    // Originals are only touched once the journal says `committing`.
    const touched = manifest.state === "committing";
    const finished = touched && states.every((state) => state.found === "after");
    const files: RecoveredFile[] = [];
    for (const [index, file] of manifest.files.entries()) {
      const { found, checksum } = states[index];
      const action = !touched
        ? "unchanged"
        : finished
        ? "kept"
        : found === "after"
        ? "restored"
        : found === "before"
        ? "unchanged"
        : "conflict";
      if (!dryRun && action === "restored") await restoreFile(entry.dir, file, codes);
      const tempRemoved = dryRun
        ? await isRegularFile(file.temp)
        : await removeFileIfPresent(file.temp);
      if (!dryRun) await removeFileIfPresent(`${file.temp}.restore`);
      files.push({
        file_path: file.file_path,
        action,
        renamed: renamed.has(index),
        checksum_found: checksum,
        temp_removed: tempRemoved,
      });
    }
    const conflicted = files.some((file) => file.action === "conflict");
    const outcome = finished ? "finished" : conflicted ? "conflicted" : "rolled_back";
    if (!dryRun && outcome !== "conflicted") {
      await writeManifest(entry.dir, {
        ...manifest,
        state: outcome === "finished" ? "committed" : "rolled_back",
        updated_at: new Date().toISOString(),
      }, false);
    }
    files.sort((a, b) => compareText(a.file_path, b.file_path));
    return { ...head, outcome, files };
  } finally {
    releaseDirectories?.();
    lock?.close();
  }
}

async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await Deno.lstat(path)).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
