/**
 * Where the server's tool calls run. A call-worker runner gives each call a Deno worker (it
 * inherits the server's permissions), so the main thread keeps answering `ping`, `tools/list`
 * and other calls however long a call computes, and a cancelled or overdue call is stopped by
 * terminating its worker — with the engines' own nested workers, which die with it. Workers
 * are long-lived and each keeps its own warm cache; a mutation's changed paths are sent to all
 * of them. The in-process runner is the fallback for a server that cannot start workers (they
 * must read the package's modules).
 *
 * @module
 */
import type { RunCache } from "../../core/cache.ts";
import { markChanged } from "../../core/trigram/live.ts";
import { failureOutcome } from "../../core/failure.ts";
import type { Tool } from "../../core/tool.ts";
import type { Envelope } from "../../schema/envelope.ts";
import type { CallMessage, CallReply } from "./call_protocol.ts";

/** One call as a runner gets it. */
export interface CallSpec {
  /** Execution id of the call. */
  executionId: string;
  /** Aborted when the call must stop (cancelled by the client, or over the time limit). */
  signal: AbortSignal;
  /** When the call's answer is needed by (epoch ms), see `RunContext.deadline`. */
  deadline?: number;
}

/** Runs tool calls. */
export interface ToolRunner {
  /**
   * Runs `tool` on checked `input` and resolves with its envelope (a failure envelope when the
   * tool failed); rejects with the signal's reason once the signal aborts.
   */
  run(tool: Tool, input: Record<string, unknown>, call: CallSpec): Promise<Envelope>;
  /** Drops the cached entries of `paths` (absolute), or every entry when `paths` is empty. */
  invalidate(paths: readonly string[]): void;
  /** Stops every worker and releases the cache's resources (open databases, file watchers). */
  close(): void;
}

/** A promise that rejects with the signal's reason when it aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/**
 * Runs calls on the calling thread, as a library host does. The signal is handed to the tool
 * (engines that check it stop early) and the call is answered as soon as it aborts, but work
 * that does not check it goes on in the background.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TOOLS } from "@llm/search";
 * import { InProcessRunner } from "./calls.ts";
 * const runner = new InProcessRunner(Deno.cwd());
 * const discover = TOOLS.find((tool) => tool.mcpName === "discover")!;
 * const call = { executionId: crypto.randomUUID(), signal: new AbortController().signal };
 * const envelope = await runner.run(discover, { query: "walker", limit: 1 }, call);
 * assert.equal(envelope.tool, "llm-discover");
 * runner.close();
 * ```
 */
export class InProcessRunner implements ToolRunner {
  readonly #cwd: string;
  readonly #cache: RunCache | undefined;
  readonly #debug: boolean;

  /** Runs in `cwd`, with `cache` handed to every run. */
  constructor(cwd: string, cache?: RunCache, debug = false) {
    this.#cwd = cwd;
    this.#cache = cache;
    this.#debug = debug;
  }

