/**
 * The journal of a transaction: `<root>/.llm/journal/<execution_id>/` with `manifest.json`,
 * backups of the prior bytes, a `lock` the live operation holds, and an append-only `progress`
 * log. Also the commit locks: the root's, which serialises the operations of one workspace, and
 * one per directory of the files written, keyed by the directory itself (not by how the root
 * was spelled), which serialises the verify-and-rename step of every operation touching a file,
 * whatever `--root` each was given.
 *
 * Every path here lies in the state folder, which {@linkcode stateDirectory} proves to be real
 * directories inside the root before anything is read or written there.
 *
 * @module
 */
import { dirname, join } from "../path_syntax.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type { JournalFile, JournalManifest, JournalState } from "../../schema/journal.ts";
import {
  confineManifest,
  isJournalFile,
  requireJournalDirectory,
  stateDirectory,
} from "./confine.ts";
import { lstatIfPresent, removeFileIfPresent, syncDirectory, writeNewFile } from "./fs.ts";
import { NewFileError, writeNewFiles } from "./parallel.ts";
import { compareText, type TransactionCodes, type TransactionOptions } from "./types.ts";

const ID_PATTERN = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;
const MANIFEST = "manifest.json";
const PROGRESS = "progress";
const LOCK = "lock";

/** States after which an operation needs no recovery. */
export const FINAL_STATES: ReadonlySet<JournalState> = new Set([
  "committed",
  "rolled_back",
  "undone",
]);

/**
 * The directory holding every journal of a workspace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { journalBase } from "./journal.ts";
 * assert.equal(journalBase("/repo"), "/repo/.llm/journal");
 * ```
 */
export function journalBase(root: string): string {
  return join(root, ".llm", "journal");
}

/**
 * Whether `id` can name a journal directory (no separators, no dots: it cannot escape).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isJournalId } from "./journal.ts";
 * assert.equal(isJournalId("../etc"), false);
 * assert.equal(isJournalId(crypto.randomUUID()), true);
 * ```
 */
export function isJournalId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/**
 * The temporary file a transaction writes next to `path` before renaming it into place. The
 * name is derived from the execution id and the file's position so that recovery finds it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tempPathFor } from "./journal.ts";
 * assert.equal(tempPathFor("/repo/src/a.ts", "0b7c", 2), "/repo/src/.llm-tmp.0b7c.2");
 * ```
 */
export function tempPathFor(path: string, executionId: string, index: number): string {
  return join(dirname(path), `.llm-tmp.${executionId}.${index}`);
}

/** Why a manifest's text cannot be used; it never quotes the text. */
class DamagedManifest extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "DamagedManifest";
  }
}

/**
 * Reads and validates a journal's manifest: `null` when there is none; throws
 * {@linkcode DamagedManifest} when it is not JSON or not a manifest, and `unsafeState` when it
 * is a link or not a regular file.
 */
async function readManifest(
  dir: string,
  codes: TransactionCodes,
): Promise<JournalManifest | null> {
  const path = join(dir, MANIFEST);
  if (!(await isJournalFile(path, codes))) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new DamagedManifest(`${MANIFEST} is not valid JSON`);
  }
  // The schema (zod) is loaded on first use: an edit reads no manifest unless a journal still
  // holds its lock (see findInterrupted), and loading zod costs a command more than its edit.
  const { JournalManifestSchema } = await import("../../schema/journal.ts");
  const parsed = JournalManifestSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new DamagedManifest(
    `${MANIFEST} does not match the journal schema at ${issue.path.join(".") || "the top"}: ` +
      issue.message,
  );
}

/**
 * Replaces a journal's manifest atomically; `durable` also flushes it to disk. Only the switch
 * to `committing` must be durable (it has to survive a power cut before the first rename): a
 * lost `prepared` or final state is re-derived by recovery from the files themselves.
 */
export async function writeManifest(
  dir: string,
  manifest: JournalManifest,
  durable: boolean,
): Promise<void> {
  const temp = join(dir, `${MANIFEST}.tmp`);
  await Deno.remove(temp).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  const text = JSON.stringify(manifest, null, 2) + "\n";
  await writeNewFile(temp, new TextEncoder().encode(text), undefined, durable);
  await Deno.rename(temp, join(dir, MANIFEST));
  if (durable) await syncDirectory(dir);
}

