/**
 * Letting the event loop run during a long synchronous loop, so that an abort (a timer, a
 * message from the host) gets through: a run that honours an `AbortSignal` calls
 * {@linkcode Breather.breathe} between units of work.
 *
 * @module
 */

/**
 * Yields to the event loop for a turn that runs due timers and messages: a `setTimeout(0)`
 * whose callback resolves through a `MessageChannel`, so the caller continues outside any timer
 * (a chain of plain `setTimeout(0)` is clamped to 4 ms a turn after five; a `MessageChannel`
 * alone did not let due timers run).
 */
function yieldToEventLoop(): Promise<void> {
  const channel = new MessageChannel();
  return new Promise((resolve) => {
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    setTimeout(() => channel.port2.postMessage(0), 0);
  });
}

/**
 * Lets the event loop run at most every `intervalMs` of work, and throws the signal's reason
 * once it has aborted; without a signal it does nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Breather } from "./breather.ts";
 * const controller = new AbortController();
 * const breather = new Breather(controller.signal, 20);
 * await breather.breathe(); // returns at once, or after a turn of the event loop
 * controller.abort(new Error("cancelled"));
 * await assert.rejects(breather.breathe(), /cancelled/);
 * ```
 */
export class Breather {
  readonly #signal: AbortSignal | undefined;
  readonly #intervalMs: number;
  #last = performance.now();

  /** A breather for `signal`, yielding every `intervalMs` milliseconds of work. */
  constructor(signal: AbortSignal | undefined, intervalMs: number) {
    this.#signal = signal;
    this.#intervalMs = intervalMs;
  }

  /** Yields when the interval has passed, then throws if the signal has aborted. */
  async breathe(): Promise<void> {
    if (!this.#signal) return;
    if (performance.now() - this.#last >= this.#intervalMs) {
      await yieldToEventLoop();
      this.#last = performance.now();
    }
    this.#signal.throwIfAborted();
  }
}
