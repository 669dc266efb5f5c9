/**
 * Gitignore-style rules with ripgrep's semantics, shared by ignore files and `--glob`: each
 * line is a glob in the syntax of ripgrep's `globset` (`*` and `?` never cross `/`, `**` as a
 * whole path component crosses any number of them, `[...]`/`[!...]` classes, `{a,b}`
 * alternatives, `\` escapes), with git's line rules (`#` comments, `!` negation, `\#`/`\!`
 * literals, trailing blanks dropped unless escaped, a leading or inner `/` anchors the glob
 * to the rule file's directory, a trailing `/` matches directories only).
 *
 * A path is matched on its own, never through its parent directories: the walker never enters
 * an ignored directory, and a root named inside one is searched with the rules that apply to
 * its entries, as ripgrep does. (The `ignore` npm package answers for the parents too and
 * implements git's wildmatch rather than ripgrep's globs, which is why the rules are compiled
 * here.)
 *
 * @module
 */

/** A glob that does not parse; the message says what is wrong, as ripgrep words it. */
export class GlobSyntaxError extends Error {
  /** Names the error class. */
  override readonly name = "GlobSyntaxError";
}

/** What a rule set says about a path. */
export type RuleVerdict = "ignore" | "whitelist" | undefined;

interface Rule {
  negated: boolean;
  dirOnly: boolean;
  regex: RegExp;
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g;

function literal(char: string): string {
  return char.replace(REGEX_SPECIAL, "\\$&");
}

/** Parses `[...]` starting at `start` (the `[`); returns the regex class and the next index. */
function charClass(glob: string, start: number): { source: string; next: number } {
  let i = start + 1;
  let negated = false;
  if (glob[i] === "!" || glob[i] === "^") {
    negated = true;
    i++;
  }
  const items: string[] = [];
  let first = true;
  for (;;) {
    if (i >= glob.length) throw new GlobSyntaxError("unclosed character class; missing ']'");
    // A backslash in a class is itself, as in ripgrep: `[\\]` is a class of one backslash.
    const char = glob[i];
    if (char === "]" && !first) break;
    first = false;
    i++;
    if (glob[i] === "-" && i + 1 < glob.length && glob[i + 1] !== "]") {
      const end = glob[i + 1];
      i += 2;
      if (end < char) throw new GlobSyntaxError(`invalid range; '${char}' > '${end}'`);
      items.push(`${literal(char)}-${literal(end)}`);
    } else items.push(literal(char));
  }
  return { source: `[${negated ? "^/" : ""}${items.join("")}]`, next: i + 1 };
}

/** A run of `*` at `start`: recursive when it is a whole path component. */
function stars(glob: string, start: number): { source: string; next: number } {
  let end = start;
  while (glob[end] === "*") end++;
  const atStart = start === 0 || glob[start - 1] === "/";
  const atEnd = end === glob.length || glob[end] === "/";
  if (end - start < 2 || !atStart || !atEnd) return { source: "[^/]*", next: end };
  // A trailing `**` (or `**/`, left when a rule is only `!`) matches everything below.
  if (end >= glob.length - 1) return { source: ".*", next: glob.length };
  // `**/`: zero or more whole directories.
  return { source: "(?:.*/)?", next: end + 1 };
}

/**
 * The regular-expression source of one glob in ripgrep's syntax. Throws
 * {@linkcode GlobSyntaxError} where ripgrep refuses the glob.
 */
function globSource(glob: string): string {
  let out = "";
  // Inside `{...}`: the finished alternatives and the one being built.
  let alternatives: string[] | undefined;
  const emit = (source: string) => {
    if (alternatives) alternatives[alternatives.length - 1] += source;
    else out += source;
  };
  for (let i = 0; i < glob.length;) {
    const char = glob[i];
    if (char === "\\") {
      if (i + 1 >= glob.length) throw new GlobSyntaxError("dangling '\\'");
      emit(literal(glob[i + 1]));
      i += 2;
    } else if (char === "?") {
      emit("[^/]");
      i++;
    } else if (char === "*") {
      const run = stars(glob, i);
      emit(run.source);
      i = run.next;
    } else if (char === "[") {
      const parsed = charClass(glob, i);
      emit(parsed.source);
      i = parsed.next;
    } else if (char === "{") {
      if (alternatives) throw new GlobSyntaxError("nested alternate groups are not allowed");
      alternatives = [""];
      i++;
    } else if (char === "," && alternatives) {
      alternatives.push("");
      i++;
    } else if (char === "}") {
      // ripgrep drops empty alternatives (`{,a}` is `{a}`) and a `}` that closes no group.
      if (alternatives) {
        out += `(?:${alternatives.filter((alternative) => alternative !== "").join("|")})`;
      }
      alternatives = undefined;
      i++;
    } else {
      emit(literal(char));
      i++;
    }
  }
  if (alternatives) {
    throw new GlobSyntaxError(
      "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
    );
  }
  return out;
}

/** A glob that is `*` then plain characters (no glob syntax): it matches names ending so. */
const SUFFIX_GLOB = /^\*([^*?[\]{}\\]+)$/;

/**
 * Whether a name is matched by any of `globs` (ripgrep's syntax, matched against a file's
 * basename as ripgrep's file types are: no line rules, no `/` anchoring). `*.ext` globs are
 * suffix tests; the others make one expression, tested once (one expression per glob cost
 * 62 ms over Linux's 78,000 names for ten globs). Throws {@linkcode GlobSyntaxError} for a glob
 * ripgrep refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { basenameMatcher } from "./glob_rules.ts";
 * const make = basenameMatcher(["*.mk", "Makefile", "Kconfig*"]);
 * assert.deepEqual(
 *   [make("rules.mk"), make("Kconfig.debug"), make("rules.mk.bak")],
 *   [true, true, false],
 * );
 * ```
 */
export function basenameMatcher(globs: readonly string[]): (name: string) => boolean {
  const suffixes: string[] = [];
  const others: string[] = [];
  for (const glob of globs) {
    const suffix = SUFFIX_GLOB.exec(glob)?.[1];
    if (suffix === undefined) others.push(glob);
    else suffixes.push(suffix);
  }
  const regex = others.length > 0
    ? new RegExp(`^(?:${others.map(globSource).join("|")})$`, "s")
    : undefined;
  return (name) => suffixes.some((suffix) => name.endsWith(suffix)) || (regex?.test(name) ?? false);
}

/**
 * One line of an ignore file (or one `--glob`) as a rule, or `undefined` for a blank line or a
 * comment. Throws {@linkcode GlobSyntaxError} for a glob ripgrep refuses.
 */
function parseLine(line: string): Rule | undefined {
  let text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.startsWith("#")) return undefined;
  if (!text.endsWith("\\ ")) text = text.trimEnd();
  if (text === "") return undefined;
  let negated = false;
  if (text.startsWith("\\!") || text.startsWith("\\#")) text = text.slice(1);
  else if (text.startsWith("!")) {
    negated = true;
    text = text.slice(1);
  }
  let anchored = false;
  if (text.startsWith("/")) {
    anchored = true;
    text = text.slice(1);
  }
  let dirOnly = false;
  if (text.endsWith("/")) {
    dirOnly = true;
    text = text.slice(0, -1);
    // An escaped trailing slash is a slash too (upstream ripgrep, BurntSushi/ripgrep#2236;
    // ripgrep 13 refused `x\/` as a dangling escape).
    if (text.endsWith("\\")) text = text.slice(0, -1);
  }
  // What is left may be empty (`/`, `!`): a rule that matches no path, as in ripgrep.
  let glob = text;
  if (!anchored && !glob.includes("/") && !glob.startsWith("**/")) glob = `**/${glob}`;
  // `dir/**` matches what is inside `dir`, not `dir` itself.
  if (glob.endsWith("/**")) glob += "/*";
  return { negated, dirOnly, regex: new RegExp(`^${globSource(glob)}$`, "s") };
}

