/**
 * What the MCP server and its call workers share: the messages between them and the warm cache
 * each worker keeps. A module of its own, so the worker and the server's runner import it
 * rather than each other.
 *
 * @module
 */
import { MemoryCache } from "../../core/cache.ts";
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
 * import { warmCache } from "./call_protocol.ts";
 * warmCache().get("n", "/a", { size: 1, mtimeMs: 1 }); // undefined
 * ```
 */
export function warmCache(): MemoryCache {
  return new MemoryCache(CACHE_ENTRIES, RACY_WINDOW_MS);
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
  };

/** A call worker's answer: the envelope of the call. */
export interface CallReply {
  envelope: Envelope;
}