/** A journal directory found on disk. */
export interface JournalEntry {
  /** Absolute journal directory. */
  dir: string;
  /** Its name, the execution id. */
  id: string;
  /** The manifest; `null` when the operation died before writing one, or it is damaged. */
  manifest: JournalManifest | null;
  /** Why the manifest could not be read, when it exists but is damaged. */
  damaged?: string;
}

/**
 * Every journal of a workspace, oldest first (directories without a manifest first of all).
 * With `lockedOnly`, only the journals that still have a lock file (see
 * {@linkcode Journal.setState}): the candidates for recovery, found without reading the
 * manifests of finished operations. Throws `unsafeState` when the state folder, a journal
 * directory or a manifest is a link.
 */
export async function listJournals(
  root: string,
  codes: TransactionCodes,
  { lockedOnly = false }: { lockedOnly?: boolean } = {},
): Promise<JournalEntry[]> {
  const base = await stateDirectory(root, codes, false);
  if (base === null) return [];
  const entries: JournalEntry[] = [];
  for await (const entry of Deno.readDir(base)) {
    if (!isJournalId(entry.name)) continue;
    const dir = join(base, entry.name);
    if (entry.isSymlink) await requireJournalDirectory(dir, codes);
    if (!entry.isDirectory) continue;
    if (lockedOnly && !(await lstatIfPresent(join(dir, LOCK)))) continue;
    entries.push(await loadEntry(dir, entry.name, codes));
  }
  const time = (entry: JournalEntry) => entry.manifest?.created_at ?? "";
  return entries.sort((a, b) => compareText(time(a), time(b)) || compareText(a.id, b.id));
}

async function loadEntry(
  dir: string,
  id: string,
  codes: TransactionCodes,
): Promise<JournalEntry> {
  try {
    return { dir, id, manifest: await readManifest(dir, codes) };
  } catch (error) {
    if (!(error instanceof DamagedManifest)) throw error;
    return { dir, id, manifest: null, damaged: error.message };
  }
}

/**
 * Opens the journal of an earlier operation for `--undo`: the caller's `noJournal` code when
 * there is none, `journalUnusable` when its manifest is damaged or missing, `unsafeState` when
 * the journal is reached through a link, and `outsideRoot` when its manifest names a path
 * outside the root (see {@linkcode confineManifest}).
 */
export async function openJournal(
  root: string,
  id: string,
  codes: TransactionCodes,
): Promise<JournalEntry & { manifest: JournalManifest }> {
  const dir = join(journalBase(root), id);
  const missing = () =>
    new ToolError(codes.noJournal, `no journal for execution id '${id}' in ${journalBase(root)}`, {
      file: dir,
    });
  if (!isJournalId(id) || (await stateDirectory(root, codes, false)) === null) throw missing();
  try {
    await Deno.lstat(dir);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw missing();
    throw error;
  }
  await requireJournalDirectory(dir, codes);
  const entry = await loadEntry(dir, id, codes);
  if (!entry.manifest) {
    const why = entry.damaged ? `a damaged manifest (${entry.damaged})` : "no manifest";
    throw new ToolError(codes.journalUnusable, `journal ${id} has ${why}`, { file: dir });
  }
  const opened = { ...entry, manifest: entry.manifest };
  await confineJournal(root, opened, codes);
  return opened;
}

/**
 * Throws unless journal `entry` may be acted on: its directory is real, its manifest names
 * only paths inside the root (see {@linkcode confineManifest}), and its lock and backups are
 * regular files, not links. Run before anything its manifest names is read or hashed.
 */
export async function confineJournal(
  root: string,
  entry: JournalEntry & { manifest: JournalManifest },
  codes: TransactionCodes,
): Promise<void> {
  await requireJournalDirectory(entry.dir, codes);
  confineManifest(root, entry.dir, entry.manifest, codes, tempPathFor);
  await isJournalFile(join(entry.dir, LOCK), codes);
  for (const file of entry.manifest.files) {
    if (file.backup) await isJournalFile(join(entry.dir, file.backup), codes);
  }
}

/**
 * The indexes of the files the progress log records as put in place. The log is an audit
 * trail: a missing log, or anything but a regular file at its path, yields an empty set.
 */