/** The rules of one ignore file (or of the `--glob` list), the last matching rule deciding. */
export class RuleSet {
  readonly #rules: Rule[] = [];
  /** Lines that did not parse, with ripgrep's reason; they are skipped. */
  readonly errors: { line: string; reason: string }[] = [];

  /** Compiles `lines`; a line that does not parse is skipped and listed in `errors`. */
  constructor(lines: Iterable<string>) {
    for (const line of lines) {
      try {
        const rule = parseLine(line);
        if (rule) this.#rules.push(rule);
      } catch (error) {
        if (!(error instanceof GlobSyntaxError)) throw error;
        this.errors.push({ line, reason: error.message });
      }
    }
  }

  /** Whether the set has no rule at all. */
  get isEmpty(): boolean {
    return this.#rules.length === 0;
  }

  /** Whether any rule is a positive (not negated) one. */
  get hasPositive(): boolean {
    return this.#rules.some((rule) => !rule.negated);
  }

  /**
   * What the last rule matching `relPath` (relative to the rules' directory, `/`-separated)
   * says: `"ignore"` for a plain rule, `"whitelist"` for a negated one.
   */
  verdict(relPath: string, isDir: boolean): RuleVerdict {
    for (let i = this.#rules.length - 1; i >= 0; i--) {
      const rule = this.#rules[i];
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(relPath)) return rule.negated ? "whitelist" : "ignore";
    }
    return undefined;
  }
}
