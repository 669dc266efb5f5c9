/**
 * A path's stat when it exists: what the index compares with (size and time) and what a removal
 * between a listing and its stat leaves (nothing).
 *
 * @module
 */
import { racyStamp } from "../../core/racy_stamp.ts";

/**
 * The stat of `path`, or undefined when it does not exist (also when a folder on its way is now
 * a file); any other failure is thrown.
 *
 * @example
 * ```ts
 * import { statIfPresent } from "./file_stat.ts";
 * statIfPresent(Deno.cwd() + "/no such file"); // undefined
 * ```
 */
export function statIfPresent(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw error;
  }
}

/**
 * The size an index records for a file whose stamp is racy (git's "smudged" entry): no file has
 * it, so the next check of the file reads its content instead of trusting the stamp.
 */
export const SMUDGED_SIZE = -1;

/**
 * The size to record for a file of `size` bytes whose mtime is `mtime`, stat'ed at or after
 * `statsFrom` (wall clock, ms): {@linkcode SMUDGED_SIZE} when the stamp is racy.
 *
 * @example
 * ```ts
 * import { recordedSize } from "./file_stat.ts";
 * recordedSize(120, Date.now(), Date.now()); // -1
 * recordedSize(120, Date.now() - 60_000, Date.now()); // 120
 * ```
 */
export function recordedSize(size: number, mtime: number, statsFrom: number): number {
  return racyStamp(mtime, statsFrom) ? SMUDGED_SIZE : size;
}