export async function readProgress(dir: string): Promise<Set<number>> {
  const path = join(dir, PROGRESS);
  try {
    if (!(await Deno.lstat(path)).isFile) return new Set();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Set();
    throw error;
  }
  const done = new Set<number>();
  for (const line of (await Deno.readTextFile(path)).split("\n")) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as { index?: unknown };
      if (typeof record.index === "number") done.add(record.index);
    } catch {
      // A line torn by a crash mid-write carries no record; the ones before it still count.
    }
  }
  return done;
}

/**
 * Takes the workspace's commit lock, waiting for any other operation of the same root to
 * finish its verify-and-rename step. Closing the returned file releases it; so does the
 * death of the process.
 */
export async function lockRoot(root: string, codes: TransactionCodes): Promise<Deno.FsFile> {
  const base = (await stateDirectory(root, codes, true))!;
  const path = join(base, ".lock");
  await isJournalFile(path, codes);
  return await lockedFile(path, { write: true, create: true });
}

async function lockedFile(path: string, options: Deno.OpenOptions): Promise<Deno.FsFile> {
  const file = await Deno.open(path, options);
  try {
    await file.lock(true);
  } catch (error) {
    file.close();
    throw error;
  }
  return file;
}

/**
 * Takes the commit lock of every directory in `dirs` (absolute real paths), in sorted order so
 * that two operations never wait on each other. The lock is the directory itself, so two runs
 * reaching the same file through different roots (`/x` and `/x/sub`, or a linked root) wait
 * for each other. A directory that does not exist is skipped (nothing in it to protect). The
 * returned function releases them. On Windows, where a directory cannot be opened, only the
 * root's lock applies.
 */
