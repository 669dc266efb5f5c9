/**
 * Path helpers every tool shares: containment in a root, real paths of paths that may not
 * exist yet, and the contract's display form (root-relative with `/`).
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, sep } from "./path_syntax.ts";

/**
 * Whether `path` is `root` or lies under it (lexically; both absolute).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isInside } from "./paths.ts";
 * assert.equal(isInside("/repo", "/repo/src/a.ts"), true);
 * assert.equal(isInside("/repo", "/repository"), false);
 * ```
 */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + sep) && !isAbsolute(rel));
}

/** The toolkit's state folder in a root: `<root>/.llm` holds journals, indexes and logs. */
export const STATE_FOLDER = ".llm";

/**
 * Whether `path` is the state folder of `root` or lies in it (both absolute, links resolved).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inStateFolder } from "./paths.ts";
 * assert.equal(inStateFolder("/repo", "/repo/.llm/journal/x.json"), true);
 * assert.equal(inStateFolder("/repo", "/repo/src/.llm/x"), false);
 * ```
 */
export function inStateFolder(root: string, path: string): boolean {
  return isInside(join(root, STATE_FOLDER), path);
}

/**
 * `path` with `/` separators, whatever the platform.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toSlash } from "./paths.ts";
 * assert.equal(toSlash("src/a.ts"), "src/a.ts"); // on Windows, "src\\a.ts" gives it too
 * ```
 */
export function toSlash(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/**
 * Contract path of `absPath`: relative to `root` with `/` separators when inside it (`.` for
 * the root itself), else absolute.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayPath } from "./paths.ts";
 * assert.equal(displayPath("/repo", "/repo/src/a.ts"), "src/a.ts");
 * assert.equal(displayPath("/repo", "/etc/hosts"), "/etc/hosts");
 * ```
 */
export function displayPath(root: string, absPath: string): string {
  if (!isInside(root, absPath)) return toSlash(absPath);
  const rel = relative(root, absPath);
  return rel === "" ? "." : toSlash(rel);
}

/**
 * The real path of `path`, resolving links on the longest leading part that exists (so a file
 * about to be created still resolves through a linked directory). Errors other than a missing
 * part are thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { realPathOf } from "./paths.ts";
 * assert.ok(realPathOf(Deno.cwd() + "/not-yet-created.txt").endsWith("/not-yet-created.txt"));
 * ```
 */
export function realPathOf(path: string): string {
  const rest: string[] = [];
  let existing = path;
  for (;;) {
    try {
      const real = Deno.realPathSync(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (error) {
      const parent = dirname(existing);
      if (!(error instanceof Deno.errors.NotFound) || parent === existing) throw error;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}
