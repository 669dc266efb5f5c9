/**
 * The shared flag behind an abort signal that a thread other than the one running the work sets
 * (the MCP server stops a call in its call worker by setting one `Int32Array` cell), so that
 * work the run hands to threads of its own (parse workers) can read the same flag directly. They
 * then stop even when the run's own thread no longer can tell them: a call worker terminated for
 * not stopping in time takes down its event loop, not the parses it started.
 *
 * @module
 */

const flags = new WeakMap<AbortSignal, Int32Array<SharedArrayBuffer>>();

/**
 * Records that `signal` aborts once `flag[0]` is not 0 (the signal itself reads the flag).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bindStopFlag, stopFlagOf } from "./stop_flag.ts";
 * const flag = new Int32Array(new SharedArrayBuffer(4));
 * const signal = new AbortController().signal;
 * bindStopFlag(signal, flag);
 * assert.equal(stopFlagOf(signal), flag);
 * assert.equal(stopFlagOf(new AbortController().signal), undefined);
 * ```
 */
export function bindStopFlag(signal: AbortSignal, flag: Int32Array<SharedArrayBuffer>): void {
  flags.set(signal, flag);
}

/** The shared flag behind `signal`, when one was bound to it. */
export function stopFlagOf(
  signal: AbortSignal | undefined,
): Int32Array<SharedArrayBuffer> | undefined {
  return signal === undefined ? undefined : flags.get(signal);
}
