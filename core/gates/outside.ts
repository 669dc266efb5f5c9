/**
 * Which files a compiler gate read lie outside the root (contract §11: nothing from a file
 * outside the root reaches an answer). A compiler is a subprocess, out of reach of Deno's read
 * permission: `#include "/home/me/.ssh/id_rsa"`, `include_str!`, an import of `../../x.ts` or a
 * link inside the root that points out all make it read such a file, and its messages then
 * quote it. A file counts by its real path (a link is where it leads), and the toolchain's own
 * files (system headers, a registry's sources) are not the project's choice: they do not count.
 *
 * @module
 */
import { isAbsolute, normalize } from "../path_syntax.ts";
import { isInside } from "../paths.ts";

/**
 * The real path of `path` (absolute), or `path` itself, normalised, when it cannot be resolved:
 * it does not exist, or the run may not read where it is (a scoped `--allow-read` refuses to
 * resolve a path named outside it, which then counts as named).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvedPath } from "./outside.ts";
 * assert.equal(resolvedPath("/no/such/../file"), "/no/file");
 * ```
 */
export function resolvedPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return normalize(path);
  }
}

/** Where a gate's reads may lie without being quoted out of the root. */
export class ReadScope {
  readonly #root: string;
  readonly #toolchain: string[];

  /**
   * `root` is the real path of the workspace root; `toolchain` the folders of the toolchain's
   * own files, as the program names them (resolved here).
   */
  constructor(root: string, toolchain: readonly string[]) {
    this.#root = root;
    this.#toolchain = toolchain.filter(isAbsolute).map(resolvedPath);
  }

  /**
   * Whether the absolute `path` a program read lies outside the root and outside the
   * toolchain's folders, once resolved.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ReadScope } from "./outside.ts";
   * const scope = new ReadScope("/work/app", ["/usr/include"]);
   * assert.equal(scope.isOutside("/usr/include/stdio.h"), false);
   * assert.equal(scope.isOutside("/work/app/../secret.h"), true);
   * ```
   */
  isOutside(path: string): boolean {
    const real = resolvedPath(path);
    return !isInside(this.#root, real) && !this.#toolchain.some((dir) => isInside(dir, real));
  }
}
