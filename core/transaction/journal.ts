/**
 * The journal of a transaction: `<root>/.llm/journal/<execution_id>/` with `manifest.json`,
 * backups of the prior bytes, a `lock` the live operation holds, and an append-only `progress`
 * log. Also the root's commit lock, which serialises the verify-and-rename step of every
 * operation in one workspace.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { ToolError } from "../../schema/diagnostic.ts";
import {
  type JournalFile,
  type JournalManifest,
  JournalManifestSchema,
  type JournalState,
} from "../../schema/journal.ts";
import { syncDirectory, writeNewFile } from "./fs.ts";
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
 * import { journalBase } from "./journal.ts";
 * journalBase("/repo"); // "/repo/.llm/journal"
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
 * import { isJournalId } from "./journal.ts";
 * isJournalId("../etc"); // false
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
 * import { tempPathFor } from "./journal.ts";
 * tempPathFor("/repo/src/a.ts", "0b7c…", 2); // "/repo/src/.llm-tmp.0b7c….2"
 * ```
 */
export function tempPathFor(path: string, executionId: string, index: number): string {
  return join(dirname(path), `.llm-tmp.${executionId}.${index}`);
}

/** Reads and validates a journal's manifest; throws when it is missing or damaged. */
export async function readManifest(dir: string): Promise<JournalManifest> {
  const text = await Deno.readTextFile(join(dir, MANIFEST));
  return JournalManifestSchema.parse(JSON.parse(text));
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

/** Every journal of a workspace, oldest first (directories without a manifest first of all). */
export async function listJournals(root: string): Promise<JournalEntry[]> {
  const base = journalBase(root);
  const entries: JournalEntry[] = [];
  try {
    for await (const entry of Deno.readDir(base)) {
      if (!entry.isDirectory || !isJournalId(entry.name)) continue;
      entries.push(await loadEntry(join(base, entry.name), entry.name));
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const time = (entry: JournalEntry) => entry.manifest?.created_at ?? "";
  return entries.sort((a, b) => compareText(time(a), time(b)) || compareText(a.id, b.id));
}

async function loadEntry(dir: string, id: string): Promise<JournalEntry> {
  try {
    return { dir, id, manifest: await readManifest(dir) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { dir, id, manifest: null };
    if (error instanceof Deno.errors.NotCapable || !(error instanceof Error)) throw error;
    return { dir, id, manifest: null, damaged: error.message };
  }
}

/**
 * Opens the journal of an earlier operation for `--undo`: the caller's `noJournal` code when
 * there is none, `journalUnusable` when its manifest is damaged or missing.
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
  if (!isJournalId(id)) throw missing();
  try {
    if (!(await Deno.lstat(dir)).isDirectory) throw missing();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw missing();
    throw error;
  }
  const entry = await loadEntry(dir, id);
  if (!entry.manifest) {
    const why = entry.damaged ? `a damaged manifest (${entry.damaged})` : "no manifest";
    throw new ToolError(codes.journalUnusable, `journal ${id} has ${why}`, { file: dir });
  }
  return { ...entry, manifest: entry.manifest };
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
export async function lockRoot(root: string): Promise<Deno.FsFile> {
  const base = journalBase(root);
  await Deno.mkdir(base, { recursive: true });
  const file = await Deno.open(join(base, ".lock"), { write: true, create: true });
  try {
    await file.lock(true);
  } catch (error) {
    file.close();
    throw error;
  }
  return file;
}

/**
 * Whether a live process holds the journal's lock. A journal without a lock file has no
 * holder. Returns the lock, held, when it was free: the caller closes it.
 */
export async function tryLockJournal(dir: string): Promise<Deno.FsFile | "held" | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(join(dir, LOCK), { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (await file.tryLock(true)) return file;
  file.close();
  return "held";
}

/** Removes finished journals beyond the newest `keep` ones. */
export async function pruneJournals(root: string, keep: number): Promise<void> {
  const finished = (await listJournals(root)).filter((entry) =>
    entry.manifest && FINAL_STATES.has(entry.manifest.state)
  );
  for (const entry of finished.slice(0, Math.max(0, finished.length - keep))) {
    await Deno.remove(entry.dir, { recursive: true });
  }
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
      await Deno.mkdir(base, { recursive: true });
      await writeGitignore(base);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
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
      for (const file of files) {
        const bytes = file.backup ? backups.get(file.backup) : undefined;
        if (file.backup && bytes) await writeNewFile(join(dir, file.backup), bytes, 0o600);
      }
      await syncDirectory(dir);
      return new Journal(dir, manifest, lock);
    } catch (error) {
      lock?.close();
      await Deno.remove(dir, { recursive: true });
      if (error instanceof Deno.errors.NotCapable) throw error;
      throw failed(error);
    }
  }

  /** Records a new state (durably for `committing`, see {@linkcode writeManifest}). */
  async setState(state: JournalState): Promise<void> {
    this.manifest = { ...this.manifest, state, updated_at: new Date().toISOString() };
    await writeManifest(this.dir, this.manifest, state === "committing");
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
