/**
 * The repository index build of an `index` run, started before the symbol index's lookup
 * indexes are made and awaited after them: on a worker thread when the run may start one (the
 * two builds then overlap), else on the calling thread when awaited. Either way the same
 * `writeRepositoryIndex` call writes the same file.
 *
 * @module
 */
import type { EngineWalkOptions } from "../../core/walk/walker.ts";
import type { RepositoryIndexOutcome } from "../../core/trigram/refresh.ts";

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
 * Starts building the repository index of `root` on a worker thread. The worker is stopped when
 * `signal` aborts (nothing is written then: the build writes its file last, atomically).
 *
 * @example
 * ```ts
 * import { startRepositoryBuild } from "./repository_build.ts";
 * const root = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${root}/a.txt`, "hello\n");
 * const outcome = await startRepositoryBuild(root, {}).outcome();
 * outcome.result?.indexed_files; // 1
 * ```
 */
export function startRepositoryBuild(
  root: string,
  walk: EngineWalkOptions,
  signal?: AbortSignal,
): RepositoryBuild {
  const worker = new Worker(new URL("./repository_worker.ts", import.meta.url), {
    type: "module",
  });
  const done = new Promise<RepositoryIndexOutcome>((resolve, reject) => {
    const stop = () => {
      worker.terminate();
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", stop, { once: true });
    const finish = () => {
      signal?.removeEventListener("abort", stop);
      worker.terminate();
    };
    worker.onmessage = (event: MessageEvent<RepositoryReply>) => {
      finish();
      const reply = event.data;
      if ("outcome" in reply) resolve(reply.outcome);
      else reject(replyError(reply.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new Error(`the repository index worker failed: ${event.message}`));
    };
  });
  // Awaited only after the lookup indexes: a rejection meanwhile is not unhandled.
  done.catch(() => {});
  const task: RepositoryTask = { root, walk };
  worker.postMessage(task);
  return { outcome: () => done, cancel: () => worker.terminate() };
}

/**
 * A build that runs on the calling thread when its outcome is asked for (a run that may not
 * start workers, or that must not leave its thread).
 *
 * @example
 * ```ts
 * import { deferredRepositoryBuild } from "./repository_build.ts";
 * const root = Deno.makeTempDirSync();
 * (await deferredRepositoryBuild(root, {}).outcome()).result?.files; // 0
 * ```
 */
export function deferredRepositoryBuild(
  root: string,
  walk: EngineWalkOptions | undefined,
  signal?: AbortSignal,
): RepositoryBuild {
  return {
    outcome: async () => {
      const { writeRepositoryIndex } = await import("../../core/trigram/refresh.ts");
      return writeRepositoryIndex(root, walk, signal);
    },
    cancel: () => {},
  };
}
