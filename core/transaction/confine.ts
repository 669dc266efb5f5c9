/**
 * Confinement of every path a transaction touches to its root, including the paths it reads
 * back from disk (journal manifests, backups, the state folder).
 *
 * Deno's `--allow-write=<root>` checks a path by its name only: a symbolic link inside the root
 * that points out of it (`.llm` → `/tmp/elsewhere`, or a crafted manifest naming
 * `/home/me/.bashrc`) would pass it. So the state folder `<root>/.llm/journal` must consist of
 * real directories (checked with `lstat` at every level, created one level at a time), and a
 * manifest is trusted only when every path it names is absolute, normal, inside the root with
 * no symbolic link on the way, its temporary file is the one the transaction itself derives,
 * and its backup is a plain name inside the journal directory.
 *
 * What remains: between a check and the system call that follows it, another process with
 * write access to the root could swap a checked directory for a link (no `openat` in Deno).
 * Each check is repeated right before the write it guards, so the window is a few system
 * calls wide, and it needs an attacker already able to write inside the root.
 *
 * @module
 */
import { dirname, isAbsolute, join, normalize } from "../path_syntax.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import type { JournalManifest } from "../../schema/journal.ts";
import { displayPath, inStateFolder, isInside, realPathOf, STATE_FOLDER } from "../paths.ts";
import { lstatIfPresent } from "./fs.ts";
import type { TransactionCodes } from "./types.ts";

/** The levels of the state folder under a root: `.llm`, then `.llm/journal`. */
const STATE_LEVELS = [".llm", "journal"] as const;

const BACKUP_NAME = /^backup-[0-9]{1,9}$/;

