/**
 * `--glob` and `--type` filters, ripgrep's way. Globs are ripgrep's overrides: gitignore-style
 * rules (see `glob_rules.ts`) matched against the path relative to the working directory, the
 * last matching glob wins, `!` negates; a glob's verdict beats ignore rules and hiddenness, and
 * when any positive glob is given a file must match one. Types match the basename; a file of a
 * selected type is whitelisted (ripgrep lets it through even when hidden).
 *
 * @module
 */
import { ToolError } from "../../schema/diagnostic.ts";
import type { CodePrefix } from "../../schema/error_codes.ts";
import { FILE_TYPE_NAMES, FILE_TYPES } from "./file_types.ts";
import { basenameMatcher, RuleSet, type RuleVerdict } from "./glob_rules.ts";

type Matcher = (path: string) => boolean;

/** The globs as one rule set; throws `*-ARG-004` naming the first glob ripgrep would refuse. */
function compileGlobs(prefix: CodePrefix, globs: readonly string[]): RuleSet {
  const rules = new RuleSet(globs);
  const [first] = rules.errors;
  if (first) {
    throw new ToolError(`${prefix}-ARG-004`, `invalid glob '${first.line}': ${first.reason}`, {
      note: first.line,
    });
  }
  return rules;
}

/** Decides which walked paths pass `--glob`, `--type` and `--type-not`. */
export class PathFilter {
  readonly #globs: RuleSet;
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
    this.#globs = compileGlobs(prefix, globs);
    this.#hasPositive = this.#globs.hasPositive;
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
    return basenameMatcher(patterns);
  }

  /** Whether there are globs (the walker can skip building their paths otherwise). */
  get hasGlobs(): boolean {
    return !this.#globs.isEmpty;
  }

  /**
   * The globs' verdict on a path relative to the working directory: `"whitelist"` (searched
   * whatever the ignore rules say), `"ignore"`, or `undefined` (the other rules decide).
   */
  globVerdict(path: string, isDir: boolean): RuleVerdict {
    if (this.#globs.isEmpty) return undefined;
    const verdict = this.#globs.verdict(path, isDir);
    // A glob names what to search: its rule "ignores" in gitignore terms, so it is inverted.
    if (verdict) return verdict === "ignore" ? "whitelist" : "ignore";
    return this.#hasPositive && !isDir ? "ignore" : undefined;
  }

  /** The types' verdict on a file's basename; directories have no type. */
  typeVerdict(name: string, isDir: boolean): RuleVerdict {
    if (isDir) return undefined;
    if (this.#typesNot?.(name)) return "ignore";
    if (!this.#types) return undefined;
    return this.#types(name) ? "whitelist" : "ignore";
  }

  /** Whether a directory itself is listed (for `--kind dir`): with positive globs, one must match it. */
  listsDir(path: string): boolean {
    return !this.#hasPositive || this.#globs.verdict(path, true) === "ignore";
  }
}
