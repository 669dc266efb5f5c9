/**
 * Whether a run can start worker threads, and how many: shared by every engine that spreads its
 * work over workers (search, ast-search) and by the MCP server's call workers.
 *
 * @module
 */
import { fromFileUrl } from "./path_syntax.ts";

/** The package root: workers load modules from `tools/`, `grammars/`, `core/` and `schema/`. */
const PACKAGE_ROOT = new URL("../", import.meta.url);

/**
 * The package's directory on disk, which `--allow-read` must cover for workers to start (named
 * in the note of a run that could not start them).
 *
 * @example
 * ```ts
 * import { packageDirectory } from "./workers.ts";
 * packageDirectory().endsWith("/"); // true
 * ```
 */
export function packageDirectory(): string {
  return fromFileUrl(PACKAGE_ROOT);
}

/**
 * Whether worker threads can start in this process. A worker loading local modules needs read
 * permission for them (the main thread does not), so under a scoped `--allow-read` that does
 * not cover the package the run works on the calling thread alone. A package loaded over HTTP
 * (JSR, a remote run) imports its workers under the same `--allow-import` as itself, and a
 * compiled binary reads its embedded modules without permission.
 *
 * @example
 * ```ts
 * import { workersAvailable } from "./workers.ts";
 * typeof workersAvailable(); // "boolean"
 * ```
 */
export function workersAvailable(): boolean {
  if (PACKAGE_ROOT.protocol !== "file:") return true;
  const root = packageDirectory();
  if (root.includes("deno-compile-")) return true;
  return Deno.permissions.querySync({ name: "read", path: root }).state === "granted";
}

/**
 * Threads a run may use: the number asked for, else one per core, and at least one.
 *
 * @example
 * ```ts
 * import { threadCount } from "./workers.ts";
 * [threadCount(4), threadCount(0), threadCount(undefined) >= 1]; // [4, 1, true]
 * ```
 */
export function threadCount(requested: number | undefined): number {
  return Math.max(1, requested ?? navigator.hardwareConcurrency ?? 1);
}
