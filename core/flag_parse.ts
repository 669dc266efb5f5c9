/**
 * A command line's flags and positionals, parsed as node:util's `parseArgs` does with
 * `strict: true` and `allowPositionals: true` (the only way the tools call it), without loading
 * Deno's Node compatibility layer: the first `node:` import of a process costs a command 8–13 ms
 * of start-up on this project's machine (see `path_syntax.ts`). A property test holds it to
 * `parseArgs` on generated command lines: the same values and positionals, or a refusal of
 * both. Its messages are its own.
 *
 * What it accepts, as `parseArgs`: `--name`, `--name=value`, `--name value`, `-n`, `-n value`,
 * `-nvalue`, grouped letters (`-abn value`), `--` before positionals only; a value-taking flag
 * takes the next argument whatever it is, and refuses one that looks like a flag (`-x`) unless
 * given inline (`--name=-x`).
 *
 * @module
 */

/** How one flag takes its value (a `parseArgs` option). */
export interface FlagOption {
  /** `boolean` flags take no value; `string` flags take one. */
  type: "boolean" | "string";
  /** The flag may be given several times; its values are collected in order. */
  multiple?: boolean;
  /** Its single-letter name. */
  short?: string;
}

/** A flag's parsed value: `true` for a boolean flag, the text for a string one. */
export type FlagValue = string | boolean;

/** What a command line holds: each given flag's value(s) by long name, and the positionals. */
export interface ParsedFlags {
  /** Values by long flag name (a null-prototype object); arrays for `multiple` flags. */
  values: Record<string, FlagValue | FlagValue[]>;
  /** The arguments that are not flags or their values, in order. */
  positionals: string[];
}

/**
 * A command line the flags refuse: an unknown flag, a missing value, a value given to a flag
 * that takes none, or a value that looks like a flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FlagError, parseFlags } from "./flag_parse.ts";
 * assert.throws(() => parseFlags(["--nope"], {}), FlagError);
 * ```
 */
export class FlagError extends Error {
  /** Makes the error of `message`. */
  constructor(message: string) {
    super(message);
    this.name = "FlagError";
  }
}

/** One flag occurrence: the name it resolves to, as written, and its value if any. */
interface Occurrence {
  name: string;
  written: string;
  value?: string;
  inline: boolean;
}

class FlagReader {
  readonly values: Record<string, FlagValue | FlagValue[]> = Object.create(null);
  readonly positionals: string[] = [];
  readonly #options: Readonly<Record<string, FlagOption>>;
  /** Long names by short name, the first option with it winning (as in `parseArgs`). */
  readonly #byLetter = new Map<string, string>();

  constructor(options: Readonly<Record<string, FlagOption>>) {
    this.#options = options;
    for (const [name, option] of Object.entries(options)) {
      if (option.short !== undefined && !this.#byLetter.has(option.short)) {
        this.#byLetter.set(option.short, name);
      }
    }
  }

  /** The long name of letter `letter`: the first option with that short name, else the letter. */
  longName(letter: string): string {
    return this.#byLetter.get(letter) ?? letter;
  }

  takesValue(name: string): boolean {
    return Object.hasOwn(this.#options, name) && this.#options[name].type === "string";
  }

  store({ name, written, value, inline }: Occurrence): void {
    if (!Object.hasOwn(this.#options, name)) {
      throw new FlagError(
        `unknown flag '${written}' (an argument that starts with '-' goes after '--', as in ` +
          `-- ${JSON.stringify(written)})`,
      );
    }
    const option = this.#options[name];
    const shown = `${option.short ? `-${option.short}, ` : ""}--${name}`;
    if (option.type === "string" && value === undefined) {
      throw new FlagError(`flag '${shown}' needs a value`);
    }
    if (option.type === "boolean" && value !== undefined) {
      throw new FlagError(`flag '${shown}' takes no value, got '${value}'`);
    }
    if (!inline && value !== undefined && value.length > 1 && value.startsWith("-")) {
      throw new FlagError(
        `flag '${written}' would take '${value}' as its value: give a value, or write ` +
          `--${name}=${value} if that is the value meant`,
      );
    }
    const stored = value ?? true;
    if (!option.multiple) this.values[name] = stored;
    else {
      const previous = this.values[name];
      if (Array.isArray(previous)) previous.push(stored);
      else this.values[name] = [stored];
    }
  }
}

/**
 * The letters of a group (`-abf`) as separate arguments; the first value-taking letter that is
 * not the last takes the rest of the group as its value (`-abfFILE` → `-a -b -fFILE`).
 */
function ungroup(reader: FlagReader, group: string): string[] {
  const split: string[] = [];
  for (let at = 1; at < group.length; at++) {
    if (at < group.length - 1 && reader.takesValue(reader.longName(group[at]))) {
      split.push(`-${group.slice(at)}`);
      break;
    }
    split.push(`-${group[at]}`);
  }
  return split;
}

/**
 * Parses `args` by `options`, as node:util's `parseArgs({ args, options, strict: true,
 * allowPositionals: true })`. Throws a {@linkcode FlagError} for what that would refuse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlags } from "./flag_parse.ts";
 * const options = {
 *   count: { type: "string" as const, short: "n" },
 *   all: { type: "boolean" as const },
 * };
 * const { values, positionals } = parseFlags(["-n", "3", "--all", "query"], options);
 * assert.deepEqual([values.count, values.all, positionals], ["3", true, ["query"]]);
 * ```
 */
export function parseFlags(
  args: readonly string[],
  options: Readonly<Record<string, FlagOption>>,
): ParsedFlags {
  const reader = new FlagReader(options);
  const queue = [...args];
  for (let at = 0; at < queue.length; at++) {
    const arg = queue[at];
    const next = at + 1 < queue.length ? queue[at + 1] : undefined;
    if (arg === "--") {
      reader.positionals.push(...queue.slice(at + 1));
      break;
    }
    if (arg.length < 2 || arg[0] !== "-") reader.positionals.push(arg);
    else if (arg[1] !== "-") {
      const name = reader.longName(arg[1]);
      const takes = reader.takesValue(name);
      if (arg.length === 2) {
        const value = takes ? next : undefined;
        if (value !== undefined) at++;
        reader.store({ name, written: arg, value, inline: false });
      } else if (takes) {
        reader.store({ name, written: arg.slice(0, 2), value: arg.slice(2), inline: true });
      } else queue.splice(at--, 1, ...ungroup(reader, arg));
    } else if (arg.indexOf("=", 3) === -1) {
      const name = arg.slice(2);
      const value = reader.takesValue(name) ? next : undefined;
      if (value !== undefined) at++;
      reader.store({ name, written: arg, value, inline: false });
    } else {
      const equals = arg.indexOf("=");
      const name = arg.slice(2, equals);
      reader.store({ name, written: `--${name}`, value: arg.slice(equals + 1), inline: true });
    }
  }
  return { values: reader.values, positionals: reader.positionals };
}
