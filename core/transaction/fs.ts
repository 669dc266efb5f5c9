/**
 * The file-system steps a transaction is made of: reading a file that may be gone, writing a
 * new file durably, syncing a directory, removing a leftover; and checksums of file contents.
 *
 * @module
 */
import { sha256, sha256Async } from "../../schema/checksum.ts";

const checksums = new WeakMap<Uint8Array, string>();

/**
 * `sha256:` of a file's contents, computed once per byte array: the caller that verified a
 * file and the transaction that writes it hash the same bytes without paying twice. The
 * arrays must not be modified after they are hashed (file contents never are).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checksumOf } from "./fs.ts";
 * const bytes = new TextEncoder().encode("");
 * assert.equal(
 *   checksumOf(bytes),
 *   "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * );
 * ```
 */
export function checksumOf(bytes: Uint8Array): string {
  let checksum = checksums.get(bytes);
  if (checksum === undefined) {
    checksum = sha256(bytes);
    checksums.set(bytes, checksum);
  }
  return checksum;
}

/**
 * {@linkcode checksumOf} by Web Crypto, for callers that can wait: a whole file's checksum then
 * loads neither `node:crypto` nor the TypeScript hash, and later {@linkcode checksumOf} calls on
 * the same array are answered from the memo.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checksumOfAsync } from "./fs.ts";
 * assert.equal(
 *   await checksumOfAsync(new TextEncoder().encode("")),
 *   "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * );
 * ```
 */
export async function checksumOfAsync(bytes: Uint8Array): Promise<string> {
  let checksum = checksums.get(bytes);
  if (checksum === undefined) {
    checksum = await sha256Async(bytes);
    checksums.set(bytes, checksum);
  }
  return checksum;
}

/**
 * The bytes of `path`, or `null` when nothing is there. Anything but a regular file (a
 * directory, a FIFO, a socket) throws, so a transaction never blocks on a pipe or reads a
 * directory as a file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readIfExists } from "./fs.ts";
 * assert.equal(await readIfExists("/no/such/file"), null);
 * ```
 */
export async function readIfExists(path: string): Promise<Uint8Array | null> {
  const info = await lstatIfPresent(path);
  if (!info) return null;
  if (!info.isFile) throw new NotRegularFileError(path);
  return await Deno.readFile(path);
}

/**
 * `lstat` of `path` (a link is described, not followed), or `null` when nothing is there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lstatIfPresent } from "./fs.ts";
 * assert.equal(await lstatIfPresent("/no/such/file"), null);
 * ```
 */
export async function lstatIfPresent(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** What a path holds now. */
export interface Contents {
  /** The bytes; `null` when nothing is there. */
  bytes: Uint8Array | null;
  /** Their `sha256:`; `null` when nothing is there. */
  checksum: string | null;
}

/**
 * What `path` holds now, or `undefined` when it is something other than a regular file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentsAt } from "./fs.ts";
 * assert.deepEqual(await contentsAt("/no/such/file"), { bytes: null, checksum: null });
 * ```
 */
export async function contentsAt(path: string): Promise<Contents | undefined> {
  try {
    const bytes = await readIfExists(path);
    return { bytes, checksum: bytes ? await checksumOfAsync(bytes) : null };
  } catch (error) {
    if (error instanceof NotRegularFileError) return undefined;
    throw error;
  }
}

/** Thrown when a path a transaction reads is not a regular file. */
export class NotRegularFileError extends Error {
  /** The path. */
  readonly path: string;

  /** Builds the error for `path`. */
  constructor(path: string) {
    super(`${path} is not a regular file`);
    this.name = "NotRegularFileError";
    this.path = path;
  }
}

/**
 * Writes `bytes` to a file that must not exist yet, flushes it to disk (unless `durable` is
 * false) and, when `mode` is given, sets exactly those permission bits (the umask does not
 * apply).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeNewFile } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * await writeNewFile(`${dir}/a.txt`, new TextEncoder().encode("hi"), 0o600);
 * assert.equal(await Deno.readTextFile(`${dir}/a.txt`), "hi");
 * await assert.rejects(writeNewFile(`${dir}/a.txt`, new Uint8Array()), Deno.errors.AlreadyExists);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeNewFile(
  path: string,
  bytes: Uint8Array,
  mode?: number,
  durable = true,
): Promise<void> {
  const file = await Deno.open(path, { write: true, createNew: true, mode: mode ?? 0o666 });
  try {
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    if (durable) await file.sync();
  } finally {
    file.close();
  }
  if (mode !== undefined) await Deno.chmod(path, mode);
}

/**
 * Flushes a directory's entries (renames, creations) to disk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { syncDirectory } from "./fs.ts";
 * await assert.doesNotReject(syncDirectory(Deno.cwd()));
 * ```
 */
export async function syncDirectory(dir: string): Promise<void> {
  if (Deno.build.os === "windows") return; // directories cannot be opened for syncing there
  const handle = await Deno.open(dir, { read: true });
  try {
    await handle.sync();
  } finally {
    handle.close();
  }
}

/**
 * Removes `path` when it is a regular file; returns whether it did. A directory or any other
 * kind of entry at that path is left alone, as it is not ours.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { removeFileIfPresent } from "./fs.ts";
 * assert.equal(await removeFileIfPresent("/no/such/file"), false);
 * ```
 */
export async function removeFileIfPresent(path: string): Promise<boolean> {
  try {
    if (!(await Deno.lstat(path)).isFile) return false;
    await Deno.remove(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Permission bits of the file at `path` (0o644 where the platform has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileMode } from "./fs.ts";
 * assert.equal(typeof (await fileMode(Deno.execPath())), "number");
 * ```
 */
export async function fileMode(path: string): Promise<number> {
  return ((await Deno.stat(path)).mode ?? 0o644) & 0o7777;
}