/** `lstat` of `path` (a link is described, not followed), or `null` when nothing is there. */
function lstatSyncIfPresent(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * Whether `path` holds a real directory (`true`), nothing (`false`), or something else, which
 * throws `unsafeCode`: a symbolic link (even to a directory), a file, a FIFO.
 */
function isRealDirectory(path: string, unsafeCode: string): boolean {
  const info = lstatSyncIfPresent(path);
  if (!info) return false;
  if (info.isDirectory && !info.isSymlink) return true;
  throw unsafeState(path, info.isSymlink ? "a symbolic link" : "not a directory", unsafeCode);
}

function unsafeState(path: string, what: string, unsafeCode: string): ToolError {
  return new ToolError(
    unsafeCode,
    `${path} is ${what}; the state folder must be a real directory inside the root, so ` +
      "nothing was written there",
    {
      file: path,
      remediation: `Remove ${path} (the tool recreates it as a directory), then retry.`,
    },
  );
}

/**
 * `<root>/<levels…>` (e.g. `.llm/journal`, `.llm/log`) when every level of it is a real
 * directory; `null` when a level does not exist yet. With `create`, missing levels are made one
 * at a time (never through a link) and the path is returned. Throws `unsafeCode` when a level is
 * a symbolic link or not a directory, whatever it points to. Synchronous, for callers that
 * check right before each write (the execution log's appends).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateFolder } from "./confine.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal(stateFolder(root, [".llm", "log"], "LMS-PERM-020", true), `${root}/.llm/log`);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function stateFolder(
  root: string,
  levels: readonly string[],
  unsafeCode: string,
  create: boolean,
): string | null {
  let path = root;
  for (const level of levels) {
    path = join(path, level);
    if (isRealDirectory(path, unsafeCode)) continue;
    if (!create) return null;
    try {
      Deno.mkdirSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    // Whatever won a race to create it must be a real directory too.
    if (!isRealDirectory(path, unsafeCode)) throw unsafeState(path, "gone", unsafeCode);
  }
  return path;
}

/**
 * `<root>/.llm/journal`, checked and created as {@linkcode stateFolder} does; throws the
 * caller's `unsafeState` code when a level is a symbolic link or not a directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateDirectory } from "./confine.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * const root = await Deno.makeTempDir();
 * assert.equal(await stateDirectory(root, codes, false), null); // not there yet
 * assert.equal(await stateDirectory(root, codes, true), `${root}/.llm/journal`);
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function stateDirectory(
  root: string,
  codes: TransactionCodes,
  create: boolean,
): Promise<string | null> {
  return Promise.resolve(stateFolder(root, STATE_LEVELS, codes.unsafeState, create));
}

/**
 * Throws `unsafeState` unless `dir` is a real directory that resolves to itself: the journal
 * directory of an operation, checked before its backups are read or written.
 */
export async function requireJournalDirectory(
  dir: string,
  codes: TransactionCodes,
): Promise<void> {
  if (!isRealDirectory(dir, codes.unsafeState)) throw unsafeState(dir, "gone", codes.unsafeState);
  const real = await Deno.realPath(dir);
  if (real !== dir) {
    throw unsafeState(dir, `reached through a symbolic link (to ${real})`, codes.unsafeState);
  }
}

/**
 * Whether `path` is a regular file (`true`) or nothing (`false`); anything else — a symbolic
 * link, a FIFO, a directory — throws `unsafeState`, so a journal's own files are never read
 * or opened through a link or a pipe.
 */
export async function isJournalFile(path: string, codes: TransactionCodes): Promise<boolean> {
  const info = await lstatIfPresent(path);
  if (!info) return false;
  if (info.isFile) return true;
  throw unsafeState(
    path,
    info.isSymlink ? "a symbolic link" : "not a regular file",
    codes.unsafeState,
  );
}

/**
 * Throws `code` when `path` (absolute, links resolved) lies in the state folder of `root`: the
 * journals, indexes and logs there are the toolkit's, and a file written there on a caller's
 * behalf could forge a journal that an undo then follows, or break an index. `given` is the
 * path as the caller named it. Every writer meets this rule through the transaction (and,
 * before its gates, through `Workspace.resolveTarget`); the journals themselves are written by
 * the transaction code, which never comes here for them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireOutsideStateFolder } from "./confine.ts";
 * requireOutsideStateFolder("/repo", "/repo/src/a.ts", "LFW-PERM-013", "src/a.ts"); // passes
 * assert.throws(
 *   () => requireOutsideStateFolder("/repo", "/repo/.llm/log/x", "LFW-PERM-013", ".llm/log/x"),
 *   { code: "LFW-PERM-013" },
 * );
 * ```
 */
export function requireOutsideStateFolder(
  root: string,
  path: string,
  code: string,
  given: string,
): void {
  if (!inStateFolder(root, path)) return;
  const shown = displayPath(root, path);
  throw new ToolError(
    code,
    `${given} ${given === shown ? "is" : `leads to ${shown}, which is`} in ${STATE_FOLDER}/, ` +
      "the toolkit's state folder (journals, indexes, logs); no tool writes there on a " +
      "caller's behalf, so nothing was written",
    { file: given },
  );
}

/**
 * Throws `outsideRoot` unless `path` is an absolute, normal path strictly inside `root` whose
 * real path is itself: no `..`, no symbolic link in any component (a transaction records real
 * paths, so a link found now was put there since). A path that does not exist yet is resolved
 * through its nearest existing parent. A path in the state folder `<root>/.llm` throws
 * `stateFolder` ({@linkcode requireOutsideStateFolder}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireInsideRoot } from "./confine.ts";
 * import { transactionCodes } from "./codes.ts";
 * const codes = transactionCodes("LMT");
 * assert.throws(() => requireInsideRoot("/repo", "/etc/passwd", codes), {
 *   code: "LMT-PERM-012",
 * });
 * ```
 */
export function requireInsideRoot(root: string, path: string, codes: TransactionCodes): void {
  const outside = (why: string) =>
    new ToolError(codes.outsideRoot, `${path} ${why}; nothing was touched`, { file: path });
  if (path.includes("\0")) throw outside("contains a NUL byte");
  if (!isAbsolute(path) || normalize(path) !== path) {
    throw outside("is not an absolute, normal path");
  }
  if (path === root || !isInside(root, path)) throw outside(`is outside the root ${root}`);
  const real = realPathOf(path);
  if (real !== path) {
    throw outside(
      isInside(root, real)
        ? `goes through a symbolic link (to ${real})`
        : `leads out of the root ${root} through a symbolic link (to ${real})`,
    );
  }
  requireOutsideStateFolder(root, path, codes.stateFolder, displayPath(root, path));
}

/**
 * Throws unless every path of `manifest` (read from journal directory `dir`) may be touched:
 * its execution id is the directory's name; each file's path is inside the root with no link on
 * the way; its temporary file is the one `tempFor` derives; its backup, if any, is a plain
 * `backup-<n>` name. Codes: `outsideRoot` for paths, `journalUnusable` for names.
 */
export function confineManifest(
  root: string,
  dir: string,
  manifest: JournalManifest,
  codes: TransactionCodes,
  tempFor: (path: string, executionId: string, index: number) => string,
): void {
  const name = dir.slice(dirname(dir).length + 1);
  const damaged = (why: string) =>
    new ToolError(
      codes.journalUnusable,
      `journal ${name} is damaged or crafted: ${why}; nothing was touched`,
      { file: join(dir, "manifest.json") },
    );
  if (manifest.execution_id !== name) {
    throw damaged(`it names execution id ${JSON.stringify(manifest.execution_id)}`);
  }
  for (const [index, file] of manifest.files.entries()) {
    requireInsideRoot(root, file.path, codes);
    if (file.temp !== tempFor(file.path, manifest.execution_id, index)) {
      throw damaged(`file ${index} names the temporary file ${JSON.stringify(file.temp)}`);
    }
    if (file.backup !== undefined && !BACKUP_NAME.test(file.backup)) {
      throw damaged(`file ${index} names the backup ${JSON.stringify(file.backup)}`);
    }
  }
}
