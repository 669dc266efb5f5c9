/**
 * `--glob` and `--type` filters, ripgrep's way: globs are matched against the path relative
 * to the search root (a glob without `/` against the basename), the last matching glob wins,
 * `!` negates, and when any positive glob is given a file must match one.
 *
 * @module
 */
import picomatch from "picomatch";
import { ToolError } from "../../schema/diagnostic.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import { FILE_TYPE_NAMES, FILE_TYPES } from "./file_types.ts";

type Matcher = (path: string) => boolean;

interface CompiledGlob {
  negated: boolean;
  onBasename: boolean;
  match: Matcher;
}

function compile(prefix: CodePrefix, glob: string): CompiledGlob {
  const negated = glob.startsWith("!");
  let pattern = negated ? glob.slice(1) : glob;
  const anchored = pattern.startsWith("/");
  if (anchored) pattern = pattern.slice(1);
  if (pattern.endsWith("/")) pattern = pattern.slice(0, -1);
  if (pattern === "") {
    throw new ToolError(`${prefix}-ARG-004`, `empty glob '${glob}'`, { note: glob });
  }
  try {
    const match = picomatch(pattern, { dot: true });
    return { negated, onBasename: !anchored && !pattern.includes("/"), match };
  } catch (error) {
    throw new ToolError(`${prefix}-ARG-004`, `invalid glob '${glob}': ${String(error)}`, {
      note: glob,
    });
  }
}

/** Decides which walked paths pass `--glob`, `--type` and `--type-not`. */
export class PathFilter {
  readonly #globs: CompiledGlob[];
  readonly #hasPositive: boolean;
  readonly #types: Matcher | undefined;
  readonly #typesNot: Matcher | undefined;

  /** Compiles the filters; throws `*-ARG-003`/`*-ARG-004` for unknown types or bad globs. */
  constructor(
    prefix: CodePrefix,
    globs: readonly string[] = [],
    types: readonly string[] = [],
    typesNot: readonly string[] = [],
  ) {
    this.#globs = globs.map((glob) => compile(prefix, glob));
    this.#hasPositive = this.#globs.some((glob) => !glob.negated);
    this.#types = PathFilter.#typeMatcher(prefix, types);
    this.#typesNot = PathFilter.#typeMatcher(prefix, typesNot);
  }

  static #typeMatcher(prefix: CodePrefix, names: readonly string[]): Matcher | undefined {
    if (names.length === 0) return undefined;
    const patterns: string[] = [];
    for (const name of names) {
      const globs = FILE_TYPES[name];
      if (!globs) {
        throw new ToolError(`${prefix}-ARG-003`, `unknown file type '${name}'`, {
          note: `known types: ${FILE_TYPE_NAMES.join(", ")}`,
        });
      }
      patterns.push(...globs);
    }
    return picomatch(patterns, { dot: true });
  }

  /** Whether the filters are all empty (the walker can skip calling them). */
  get isEmpty(): boolean {
    return this.#globs.length === 0 && !this.#types && !this.#typesNot;
  }

  #lastGlobVerdict(relPath: string, name: string): boolean | undefined {
    for (let i = this.#globs.length - 1; i >= 0; i--) {
      const glob = this.#globs[i];
      if (glob.match(glob.onBasename ? name : relPath)) return !glob.negated;
    }
    return undefined;
  }

  /** Whether a file (path relative to its search root, and basename) is kept. */
  acceptsFile(relPath: string, name: string): boolean {
    const verdict = this.#lastGlobVerdict(relPath, name);
    if (verdict === false || (verdict === undefined && this.#hasPositive)) return false;
    if (this.#types && !this.#types(name)) return false;
    if (this.#typesNot && this.#typesNot(name)) return false;
    return true;
  }

  /** Whether the walk descends into a directory: only a negated glob can prune one. */
  entersDir(relPath: string, name: string): boolean {
    return this.#lastGlobVerdict(relPath, name) !== false;
  }

  /** Whether a directory itself is listed (for `--kind dir`): globs apply, types do not. */
  acceptsDir(relPath: string, name: string): boolean {
    const verdict = this.#lastGlobVerdict(relPath, name);
    return verdict === true || (verdict === undefined && !this.#hasPositive);
  }
}
