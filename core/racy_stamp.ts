/**
 * Stamps (size and mtime) that cannot vouch for a file's content. A file's mtime has the
 * granularity of the file system's clock (a kernel tick, up to seconds on some file systems), so
 * a file written again in the tick of its last stamp, at the same size, keeps that stamp: an
 * index that read the file in that tick would take the stale content for fresh. Git calls such
 * entries "racily clean"; a stamp whose mtime is this close to the moment the stat was taken is
 * one, and only the content can tell.
 *
 * @module
 */

/** How close before the stat an mtime makes its stamp racy: above any file system's tick. */
export const RACY_MS = 2000;

/**
 * Whether a stamp with `mtimeMs`, taken by a stat at or after `statsFromMs` (wall clock), is
 * racy: the file may change again without a new stamp.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { racyStamp } from "./racy_stamp.ts";
 * const now = Date.now();
 * assert.equal(racyStamp(now - 10, now), true);
 * assert.equal(racyStamp(now - 60_000, now), false);
 * ```
 */
export function racyStamp(mtimeMs: number, statsFromMs: number): boolean {
  return mtimeMs > statsFromMs - RACY_MS;
}
