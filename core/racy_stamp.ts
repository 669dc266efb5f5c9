/**
 * A file's stamp, its size and mtime as an index records them, and when a stamp cannot vouch
 * for the file's content. A file's mtime has the granularity of the file system's clock (a
 * kernel tick, up to seconds on some file systems), so a file written again in the tick of its
 * last stamp, at the same size, keeps that stamp: an index that read the file in that tick would
 * take the stale content for fresh. Git calls such entries "racily clean"; a stamp whose mtime
 * is this close to the moment the stat was taken is one, and only the content can tell. This is
 * the one place the rule is derived: the indexes, the walk cache, the host's cache and the
 * gates' toolchain all ask {@linkcode racyStamp}.
 *
 * @module
 */

/** How close before the stat an mtime makes its stamp racy: above any file system's tick. */
export const RACY_MS = 2000;

/**
 * Whether a stamp with `mtimeMs`, taken by a stat at or after `statsFromMs` (wall clock), is
 * racy: the file may change again without a new stamp. `windowMs` is {@linkcode RACY_MS} unless
 * the caller knows its file system's tick (a host's cache may choose a shorter one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { racyStamp } from "./racy_stamp.ts";
 * const now = Date.now();
 * assert.equal(racyStamp(now - 10, now), true);
 * assert.equal(racyStamp(now - 60_000, now), false);
 * assert.equal(racyStamp(now - 1500, now, 1000), false);
 * ```
 */
export function racyStamp(mtimeMs: number, statsFromMs: number, windowMs = RACY_MS): boolean {
  return mtimeMs > statsFromMs - windowMs;
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
 * import { recordedSize } from "./racy_stamp.ts";
 * assert.equal(recordedSize(120, Date.now(), Date.now()), -1);
 * assert.equal(recordedSize(120, Date.now() - 60_000, Date.now()), 120);
 * ```
 */
export function recordedSize(size: number, mtime: number, statsFrom: number): number {
  return racyStamp(mtime, statsFrom) ? SMUDGED_SIZE : size;
}

/** A file's stamp as an index records it: its size and its mtime in whole milliseconds. */
export interface Stamp {
  /** Size in bytes ({@linkcode SMUDGED_SIZE} when the stamp was racy). */
  size: number;
  /** Modification time in whole ms since the epoch. */
  mtime: number;
}

/**
 * The stamp of the file `info` describes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stampOf } from "./racy_stamp.ts";
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
 * import { stampAgainst, stampOf } from "./racy_stamp.ts";
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
