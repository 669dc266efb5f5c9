/**
 * The messages between the engine and its parse workers, and the shared claim counter through
 * which the main thread and every worker take files from one list without a round trip.
 *
 * @module
 */
import type { FileOutcome, FileTask, ParseLimits, SearchSpec } from "./file_search.ts";

/** A job: every participant claims files of `files` through `counter` until none is left. */
export interface JobMessage {
  /** Job number, unique per pool. */
  id: number;
  /** What to search for. */
  spec: SearchSpec;
  /** Languages of `files`, to prepare before claiming. */
  languages: string[];
  /** The files, largest first. */
  files: FileTask[];
  /** `Int32Array` view: `[0]` is the next index to claim. */
  counter: SharedArrayBuffer;
  /**
   * `Int32Array` view: the run's own stop flag, when its signal has one (`core/stop_flag.ts`):
   * not 0 once the run is stopped, set by the thread that stops it.
   */
  stopFlag?: SharedArrayBuffer;
  /** What one file may cost; default `DEFAULT_PARSE_LIMITS`. */
  limits?: ParseLimits;
  /** Test hook: how far each worker's parser heap may grow (see `parserHeapCeiling`). */
  heapCeiling?: number;
  /**
   * `Int32Array` view with one cell per worker slot: the index of the file the worker is on,
   * or -1; a worker that dies leaves the file that killed it there.
   */
  current: SharedArrayBuffer;
  /** The slot of the worker receiving the message. */
  slot: number;
}

/** An error that crossed the worker boundary. */
export interface WorkerFailure {
  /** The error's message. */
  message: string;
  /** The error's class name (`NotCapable`, `NotFound`, `QueryCompileError`…). */
  name: string;
}

/** What a worker answers: one message per claimed file, then one when its claims ran out. */
export type WorkerReply =
  | { type: "file"; job: number; index: number; outcome?: FileOutcome; failure?: WorkerFailure }
  | { type: "done"; job: number; failure?: WorkerFailure };

/**
 * Claims the next file index (it may be past the end: then nothing is left).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimNext } from "./job.ts";
 * const counter = new Int32Array(new SharedArrayBuffer(4));
 * assert.equal(claimNext(counter), 0);
 * assert.equal(claimNext(counter), 1);
 * ```
 */
export function claimNext(counter: Int32Array): number {
  return Atomics.add(counter, 0, 1);
}

/** The counter's value once a job is stopped: past the end of any file list. */
const STOPPED = 0x3fffffff;

/**
 * Ends a job early: every later claim comes back past the end, and parses under way stop at
 * their next check of {@linkcode claimsStopped}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimNext, stopClaims } from "./job.ts";
 * const counter = new Int32Array(new SharedArrayBuffer(4));
 * stopClaims(counter);
 * assert.ok(claimNext(counter) > 1_000_000);
 * ```
 */
export function stopClaims(counter: Int32Array): void {
  Atomics.store(counter, 0, STOPPED);
}

/**
 * Whether the job was stopped: a worker's parse checks it as it goes, since terminating the
 * worker does not interrupt a parse running in WebAssembly (Deno 2.9.6 lets it run to its end,
 * a second or more for a large file).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimsStopped, stopClaims } from "./job.ts";
 * const counter = new Int32Array(new SharedArrayBuffer(4));
 * assert.equal(claimsStopped(counter), false);
 * stopClaims(counter);
 * assert.equal(claimsStopped(counter), true);
 * ```
 */
export function claimsStopped(counter: Int32Array): boolean {
  return Atomics.load(counter, 0) >= STOPPED;
}
