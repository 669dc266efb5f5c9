/**
 * Running tasks side by side, a bounded number at a time. A transaction writes its files so:
 * each new file is flushed to disk on its own (`fsync`), and flushes issued together share the
 * file system's journal commits, so a commit of fifty files waits for a few disk flushes
 * instead of a hundred in a row. (The refactor's gates run files so too.)
 *
 * @module
 */

/** Writes a transaction has in flight at most (each holds a file descriptor and a thread). */
export const PARALLEL_WRITES = 64;

/**
 * Runs `task` on every item, at most `limit` at a time; no item starts after one has failed.
 * Every task started is waited for before it returns or throws, so the caller may clean up
 * after a failure knowing nothing is still being written; it throws the error of the first
 * failed item in `items` order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eachLimited } from "./parallel.ts";
 * const seen: number[] = [];
 * await eachLimited([1, 2, 3], 2, async (item) => {
 *   seen.push(item);
 * });
 * assert.deepEqual(seen.toSorted(), [1, 2, 3]);
 * ```
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  const failures = new Map<number, unknown>();
  let next = 0;
  const lane = async () => {
    while (next < items.length && failures.size === 0) {
      const index = next++;
      try {
        await task(items[index], index);
      } catch (error) {
        failures.set(index, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(items.length, Math.max(1, limit)) }, lane));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
}

/** A file to create: its path, its bytes, and the permission bits to give it, if any. */
export interface NewFile {
  /** Absolute path; nothing may be there yet. */
  path: string;
  /** The bytes. */
  bytes: Uint8Array;
  /** Exactly these permission bits (the umask does not apply). */
  mode?: number;
}

/** Why {@linkcode writeNewFiles} stopped: the file at `index` could not be written. */
export class NewFileError extends Error {
  /** Position of the file in the list given. */
  readonly index: number;

  /** The error of file `index`. */
  constructor(index: number, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "NewFileError";
    this.index = index;
  }
}

/**
 * Creates files that must not exist yet, durably: each created, written and given its mode in
 * turn (so a file appears only once those before it are complete), then every
 * {@linkcode PARALLEL_WRITES} of them flushed side by side through their handles, still open (a
 * flush reaches a file renamed or removed meanwhile). Every path created is pushed to `created`,
 * for the caller to remove after a failure; a failure throws {@linkcode NewFileError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeNewFiles } from "./parallel.ts";
 * const dir = await Deno.makeTempDir();
 * const created: string[] = [];
 * await writeNewFiles([{ path: `${dir}/a`, bytes: new Uint8Array([1]) }], created);
 * assert.deepEqual(created, [`${dir}/a`]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeNewFiles(files: readonly NewFile[], created: string[]): Promise<void> {
  for (let from = 0; from < files.length; from += PARALLEL_WRITES) {
    const handles: Deno.FsFile[] = [];
    try {
      const to = Math.min(files.length, from + PARALLEL_WRITES);
      for (let index = from; index < to; index++) {
        try {
          handles.push(await createWritten(files[index], created));
        } catch (error) {
          throw new NewFileError(index, error);
        }
      }
      await eachLimited(handles, PARALLEL_WRITES, async (handle, offset) => {
        try {
          await handle.sync();
        } catch (error) {
          throw new NewFileError(from + offset, error);
        }
      });
    } finally {
      for (const handle of handles) handle.close();
    }
  }
}

/** Creates `file` with its bytes and mode; returns its handle, open, for the flush. */
async function createWritten(file: NewFile, created: string[]): Promise<Deno.FsFile> {
  const handle = await Deno.open(file.path, {
    write: true,
    createNew: true,
    mode: file.mode ?? 0o666,
  });
  created.push(file.path);
  try {
    let written = 0;
    while (written < file.bytes.length) written += await handle.write(file.bytes.subarray(written));
    if (file.mode !== undefined) await Deno.chmod(file.path, file.mode);
    return handle;
  } catch (error) {
    handle.close();
    throw error;
  }
}
