/**
 * The lexical path functions the tools' start-up modules use (`join`, `resolve`, `relative`,
 * `dirname`, `basename`, `isAbsolute`, `normalize`, `sep`, `fromFileUrl`), with node:path's and
 * node:url's answers, without loading Deno's Node compatibility layer on a POSIX system.
 *
 * Why: the first `node:` import of a process loads that layer. Measured on this project's
 * two-core machine, `node:path` and `node:util` cost a command 8–13 ms of start-up, about 5 % of
 * an unindexed discover of the Linux tree and 10 % of an indexed one. On Windows these are
 * node:path and node:url themselves (their drive letters and separators are not rewritten
 * here). A property test holds the POSIX functions to `node:path`'s `posix` ones.
 *
 * @module
 */

/** node:path and node:url, loaded only on Windows, whose path syntax this module leaves to them. */
const windows = Deno.build.os === "windows"
  ? { path: await import("node:path"), url: await import("node:url") }
  : undefined;

/** The segments of `path` with `.` and empty ones dropped and `..` applied. */
function segmentsOf(path: string, absolute: boolean): string[] {
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") kept.push(segment);
    else if (kept.length > 0 && kept[kept.length - 1] !== "..") kept.pop();
    // Above the root there is only the root; above a relative start, `..` stays.
    else if (!absolute) kept.push("..");
  }
  return kept;
}

function normalizePosix(path: string): string {
  if (path === "") return ".";
  const absolute = path.charCodeAt(0) === 47;
  const trailing = path.charCodeAt(path.length - 1) === 47;
  const body = segmentsOf(path, absolute).join("/");
  if (absolute) return body === "" ? "/" : `/${body}${trailing ? "/" : ""}`;
  if (body === "") return trailing ? "./" : ".";
  return trailing ? `${body}/` : body;
}

function joinPosix(...paths: string[]): string {
  const joined = paths.filter((path) => path !== "").join("/");
  return joined === "" ? "." : normalizePosix(joined);
}

function resolvePosix(...paths: string[]): string {
  let resolved = "";
  for (let at = paths.length - 1; at >= -1 && !resolved.startsWith("/"); at--) {
    const path = at >= 0 ? paths[at] : Deno.cwd();
    if (path !== "") resolved = resolved === "" ? path : `${path}/${resolved}`;
  }
  const absolute = resolved.startsWith("/");
  const body = segmentsOf(resolved, absolute).join("/");
  return absolute ? `/${body}` : body === "" ? "." : body;
}

function relativePosix(from: string, to: string): string {
  if (from === to) return "";
  const fromSegments = segmentsOf(resolvePosix(from), true);
  const toSegments = segmentsOf(resolvePosix(to), true);
  let shared = 0;
  while (
    shared < fromSegments.length && shared < toSegments.length &&
    fromSegments[shared] === toSegments[shared]
  ) shared++;
  const up = Array.from({ length: fromSegments.length - shared }, () => "..");
  return [...up, ...toSegments.slice(shared)].join("/");
}

/** The index where `path`'s last segment ends: trailing slashes (but a leading one) skipped. */
function lastSegmentEnd(path: string): number {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end;
}

function dirnamePosix(path: string): string {
  if (path === "") return ".";
  const end = lastSegmentEnd(path);
  const slash = path.lastIndexOf("/", end - 1);
  // The slash at index 0 is the root: a name directly under it has the root for folder.
  if (slash < 1) return path.charCodeAt(0) === 47 ? "/" : ".";
  // node:path keeps a run of slashes but its last, except a leading `//`, which it keeps whole.
  if (slash === 1 && path.charCodeAt(0) === 47) return "//";
  return path.slice(0, slash);
}

