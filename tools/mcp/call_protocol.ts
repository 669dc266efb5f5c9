/**
 * What the MCP server and its call workers share: the messages between them and the warm cache
 * each worker keeps. A module of its own, so the worker and the server's runner import it
 * rather than each other.
 *
 * @module
 */
import { MemoryCache } from "../../core/cache.ts";
import { bindStopFlag } from "../../core/stop_flag.ts";
import type { Envelope } from "../../schema/envelope.ts";

/** Values a warm cache holds at most. */
export const CACHE_ENTRIES = 200_000;

/**
 * Cache entries of files modified less than this before they were stored are recomputed once
 * more (an engine may read, parse and store a big file in that time; mtimes are in ms).
 */
export const RACY_WINDOW_MS = 1_000;

/**
 * The warm cache of a long-lived host.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { warmCache } from "./call_protocol.ts";
 * assert.equal(warmCache().get("n", "/a", { size: 1, mtimeMs: 1 }), undefined);
 * ```
 */
export function warmCache(): MemoryCache {
  return new MemoryCache(CACHE_ENTRIES, RACY_WINDOW_MS);
}

const abortedOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")!.get!;

/**
 * An AbortSignal that aborts as soon as it is checked (`aborted`, `throwIfAborted()`) after
 * the server raised `flag`, even while the thread is busy and no event can reach it: a call
 * worker's engines check it between files and inside each parse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flagSignal } from "./call_protocol.ts";
 * const flag = new Int32Array(new SharedArrayBuffer(4));
 * const signal = flagSignal(flag);
 * assert.equal(signal.aborted, false);
 * Atomics.store(flag, 0, 1);
 * assert.equal(signal.aborted, true);
 * ```
 */
export function flagSignal(flag: Int32Array<SharedArrayBuffer>): AbortSignal {
  const controller = new AbortController();
  const signal = controller.signal;
  // Deno's abort reads `aborted` again (this getter): without the guard each read would abort
  // anew, recursing until the stack overflows, and a RangeError would stop the run instead.
  let aborting = false;
  const check = (): boolean => {
    if (!aborting && !abortedOf.call(signal) && Atomics.load(flag, 0) !== 0) {
      aborting = true;
      controller.abort(new DOMException("the call was stopped by the server", "AbortError"));
    }
    return abortedOf.call(signal);
  };
  Object.defineProperties(signal, {
    aborted: { get: check },
    throwIfAborted: {
      value: () => {
        if (check()) throw signal.reason;
      },
    },
  });
  // Parse workers the run starts read the flag itself (see core/stop_flag.ts).
  bindStopFlag(signal, flag);
  return signal;
}

/** Messages the server sends a call worker. */
export type CallMessage =
  | {
    type: "call";
    /** MCP name of the registry tool. */
    tool: string;
    /** Checked arguments. */
    input: Record<string, unknown>;
    executionId: string;
    /** When the call's answer is needed by (epoch ms), see `RunContext.deadline`. */
    deadline?: number;
    /** One Int32 the server sets to 1 to stop the call (a SharedArrayBuffer). */
    abortFlag: SharedArrayBuffer;
    /** Workspace root. */
    cwd: string;
    /** Stack traces in internal-error diagnostics. */
    debug: boolean;
  }
  | {
    type: "invalidate";
    /** Absolute paths a mutation changed; empty for everything. */
    paths: string[];
  }
  | {
    /** The server shuts down: the worker disposes its cache's resources and ends. */
    type: "close";
  };

/** A call worker's answer: the envelope of the call. */
export interface CallReply {
  envelope: Envelope;
}
