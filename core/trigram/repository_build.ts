/**
 * The repository index build of an `index` run, started before the symbol index's lookup
 * indexes are made and awaited after them: on a worker thread when the run may start one (the
 * two builds then overlap), else on the calling thread when awaited. Either way the same
 * `writeRepositoryIndex` call writes the same file.
 *
 * @module
 */
import type { EngineWalkOptions } from "../walk/walker.ts";
import type { RepositoryIndexOutcome } from "./refresh.ts";

/** What the repository worker is asked to build. */
export interface RepositoryTask {
  /** The root. */
  root: string;
  /** Walk settings, without a host's cache (which the build does not use). */
  walk?: EngineWalkOptions;
}

/** What the repository worker answers: the outcome, or the error the build threw. */
export type RepositoryReply =
  | { outcome: RepositoryIndexOutcome }
  | { error: { notCapable: boolean; message: string } };

/** A repository index build under way. */
export interface RepositoryBuild {
  /** Its outcome; throws what the build threw (a permission error stays `NotCapable`). */
  outcome(): Promise<RepositoryIndexOutcome>;
  /** Stops it when its outcome will not be asked for (the run failed first). */
  cancel(): void;
}

/** The error `reply` reports, as the build on the calling thread would have thrown it. */
function replyError(reply: { notCapable: boolean; message: string }): Error {
  return reply.notCapable ? new Deno.errors.NotCapable(reply.message) : new Error(reply.message);
}

/**
 * A worker thread for the repository index's build, started before it is needed: loading its
 * modules takes as long as the lookup indexes it is meant to overlap, so a run that knows it
 * will build (no repository index yet) starts it with the parse.
 */
export class RepositoryWorker {
  readonly #worker = new Worker(new URL("./repository_worker.ts", import.meta.url), {
    type: "module",
  });
  /** Why the worker failed before it was asked to build, if it did. */
  #failure: string | undefined;

  constructor() {
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#failure = event.message;
    };
  }

  /**
   * Builds the repository index of `root` on this worker (once). The worker is stopped when
   * `signal` aborts (nothing is written then: the build writes its file last, atomically).
   */
  build(root: string, walk: EngineWalkOptions, signal?: AbortSignal): RepositoryBuild {
    const worker = this.#worker;
    const done = new Promise<RepositoryIndexOutcome>((resolve, reject) => {
      const failed = (message: string) => {
        finish();
        reject(new Error(`the repository index worker failed: ${message}`));
      };
      const stop = () => {
        worker.terminate();
        reject(signal?.reason);
      };
      const finish = () => {
        signal?.removeEventListener("abort", stop);
        worker.terminate();
      };
      if (this.#failure !== undefined) return failed(this.#failure);
      signal?.addEventListener("abort", stop, { once: true });
      worker.onmessage = (event: MessageEvent<RepositoryReply>) => {
        finish();
        const reply = event.data;
        if ("outcome" in reply) resolve(reply.outcome);
        else reject(replyError(reply.error));
      };
      worker.onerror = (event) => {
        event.preventDefault();
        failed(event.message);
      };
      const task: RepositoryTask = { root, walk };
      worker.postMessage(task);
    });
    // Awaited only after the lookup indexes: a rejection meanwhile is not unhandled.
    done.catch(() => {});
    return { outcome: () => done, cancel: () => this.cancel() };
  }

  /** Stops the worker (its build, if one is under way, writes nothing). */
  cancel(): void {
    this.#worker.terminate();
  }
}

/**
 * Starts building the repository index of `root` on a new worker thread (see
 * {@linkcode RepositoryWorker.build}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startRepositoryBuild } from "./repository_build.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.txt`, "hello\n");
 * const outcome = await startRepositoryBuild(root, {}).outcome();
 * assert.equal(outcome.result?.indexed_files, 1);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function startRepositoryBuild(
  root: string,
  walk: EngineWalkOptions,
  signal?: AbortSignal,
): RepositoryBuild {
  return new RepositoryWorker().build(root, walk, signal);
}

/**
 * A build that runs on the calling thread when its outcome is asked for (a run that may not
 * start workers, or that must not leave its thread).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deferredRepositoryBuild } from "./repository_build.ts";
 * const root = Deno.makeTempDirSync();
 * assert.equal((await deferredRepositoryBuild(root, {}).outcome()).result?.files, 0);
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function deferredRepositoryBuild(
  root: string,
  walk: EngineWalkOptions | undefined,
  signal?: AbortSignal,
): RepositoryBuild {
  return {
    outcome: async () => {
      const { writeRepositoryIndex } = await import("./refresh.ts");
      return writeRepositoryIndex(root, walk, signal);
    },
    cancel: () => {},
  };
}