export async function lockDirectories(dirs: Iterable<string>): Promise<() => void> {
  const held: Deno.FsFile[] = [];
  const release = () => held.splice(0).forEach((file) => file.close());
  if (Deno.build.os === "windows") return release;
  try {
    for (const dir of [...new Set(dirs)].sort(compareText)) {
      try {
        held.push(await lockedFile(dir, { read: true }));
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
  } catch (error) {
    release();
    throw error;
  }
  return release;
}

/**
 * Whether a live process holds the journal's lock. A journal without a lock file has no
 * holder. Returns the lock, held, when it was free: the caller closes it.
 */
export async function tryLockJournal(
  dir: string,
  codes: TransactionCodes,
): Promise<Deno.FsFile | "held" | null> {
  const path = join(dir, LOCK);
  if (!(await isJournalFile(path, codes))) return null;
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (await file.tryLock(true)) return file;
  file.close();
  return "held";
}

/**
 * Removes finished journals beyond the newest `keep` ones, once there are more than `keep`
 * journals; then it keeps a tenth fewer, so that the manifests (which ordering them needs) are
 * read once in every `keep / 10` operations instead of by every operation.
 */
export async function pruneJournals(
  root: string,
  keep: number,
  codes: TransactionCodes,
): Promise<void> {
  if (await countJournals(root, codes) <= keep) return;
  const finished = (await listJournals(root, codes)).filter((entry) =>
    entry.manifest && FINAL_STATES.has(entry.manifest.state)
  );
  const kept = keep - Math.floor(keep / 10);
  for (const entry of finished.slice(0, Math.max(0, finished.length - kept))) {
    await Deno.remove(entry.dir, { recursive: true });
  }
}

/** How many journal directories the workspace holds (names only: no manifest is read). */
async function countJournals(root: string, codes: TransactionCodes): Promise<number> {
  const base = await stateDirectory(root, codes, false);
  if (base === null) return 0;
  let count = 0;
  for await (const entry of Deno.readDir(base)) {
    if (isJournalId(entry.name) && (entry.isDirectory || entry.isSymlink)) count++;
  }
  return count;
}

/** The journal of an operation in progress, held locked until {@linkcode Journal.release}. */
export class Journal {
  /** Absolute journal directory. */
  readonly dir: string;
  /** The manifest as last written. */
  manifest: JournalManifest;
  #lock: Deno.FsFile;

  private constructor(dir: string, manifest: JournalManifest, lock: Deno.FsFile) {
    this.dir = dir;
    this.manifest = manifest;
    this.#lock = lock;
  }

  /**
   * Creates the journal of a new operation in state `prepared`: its directory, its lock (held),
   * the manifest, and a backup of every prior file. Throws `idInUse` when the execution id
   * already has a journal, `writeFailed` when the journal cannot be written.
   */
  static async create(
    options: TransactionOptions,
    files: JournalFile[],
    backups: ReadonlyMap<string, Uint8Array>,
  ): Promise<Journal> {
    const base = journalBase(options.root);
    const dir = join(base, options.executionId);
    const failed = (error: unknown) =>
      new ToolError(
        options.codes.writeFailed,
        `cannot write the journal in ${base}: ${error instanceof Error ? error.message : error}`,
        { file: base },
      );
    try {
      await stateDirectory(options.root, options.codes, true);
      await writeGitignore(base);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable || error instanceof ToolError) throw error;
      throw failed(error);
    }
    try {
      await Deno.mkdir(dir);
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        throw new ToolError(
          options.codes.idInUse,
          `execution id ${options.executionId} already has a journal`,
          { file: dir, remediation: "Leave execution_id out of the plan, or give a fresh UUID." },
        );
      }
      if (error instanceof Deno.errors.NotCapable) throw error;
      throw failed(error);
    }
    // Re-checked now that the directory exists: the backups go nowhere but inside the root.
    await requireJournalDirectory(dir, options.codes);
    let lock: Deno.FsFile | undefined;
    try {
      lock = await Deno.open(join(dir, LOCK), { write: true, createNew: true });
      await lock.lock(true);
      const now = new Date().toISOString();
      const manifest: JournalManifest = {
        format: 1,
        execution_id: options.executionId,
        tool: options.tool,
        operation_type: options.operationType,
        root: options.root,
        created_at: now,
        updated_at: now,
        state: "prepared",
        files,
      };
      if (options.undoOf) manifest.undo_of = options.undoOf;
      await writeManifest(dir, manifest, false);
      await requireJournalDirectory(dir, options.codes);
      const backupFiles = files.flatMap((file) => {
        const bytes = file.backup ? backups.get(file.backup) : undefined;
        return file.backup && bytes ? [{ path: join(dir, file.backup), bytes, mode: 0o600 }] : [];
      });
      // A failure removes the whole journal directory: the paths created need no list.
      await writeNewFiles(backupFiles, []).catch((error) =>
        Promise.reject(error instanceof NewFileError ? error.cause : error)
      );
      await syncDirectory(dir);
      return new Journal(dir, manifest, lock);
    } catch (error) {
      lock?.close();
      // A journal found reached through a link is not ours to remove; recovery clears it.
      if (error instanceof ToolError) throw error;
      await Deno.remove(dir, { recursive: true });
      if (error instanceof Deno.errors.NotCapable) throw error;
      throw failed(error);
    }
  }

  /**
   * Records a new state (durably for `committing`, see {@linkcode writeManifest}). A final state
   * also removes the lock file (the lock stays held until {@linkcode Journal.release}): a journal
   * with no lock file has nothing to recover, so looking for interrupted operations reads only
   * the manifests of journals that still have one.
   */
  async setState(state: JournalState): Promise<void> {
    this.manifest = { ...this.manifest, state, updated_at: new Date().toISOString() };
    await writeManifest(this.dir, this.manifest, state === "committing");
    if (FINAL_STATES.has(state)) await removeFileIfPresent(join(this.dir, LOCK));
  }

  /** Appends one line to the progress log: file `index` was put in place. */
  async logProgress(index: number, event: string): Promise<void> {
    const file = await Deno.open(join(this.dir, PROGRESS), { append: true, create: true });
    try {
      const line = JSON.stringify({
        index,
        file_path: this.manifest.files[index].file_path,
        event,
        at: new Date().toISOString(),
      });
      await file.write(new TextEncoder().encode(line + "\n"));
    } finally {
      file.close();
    }
  }

  /** Releases the journal's lock. */
  release(): void {
    this.#lock.close();
  }
}

/**
 * Keeps journals out of version control: `.llm/journal/.gitignore` ignores everything in it.
 */
async function writeGitignore(base: string): Promise<void> {
  try {
    await writeNewFile(join(base, ".gitignore"), new TextEncoder().encode("*\n"));
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}
