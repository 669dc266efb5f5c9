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
 * import assert from "node:assert/strict";
 * import { recordedSize } from "./file_stat.ts";
 * assert.equal(recordedSize(120, Date.now(), Date.now()), -1);
 * assert.equal(recordedSize(120, Date.now() - 60_000, Date.now()), 120);
 * ```
 */
export function recordedSize(size: number, mtime: number, statsFrom: number): number {
  return racyStamp(mtime, statsFrom) ? SMUDGED_SIZE : size;
}

/** A file's stamp as an index records it: its size and its mtime in whole milliseconds. */
export interface Stamp {
  size: number;
  mtime: number;
}

/**
 * The stamp of the file `info` describes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stampOf } from "./file_stat.ts";
 * assert.ok(stampOf(Deno.statSync(Deno.cwd())).mtime > 0);
 * ```
 */
export function stampOf(info: Deno.FileInfo): Stamp {
  return { size: info.size, mtime: Math.trunc(info.mtime?.getTime() ?? 0) };
}

/**
 * What a recorded stamp says of the file as `info` shows it now: `same` (it vouches for the
 * recorded content), `moved` (the file changed), or `unsure` (a smudged stamp of the same time:
 * only the content can tell).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stampAgainst, stampOf } from "./file_stat.ts";
 * const info = Deno.statSync(Deno.cwd());
 * assert.equal(stampAgainst({ ...stampOf(info), size: -1 }, info), "unsure");
 * ```
 */
export function stampAgainst(recorded: Stamp, info: Deno.FileInfo): "same" | "moved" | "unsure" {
  const now = stampOf(info);
  if (now.mtime !== recorded.mtime) return "moved";
  if (now.size === recorded.size) return "same";
  return recorded.size === SMUDGED_SIZE ? "unsure" : "moved";
}
