/**
 * Where an import or include points, as patterns over the index's root-relative paths: an
 * exact path (a relative import resolved against the importing file's folder) or a path suffix
 * (`/sys/types.h`, `/pkg/mod.py`) for targets found through include or module search paths.
 * Pure string work, so the resolution rules are unit-tested.
 *
 * @module
 */
import { posix } from "node:path";

/** One way a target may name a file. */
export interface PathPattern {
  /** The file is exactly this root-relative path. */
  exact?: string;
  /** The file's path ends with this (starting with `/`), or is it without the `/`. */
  suffix?: string;
}

const SCRIPT_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts"];

function scriptPatterns(target: string, dir: string): PathPattern[] {
  if (!target.startsWith(".")) return [];
  const base = posix.normalize(posix.join(dir, target));
  const stems = [base];
  const ext = posix.extname(base);
  if ([".js", ".jsx", ".mjs", ".cjs"].includes(ext)) stems.push(base.slice(0, -ext.length));
  const exact = new Set<string>([base]);
  for (const stem of stems) {
    for (const extension of SCRIPT_EXTENSIONS) exact.add(stem + extension);
    for (const extension of SCRIPT_EXTENSIONS) exact.add(`${stem}/index${extension}`);
  }
  return [...exact].map((path) => ({ exact: path }));
}

function pythonPatterns(target: string, dir: string): PathPattern[] {
  const dots = /^\.*/.exec(target)![0].length;
  const modulePath = target.slice(dots).split(".").filter(Boolean).join("/");
  if (dots > 0) {
    let base = dir;
    for (let level = 1; level < dots; level++) base = posix.dirname(base);
    const stem = posix.normalize(posix.join(base, modulePath || "."));
    return [{ exact: `${stem}.py` }, { exact: `${stem}/__init__.py` }];
  }
  return [{ suffix: `/${modulePath}.py` }, { suffix: `/${modulePath}/__init__.py` }];
}

function includePatterns(target: string, dir: string): PathPattern[] {
  const relative = posix.normalize(posix.join(dir, target));
  return [{ exact: relative }, { suffix: `/${posix.normalize(target).replace(/^(\.\.\/)+/, "")}` }];
}

function rustPatterns(target: string): PathPattern[] {
  const parts = target.split("::").filter((part) => !["crate", "self", "super"].includes(part));
  const patterns: PathPattern[] = [];
  for (let length = parts.length; length > 0; length--) {
    const stem = parts.slice(0, length).join("/");
    patterns.push({ suffix: `/${stem}.rs` }, { suffix: `/${stem}/mod.rs` });
  }
  return patterns;
}

function dottedPatterns(target: string, extensions: readonly string[]): PathPattern[] {
  const stem = target.replace(/\.\*$/, "").split(".").join("/");
  return extensions.map((extension) => ({ suffix: `/${stem}${extension}` }));
}

/**
 * The patterns of `target`, imported by the file `fromPath` written in `language`, best first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importPatterns } from "./import_paths.ts";
 * assert.deepEqual(importPatterns("c", "src/main.c", "util.h", "include")[0], { exact: "src/util.h" });
 * assert.deepEqual(importPatterns("python", "pkg/a.py", ".b", "import")[0], { exact: "pkg/b.py" });
 * ```
 */
export function importPatterns(
  language: string,
  fromPath: string,
  target: string,
  kind: "include" | "import",
): PathPattern[] {
  const dir = posix.dirname(fromPath);
  if (kind === "include") return includePatterns(target, dir);
  switch (language) {
    case "javascript":
    case "typescript":
    case "tsx":
      return scriptPatterns(target, dir);
    case "python":
      return pythonPatterns(target, dir);
    case "rust":
      return rustPatterns(target);
    case "java":
    case "kotlin":
    case "scala":
      return dottedPatterns(target, [".java", ".kt", ".scala"]);
    default:
      return target.startsWith(".") ? [{ exact: posix.normalize(posix.join(dir, target)) }] : [];
  }
}

/**
 * Whether `path` is a file `pattern` names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { patternMatches } from "./import_paths.ts";
 * assert.equal(patternMatches({ suffix: "/sys/types.h" }, "include/sys/types.h"), true);
 * assert.equal(patternMatches({ suffix: "/types.h" }, "include/mytypes.h"), false);
 * ```
 */
export function patternMatches(pattern: PathPattern, path: string): boolean {
  if (pattern.exact !== undefined) return path === pattern.exact;
  const suffix = pattern.suffix!;
  return path.endsWith(suffix) || path === suffix.slice(1);
}
