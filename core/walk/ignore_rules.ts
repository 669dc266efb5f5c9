/**
 * Ignore files (`.gitignore` inside a git work tree, `.ignore`, `.llmignore`) as a stack of
 * matchers, one per directory, where a deeper file overrides a shallower one.
 *
 * @module
 */
import ignore, { type Ignore } from "ignore";
import { dirname, join, sep } from "node:path";

/** Ignore files read in every directory, in increasing precedence. */
export const IGNORE_FILES: readonly string[] = [".gitignore", ".ignore", ".llmignore"];

/** The rules of one directory. */
export interface IgnoreLayer {
  /** Absolute directory the patterns are relative to. */
  dir: string;
  /** Compiled patterns. */
  matcher: Ignore;
}

function canRead(path: string): boolean {
  return Deno.permissions.querySync({ name: "read", path }).state === "granted";
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (
      error instanceof Deno.errors.NotFound || error instanceof Deno.errors.IsADirectory ||
      error instanceof Deno.errors.NotADirectory
    ) return undefined;
    throw error;
  }
}

/**
 * Finds the root of the git work tree holding `dir` (the nearest ancestor with `.git`), without
 * reading anything the run has no permission for.
 */
export function findGitRoot(dir: string): string | undefined {
  for (let current = dir;; current = dirname(current)) {
    if (!canRead(current)) return undefined;
    try {
      Deno.lstatSync(join(current, ".git"));
      return current;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) return undefined;
    }
    if (dirname(current) === current) return undefined;
  }
}

/**
 * The layer of `dir`'s ignore files, or `undefined` when it has none. `names` are the entry
 * names of `dir` when already listed (saves a failed open per file); `.gitignore` counts only
 * in a git work tree.
 */
export function layerFor(
  dir: string,
  inGitTree: boolean,
  names?: ReadonlySet<string>,
): IgnoreLayer | undefined {
  let matcher: Ignore | undefined;
  for (const file of IGNORE_FILES) {
    if (file === ".gitignore" && !inGitTree) continue;
    if (names && !names.has(file)) continue;
    const text = readText(join(dir, file));
    if (text === undefined) continue;
    matcher ??= ignore({ allowRelativePaths: true });
    matcher.add(text);
  }
  return matcher ? { dir, matcher } : undefined;
}

/**
 * Whether `absPath` is ignored by the stack: the deepest layer with an opinion decides, so a
 * negation in a nested file re-includes what a parent file ignored.
 */
export function isIgnored(
  layers: readonly IgnoreLayer[],
  absPath: string,
  isDir: boolean,
): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i];
    // Both paths are absolute and normalised (the walker builds them by joining names), so
    // slicing replaces path.relative, which resolves both paths on every call.
    if (absPath.length <= layer.dir.length || !absPath.startsWith(layer.dir)) continue;
    if (absPath[layer.dir.length] !== sep && !layer.dir.endsWith(sep)) continue;
    let rel = absPath.slice(layer.dir.endsWith(sep) ? layer.dir.length : layer.dir.length + 1);
    if (sep !== "/") rel = rel.split(sep).join("/");
    const verdict = layer.matcher.test(isDir ? rel + "/" : rel);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/**
 * The layers that apply above a walk root inside a git work tree: `.git/info/exclude` first,
 * then the ignore files of every directory from the git root down to, not including, `root`.
 * Directories the run may not read are skipped.
 */
export function ancestorLayers(root: string, gitRoot: string | undefined): IgnoreLayer[] {
  if (!gitRoot) return [];
  const layers: IgnoreLayer[] = [];
  const excludePath = join(gitRoot, ".git", "info", "exclude");
  const exclude = canRead(excludePath) ? readText(excludePath) : undefined;
  if (exclude) {
    layers.push({ dir: gitRoot, matcher: ignore({ allowRelativePaths: true }).add(exclude) });
  }
  const dirs: string[] = [];
  for (let current = root; current !== gitRoot;) {
    current = dirname(current);
    dirs.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const dir of dirs) {
    if (!canRead(dir)) continue;
    const layer = layerFor(dir, true);
    if (layer) layers.push(layer);
  }
  // A root named explicitly is walked even when an ancestor's rules ignore it (as in
  // ripgrep); such a layer would otherwise hide every entry below the root, because the
  // rules also exclude everything under an excluded directory.
  return layers.filter((layer) => !isIgnored([layer], root, true));
}
