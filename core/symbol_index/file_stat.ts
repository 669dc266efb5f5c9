/**
 * A path's stat when it exists: what the index compares with (size and time, its stamp in
 * `core/racy_stamp.ts`) and what a removal between a listing and its stat leaves (nothing).
 *
 * @module
 */

/**
 * The stat of `path`, or undefined when it does not exist (also when a folder on its way is now
 * a file); any other failure is thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statIfPresent } from "./file_stat.ts";
 * assert.equal(statIfPresent(Deno.cwd() + "/no such file"), undefined);
 * assert.ok(statIfPresent(Deno.cwd())?.isDirectory);
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
