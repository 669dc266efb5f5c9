/**
 * Whether a run can start worker threads, and how many: shared by every engine that spreads its
 * work over workers (search, ast-search) and by the MCP server's call workers.
 *
 * @module
 */
import { fromFileUrl } from "./path_syntax.ts";
import { isPermissionRefusal, permissionError } from "./permissions.ts";
import { ToolError } from "../schema/diagnostic.ts";
import type { CodePrefix } from "../schema/error_codes.ts";

/** The package root: workers load modules from `tools/`, `grammars/`, `core/` and `schema/`. */
const PACKAGE_ROOT = new URL("../", import.meta.url);

/**
 * The package's directory on disk, which `--allow-read` must cover for workers to start (named
 * in the note of a run that could not start them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { packageDirectory } from "./workers.ts";
 * assert.ok(packageDirectory().endsWith("/"));
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
 * import assert from "node:assert/strict";
 * import { workersAvailable } from "./workers.ts";
 * assert.equal(typeof workersAvailable(), "boolean"); // depends on the run's read permission
 * ```
 */
export function workersAvailable(): boolean {
  if (PACKAGE_ROOT.protocol !== "file:") return true;
  const root = packageDirectory();
  if (root.includes("deno-compile-")) return true;
  return Deno.permissions.querySync({ name: "read", path: root }).state === "granted";
}

/**
 * Threads a run may use: the number asked for, else one per core up to
 * {@linkcode MAX_DEFAULT_WORKERS}, and at least one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { threadCount } from "./workers.ts";
 * assert.equal(threadCount(4), 4);
 * assert.equal(threadCount(0), 1);
 * assert.ok(threadCount(undefined) >= 1); // the machine's cores
 * ```
 */
export function threadCount(requested: number | undefined): number {
  return Math.max(
    1,
    requested ?? Math.min(navigator.hardwareConcurrency ?? 1, MAX_DEFAULT_WORKERS),
  );
}

/**
 * Most workers a run starts by default. Measured on a 16-core x86-64 machine (Deno 2.9.6): the
 * cold index of Linux `kernel/` took 2.9 s with 8 workers and 3.4 s with 16, the main thread's
 * writes being the serial part; `new Worker()` blocks its caller 12–18 ms each.
 */
export const MAX_DEFAULT_WORKERS = 8;

/**
 * Bytes of parsing that pay for a parse thread (tree-sitter, about 3.5 MB/s a core): starting
 * a worker, loading its grammars and its share of the bookkeeping cost about as much as parsing
 * this much, on a machine with cores to spare. On a 16-core machine `ast-search --kind function`
 * over this repository (3.8 MB to parse) took 1.5–1.7 s with 4 threads and 2.0–3.5 s on one; at
 * 2 MiB a thread the default was that one.
 */
export const PARSE_BYTES_PER_WORKER = 1024 * 1024;

/**
 * Below this many cores a worker's start-up takes a core the parse needs, so a worker pays for
 * itself only at twice the bytes: on two cores this repository's 3.8 MB parsed in 1.9 s on the
 * calling thread alone and in 3.2 s with one worker beside it (its grammars, a dozen languages,
 * load on the shared cores), while Linux `kernel/`'s 13 MB of C took 4.3–4.9 s alone and
 * 3.3–3.6 s with one worker.
 */
const FEW_CORES = 4;

/**
 * Threads for a run: the number asked for, else one per core up to
 * {@linkcode MAX_DEFAULT_WORKERS} and at most one per `perWorker` bytes of `bytes` of work (twice
 * that below {@linkcode FEW_CORES} cores), at least one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { workersFor } from "./workers.ts";
 * assert.equal(workersFor(3, 100, 1_000), 3); // asked for
 * assert.ok(workersFor(undefined, 4_000, 1_000) <= 4); // sized to the work
 * ```
 */
export function workersFor(
  requested: number | undefined,
  bytes: number,
  perWorker: number,
): number {
  if (requested !== undefined) return Math.max(1, requested);
  const cores = navigator.hardwareConcurrency ?? 1;
  const share = cores < FEW_CORES ? perWorker * 2 : perWorker;
  return Math.max(1, Math.min(cores, MAX_DEFAULT_WORKERS, Math.floor(bytes / share)));
}

/**
 * Imports the package's own module `specifier`, named by a computed specifier so that no
 * command reads its graph at start (Deno reads the graph of every literal `import("…")` when the
 * program starts, called or not: denoland/deno#23149). Such a module needs read permission for
 * the package's files, which a run from a local checkout scoped by `--allow-read=<root>` lacks
 * (a run from JSR or a compiled binary needs none): that refusal is `<prefix>-PERM-001` naming
 * the module and the flag that lets it load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importPackageModule } from "./workers.ts";
 * const module = await importPackageModule<{ VERSION: string }>(
 *   import.meta.resolve("./version.ts"),
 *   "MAG",
 * );
 * assert.match(module.VERSION, /^\d/);
 * ```
 */
export async function importPackageModule<T>(specifier: string, prefix: CodePrefix): Promise<T> {
  try {
    return await import(specifier);
  } catch (error) {
    if (!isPermissionRefusal(error)) throw error;
    const file = permissionError(prefix, error).details.file ?? specifier;
    throw new ToolError(
      `${prefix}-PERM-001`,
      `this command loads the package's own modules (${file}), which a run from a checkout ` +
        "with read permission scoped to the project may not read",
      {
        file,
        remediation: `Run again with --allow-read=${packageDirectory()} added (a run from JSR or ` +
          "a compiled binary needs no more).",
      },
    );
  }
}
