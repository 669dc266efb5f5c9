/**
 * Ignore files as ripgrep applies them: every directory from the file system root down to the
 * walked entry may hold `.gitignore`, `.ignore` and `.llmignore` (ours, ripgrep's `.rgignore`),
 * and a `.git` (then also `.git/info/exclude`). For each kind of file the deepest one with an
 * opinion decides; across kinds `.llmignore` beats `.ignore`, which beats `.gitignore`, which
 * beats `.git/info/exclude` — so a `!x` in a nested `.gitignore` does not re-include what a
 * parent's `.ignore` excludes. Git's files count only inside a git work tree, and never from
 * above the nearest directory holding a `.git`.
 *
 * @module
 */
import { dirname, join, sep } from "../path_syntax.ts";
import { RuleSet, type RuleVerdict } from "./glob_rules.ts";

/** Ignore files read in every directory. */
export const IGNORE_FILES: readonly string[] = [".gitignore", ".ignore", ".llmignore"];

/**
 * What a walk stamps in each directory above its root (`/`-separated, relative to it): the
 * ignore files and `.git` that would shape the walk if they appeared or changed.
 */
export const ANCESTOR_STAMPS: readonly string[] = [...IGNORE_FILES, ".git", ".git/info/exclude"];

/** A kind of ignore rules: `.llmignore`, `.ignore`, `.gitignore` or `.git/info/exclude`. */
export type IgnoreKind = "llm" | "ignore" | "git" | "exclude";

/** The kinds in decreasing precedence. */
const KINDS: readonly IgnoreKind[] = ["llm", "ignore", "git", "exclude"];

const KIND_OF_FILE: Readonly<Record<string, IgnoreKind>> = {
  ".llmignore": "llm",
  ".ignore": "ignore",
  ".gitignore": "git",
};

/** The rules of one directory. */
export interface IgnoreLayer {
  /** Absolute directory the patterns are relative to. */
  dir: string;
  /** Whether the directory holds a `.git` (the top of a work tree). */
  hasGit: boolean;
  /** Compiled rules by kind. */
  rules: Partial<Record<IgnoreKind, RuleSet>>;
  /** Lines of its ignore files that are not valid globs: file path and reason. */
  errors: { file: string; line: string; reason: string }[];
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

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw error;
  }
}

/**
 * The layer of `dir`, or `undefined` when it has neither ignore files nor a `.git`. `names` are
 * the entry names of `dir` when already listed (saves a failed open per file). `inGitTree`
 * says whether a directory above holds a `.git`: a `.gitignore` above every `.git` never
 * applies, so it is not even read.
 */
export function layerFor(
  dir: string,
  inGitTree: boolean,
  names?: ReadonlySet<string>,
): IgnoreLayer | undefined {
  const hasGit = names ? names.has(".git") : exists(join(dir, ".git"));
  const layer: IgnoreLayer = { dir, hasGit, rules: {}, errors: [] };
  const add = (kind: IgnoreKind, path: string) => {
    const text = canRead(path) ? readText(path) : undefined;
    if (text === undefined) return;
    const rules = new RuleSet(text.split("\n"));
    if (!rules.isEmpty) layer.rules[kind] = rules;
    for (const error of rules.errors) layer.errors.push({ file: path, ...error });
  };
  for (const file of IGNORE_FILES) {
    if (file === ".gitignore" && !inGitTree && !hasGit) continue;
    if (!names || names.has(file)) add(KIND_OF_FILE[file], join(dir, file));
  }
  if (hasGit) add("exclude", join(dir, ".git", "info", "exclude"));
  const useful = hasGit || Object.keys(layer.rules).length > 0 || layer.errors.length > 0;
  return useful ? layer : undefined;
}

function relativeTo(dir: string, absPath: string): string | undefined {
  if (absPath.length <= dir.length || !absPath.startsWith(dir)) return undefined;
  const cut = dir.endsWith(sep) ? dir.length : dir.length + 1;
  if (!dir.endsWith(sep) && absPath[dir.length] !== sep) return undefined;
  const rel = absPath.slice(cut);
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/**
 * What the stack of layers (shallowest first) says about `absPath`: `"ignore"`, `"whitelist"`
 * (a negated rule re-includes it, which also lets a hidden entry through, as in ripgrep) or
 * `undefined` (no rule speaks).
 */
export function ignoreVerdict(
  layers: readonly IgnoreLayer[],
  absPath: string,
  isDir: boolean,
): RuleVerdict {
  const found: Partial<Record<IgnoreKind, RuleVerdict>> = {};
  const inGitTree = layers.some((layer) => layer.hasGit);
  let aboveGit = false;
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i];
    const rel = relativeTo(layer.dir, absPath);
    if (rel !== undefined) {
      for (const kind of KINDS) {
        if (found[kind] !== undefined) continue;
        if ((kind === "git" || kind === "exclude") && (!inGitTree || aboveGit)) continue;
        const verdict = layer.rules[kind]?.verdict(rel, isDir);
        if (verdict) found[kind] = verdict;
      }
    }
    if (layer.hasGit) aboveGit = true;
  }
  for (const kind of KINDS) if (found[kind]) return found[kind];
  return undefined;
}

/**
 * The layers of the directories above a walk root, from the file system root down to, not
 * including, `root`. It stops climbing at the first directory the run may not read (a scoped
 * `--allow-read`), so nothing outside the permitted paths is read.
 */
export function ancestorLayers(root: string): IgnoreLayer[] {
  const dirs = ancestorDirs(root).reverse();
  const layers: IgnoreLayer[] = [];
  for (const dir of dirs) {
    const layer = layerFor(dir, layers.some((above) => above.hasGit));
    if (layer) layers.push(layer);
  }
  return layers;
}

/** The directories `ancestorLayers` reads: whose change may change the walk. */
export function ancestorDirs(root: string): string[] {
  const dirs: string[] = [];
  for (let dir = dirname(root); dir !== root; root = dir, dir = dirname(dir)) {
    if (!canRead(dir)) break;
    dirs.push(dir);
  }
  return dirs;
}
