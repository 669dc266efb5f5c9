/**
 * The claim a whole-root refresh of an index holds while it walks, parses and writes: an
 * exclusive advisory lock on `<db>.lock` (`flock`; released when the run ends or its process
 * dies). Without it, a refresh that starts while another is under way parses every file the
 * other has not written yet a second time, side by side: a refactoring in the MCP server, whose
 * refresh met a 3 MB generated file that `symbols_index` was parsing beside it, parsed it again
 * and answered only when the index run did (after 18 s; the `index` command alone took 17 s). So
 * an index run or a refactoring waits for the refresh under way and then finds the files
 * written; a host's query does not wait at all (it answers from the index as it is, with a note).
 *
 * A run that may not write the lock file (a write permission scoped to the database files)
 * refreshes as before, unclaimed.
 *
 * @module
 */
import { CLAIM_SUFFIX, type DbLocation } from "./store.ts";

/**
 * A held claim; dispose it to release. Taken with {@linkcode RefreshClaim.take}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RefreshClaim } from "./refresh_claim.ts";
 * import { locateDb } from "./store.ts";
 * const root = Deno.makeTempDirSync();
 * const location = locateDb(root, undefined, true);
 * const claim = await RefreshClaim.take(location);
 * assert.ok(claim);
 * assert.equal(RefreshClaim.tryTake(location), "busy");
 * claim[Symbol.dispose]();
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export class RefreshClaim implements Disposable {
  readonly #file: Deno.FsFile;

  private constructor(file: Deno.FsFile) {
    this.#file = file;
  }

  /**
   * Claims the refresh of the index at `location`, waiting for a run that holds it. Undefined
   * when this run may not write the lock file (it then refreshes unclaimed). `locateDb` has
   * checked that the lock file is a regular file or absent.
   */
  static async take(location: DbLocation): Promise<RefreshClaim | undefined> {
    const file = openLockFile(location);
    if (!file) return undefined;
    try {
      await file.lock(true);
    } catch (error) {
      file.close();
      throw error;
    }
    return new RefreshClaim(file);
  }

  /** {@linkcode RefreshClaim.take} without waiting: `busy` while another run holds it. */
  static tryTake(location: DbLocation): RefreshClaim | "busy" | undefined {
    const file = openLockFile(location);
    if (!file) return undefined;
    let locked: boolean;
    try {
      locked = file.tryLockSync(true);
    } catch (error) {
      file.close();
      throw error;
    }
    if (locked) return new RefreshClaim(file);
    file.close();
    return "busy";
  }

  /** Releases the claim. */
  [Symbol.dispose](): void {
    // Closing the file releases its lock.
    this.#file.close();
  }
}

/** The lock file of `location`, opened to lock; undefined without write permission for it. */
function openLockFile(location: DbLocation): Deno.FsFile | undefined {
  const path = location.absPath + CLAIM_SUFFIX;
  if (Deno.permissions.querySync({ name: "write", path }).state !== "granted") return undefined;
  return Deno.openSync(path, { read: true, write: true, create: true });
}