  async run(tool: Tool, input: Record<string, unknown>, call: CallSpec): Promise<Envelope> {
    const context = {
      executionId: call.executionId,
      cwd: this.#cwd,
      signal: call.signal,
      cache: this.#cache,
      ...(call.deadline === undefined ? {} : { deadline: call.deadline }),
    };
    const running = tool.execute(input, context).then(
      (outcome) => outcome.envelope,
      (thrown) => failureOutcome(tool, thrown, call.executionId, this.#debug).envelope,
    );
    return await Promise.race([running, aborted(call.signal)]);
  }

  invalidate(paths: readonly string[]): void {
    if (!this.#cache) return;
    if (!paths.length) this.#cache.invalidate();
    for (const path of paths) this.#cache.invalidate(path);
    // The repository index marks them changed before its watcher reports them.
    markChanged(paths);
  }

  close(): void {
    this.#cache?.close();
  }
}

/** A call worker and the call it runs. */
interface Slot {
  worker: Worker;
  /** MCP name of the tool it ran last (its cache is warm for that tool). */
  lastTool?: string;
  /** Settles the running call. */
  settle?: (reply: CallReply | Error) => void;
}

/**
 * Time a stopped call's worker has to end its run cooperatively (keeping its warm cache) before
 * it is terminated. Short: the engines read the stop flag often, but not inside every step (one
 * tree-sitter query over a 3 MB file hands back 80,000 matches in one call, 300 ms of building
 * objects), and a cancelled call must stop computing within 200 ms.
 */
const STOP_GRACE_MS = 100;

/** Idle call workers kept for the next calls; more are stopped, least recently used first. */
const MAX_IDLE_WORKERS = 2;

// A literal URL, so `deno compile --include` and other tools that analyse worker specifiers see it.
const WORKER_URL = new URL("./call_worker.ts", import.meta.url);

/**
 * Runs every call in a call worker (any worker runs any tool). A call takes the idle worker
 * that last ran the same tool (its cache is warm), else the most recently used one, else a new
 * one; whenever no idle worker is left, a spare starts loading, so the next concurrent call does
 * not wait for a worker to load its modules (about a second). A call that aborts is answered at
 * once; its work stops at the engine's next check of the run's signal (between files), through
 * a shared flag, and a worker that has not ended its run 100 ms later is terminated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TOOLS } from "@llm/search";
 * import { WorkerRunner } from "./calls.ts";
 * const runner = new WorkerRunner(Deno.cwd()); // one call worker starts loading at once
 * const discover = TOOLS.find((tool) => tool.mcpName === "discover")!;
 * const call = { executionId: crypto.randomUUID(), signal: new AbortController().signal };
 * const envelope = await runner.run(discover, { query: "walker", limit: 1 }, call);
 * assert.equal(envelope.tool, "llm-discover");
 * runner.close();
 * ```
 */
export class WorkerRunner implements ToolRunner {
  readonly #cwd: string;
  readonly #debug: boolean;
  /** Idle workers, least recently used first. */
  readonly #idle: Slot[] = [];
  readonly #live = new Set<Slot>();

  /** Runs tools in `cwd`; one worker starts loading at once. */
  constructor(cwd: string, debug = false) {
    this.#cwd = cwd;
    this.#debug = debug;
    this.#idle.push(this.#start());
  }

  /** Number of live call workers. */
  get size(): number {
    return this.#live.size;
  }

  run(tool: Tool, input: Record<string, unknown>, call: CallSpec): Promise<Envelope> {
    if (call.signal.aborted) return Promise.reject(call.signal.reason);
    const slot = this.#claim(tool.mcpName);
    const abortFlag = new SharedArrayBuffer(4);
    return new Promise<Envelope>((resolve, reject) => {
      let stopping: ReturnType<typeof setTimeout> | undefined;
      const stop = () => {
        // Answer at once; the worker's engine sees the flag at its next check and ends its run
        // (its nested workers' claims too), or the worker is terminated after a grace period.
        Atomics.store(new Int32Array(abortFlag), 0, 1);
        stopping = setTimeout(() => this.#discard(slot), STOP_GRACE_MS);
        reject(call.signal.reason);
      };
      call.signal.addEventListener("abort", stop, { once: true });
      slot.settle = (reply) => {
        call.signal.removeEventListener("abort", stop);
        clearTimeout(stopping);
        slot.settle = undefined;
        if (reply instanceof Error) {
          this.#discard(slot);
          resolve(failureOutcome(tool, reply, call.executionId, this.#debug).envelope);
          return;
        }
        this.#release(slot);
        resolve(reply.envelope);
      };
      const message: CallMessage = {
        type: "call",
        tool: tool.mcpName,
        input,
        executionId: call.executionId,
        ...(call.deadline === undefined ? {} : { deadline: call.deadline }),
        abortFlag,
        cwd: this.#cwd,
        debug: this.#debug,
      };
      slot.worker.postMessage(message);
    });
  }

  invalidate(paths: readonly string[]): void {
    const message: CallMessage = { type: "invalidate", paths: [...paths] };
    for (const slot of this.#live) slot.worker.postMessage(message);
  }

  close(): void {
    // An idle worker releases its cache's resources and ends itself; a busy one is stopped.
    const closing: CallMessage = { type: "close" };
    for (const slot of this.#idle.splice(0)) {
      slot.worker.postMessage(closing);
      this.#live.delete(slot);
    }
    for (const slot of [...this.#live]) this.#discard(slot);
  }

  /** An idle worker for `tool` (see the class), or a new one; keeps a spare loading. */
  #claim(tool: string): Slot {
    let index = this.#idle.findLastIndex((slot) => slot.lastTool === tool);
    if (index < 0) index = this.#idle.length - 1;
    const slot = index >= 0 ? this.#idle.splice(index, 1)[0] : this.#start();
    if (!this.#idle.length) this.#idle.push(this.#start());
    slot.lastTool = tool;
    return slot;
  }

  #start(): Slot {
    const worker = new Worker(WORKER_URL, { type: "module" });
    const slot: Slot = { worker };
    worker.onmessage = (event: MessageEvent<CallReply>) => slot.settle?.(event.data);
    worker.onerror = (event) => {
      // A worker that could not load or died (out of memory) fails its call; later calls get
      // another worker.
      event.preventDefault();
      if (slot.settle) slot.settle(new Error(`call worker stopped: ${event.message}`));
      else this.#discard(slot);
    };
    this.#live.add(slot);
    return slot;
  }

  /** A worker whose call ended becomes idle; the least recently used beyond the bound stop. */
  #release(slot: Slot): void {
    this.#idle.push(slot);
    while (this.#idle.length > MAX_IDLE_WORKERS) this.#discard(this.#idle[0]);
  }

  #discard(slot: Slot): void {
    slot.worker.terminate();
    this.#live.delete(slot);
    const index = this.#idle.indexOf(slot);
    if (index >= 0) this.#idle.splice(index, 1);
  }
}