function basenamePosix(path: string): string {
  const end = lastSegmentEnd(path);
  if (end === 1 && path.charCodeAt(0) === 47) return "";
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/** A `%2F` in a file URL would decode to a separator inside a name: node:url refuses it too. */
const ENCODED_SLASH = /%2f/i;

function fromFileUrlPosix(url: URL | string): string {
  const parsed = typeof url === "string" ? new URL(url) : url;
  if (parsed.protocol !== "file:") throw new TypeError(`not a file URL: ${parsed.href}`);
  if (parsed.hostname !== "") throw new TypeError(`a file URL with a host: ${parsed.href}`);
  if (ENCODED_SLASH.test(parsed.pathname)) {
    throw new TypeError(`a file URL path must not hold an encoded '/': ${parsed.href}`);
  }
  return decodeURIComponent(parsed.pathname);
}

/**
 * The path separator: `/` (`\` on Windows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sep } from "./path_syntax.ts";
 * assert.equal(sep.length, 1); // "/", or "\\" on Windows
 * ```
 */
export const sep: string = windows?.path.sep ?? "/";

/**
 * `path` with `.` segments, `..` segments and doubled separators resolved (a trailing separator
 * kept), as node:path's `normalize`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalize } from "./path_syntax.ts";
 * assert.equal(normalize("/a//b/../c/."), "/a/c");
 * ```
 */
export const normalize: (path: string) => string = windows?.path.normalize ?? normalizePosix;

/**
 * The non-empty `paths` joined by the separator and normalised, as node:path's `join`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "./path_syntax.ts";
 * assert.equal(join("src", "../lib", "mod.ts"), "lib/mod.ts");
 * ```
 */
export const join: (...paths: string[]) => string = windows?.path.join ?? joinPosix;

/**
 * The absolute path `paths` lead to from the working directory, right to left up to the first
 * absolute one, as node:path's `resolve` (the working directory needs read permission only when
 * no path is absolute).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolve } from "./path_syntax.ts";
 * assert.equal(resolve("/repo", "src", "../README.md"), "/repo/README.md");
 * ```
 */
export const resolve: (...paths: string[]) => string = windows?.path.resolve ?? resolvePosix;

/**
 * The path from `from` to `to`, both resolved first (`""` when they are the same), as
 * node:path's `relative`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relative } from "./path_syntax.ts";
 * assert.equal(relative("/repo/src", "/repo/tests/a_test.ts"), "../tests/a_test.ts");
 * ```
 */
export const relative: (from: string, to: string) => string = windows?.path.relative ??
  relativePosix;

/**
 * The folder part of `path` (trailing separators ignored), as node:path's `dirname`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dirname } from "./path_syntax.ts";
 * assert.equal(dirname("/repo/src/mod.ts"), "/repo/src");
 * ```
 */
export const dirname: (path: string) => string = windows?.path.dirname ?? dirnamePosix;

/**
 * The last segment of `path` (trailing separators ignored), as node:path's `basename` without
 * a suffix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { basename } from "./path_syntax.ts";
 * assert.equal(basename("/repo/src/"), "src");
 * ```
 */
export const basename: (path: string) => string = windows?.path.basename ?? basenamePosix;

/**
 * Whether `path` is absolute, as node:path's `isAbsolute`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isAbsolute } from "./path_syntax.ts";
 * assert.equal(isAbsolute("/repo"), true);
 * assert.equal(isAbsolute("repo"), false);
 * ```
 */
export const isAbsolute: (path: string) => boolean = windows?.path.isAbsolute ??
  ((path) => path.charCodeAt(0) === 47);

/**
 * The path a `file:` URL names, percent escapes decoded, as node:url's `fileURLToPath`
 * (a URL of another scheme, with a host, or with an encoded separator is refused).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromFileUrl } from "./path_syntax.ts";
 * assert.equal(fromFileUrl("file:///repo/a%20b.ts"), "/repo/a b.ts");
 * ```
 */
export const fromFileUrl: (url: URL | string) => string = windows?.url.fileURLToPath ??
  fromFileUrlPosix;
