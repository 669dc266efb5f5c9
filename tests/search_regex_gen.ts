/**
 * Random patterns and file contents for the search matcher's property and differential tests:
 * a seeded generator, so a failing case is reproduced by its seed.
 *
 * @module
 */

/** A small seeded PRNG (mulberry32). */
export class Random {
  #state: number;
  /** A generator starting from `seed`. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** One of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The flags the generated cases vary (as `SearchOptions` names them). */
export interface SearchFlags {
  /** `-i` */
  ignoreCase: boolean;
  /** `-S` */
  smartCase: boolean;
  /** `-w` */
  wordRegexp: boolean;
  /** `-F` */
  fixedStrings: boolean;
  /** `-U` */
  multiline: boolean;
}

/** Random flags, `-i` with probability `ignoreCase`. */
export function randomFlags(random: Random, ignoreCase: number): SearchFlags {
  return {
    ignoreCase: random.chance(ignoreCase),
    smartCase: random.chance(0.15),
    wordRegexp: random.chance(0.2),
    fixedStrings: random.chance(0.1),
    multiline: random.chance(0.2),
  };
}

/** Which syntax a pattern may use. */
export interface Dialect {
  /** Syntax only JavaScript has (lookarounds, backreferences, `\cJ`, `\0`, named groups). */
  javascriptOnly: boolean;
  /** Characters outside ASCII in literals and text. */
  nonAscii: boolean;
  /** `\n` may appear in a pattern (only with -U). */
  newline: boolean;
}

const ASCII_LITERALS = ["a", "b", "c", "k", "s", "x", "_", "1", "2", " ", "K", "S", "A"];
const NON_ASCII_LITERALS = ["é", "É", "ſ", "\u212a", "Ω", "ω", "ä", "ß", "\ufffd", "😀"];
const ESCAPED_PUNCTUATION = ["\\.", "\\-", "\\(", "\\)", "\\[", "\\*", "\\+", "\\?", "\\{", "\\|"];
const SETS = ["\\w", "\\W", "\\d", "\\D", "\\s", "\\S", ".", "\\p{L}", "\\P{L}", "\\p{Lu}"];
const CLASS_ITEMS = ["a", "b", "k", "s", "a-c", "x-z", "0-9", "_", "\\d", "\\w", "\\s", "\\-", "é"];

function hex(code: number, width: number): string {
  return code.toString(16).toUpperCase().padStart(width, "0");
}

/** A literal character, plain or spelled as an escape. */
function literal(random: Random, dialect: Dialect): string {
  const char = dialect.nonAscii && random.chance(0.25)
    ? random.pick(NON_ASCII_LITERALS)
    : random.pick(ASCII_LITERALS);
  const code = char.codePointAt(0)!;
  const forms = [char, char, char];
  if (code < 0x80) forms.push(`\\x${hex(code, 2)}`);
  if (code <= 0xffff) forms.push(`\\u${hex(code, 4)}`);
  forms.push(`\\u{${hex(code, 1)}}`);
  return random.pick(forms);
}

function characterClass(random: Random, dialect: Dialect): string {
  const items = Array.from(
    { length: 1 + random.int(3) },
    () => {
      const item = random.pick(CLASS_ITEMS);
      return !dialect.nonAscii && item === "é" ? "e" : item;
    },
  );
  return `[${random.chance(0.35) ? "^" : ""}${items.join("")}]`;
}

function quantifier(random: Random): string {
  const base = random.pick(["*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}"]);
  return base + (random.chance(0.2) ? "?" : "");
}

function atom(random: Random, dialect: Dialect, depth: number): string {
  const roll = random.int(dialect.javascriptOnly ? 13 : 10);
  switch (roll) {
    case 0:
    case 1:
    case 2:
      return literal(random, dialect);
    case 3:
      return random.pick(ESCAPED_PUNCTUATION);
    case 4:
      return random.pick(SETS);
    case 5:
      return characterClass(random, dialect);
    case 6:
      return random.pick(["^", "$", "\\b", "\\B"]);
    case 7:
    case 8:
      if (depth > 2) return literal(random, dialect);
      return `(${random.chance(0.5) ? "?:" : ""}${alternation(random, dialect, depth + 1)})`;
    case 9:
      return dialect.newline ? random.pick(["\\n", "\\r?\\n", "[^a]"]) : literal(random, dialect);
    case 10:
      if (depth > 2) return "\\cJ";
      return `(?${random.pick(["=", "!", "<=", "<!"])}${alternation(random, dialect, depth + 1)})`;
    case 11:
      return random.pick(["\\0", "\\cJ", "\\cI", "\\t", "\\x0D", "\\u2028"]);
    default:
      return depth > 2 ? "(?<g>a)\\k<g>" : `(a|b)\\1`;
  }
}

function sequence(random: Random, dialect: Dialect, depth: number): string {
  let out = "";
  const length = 1 + random.int(4);
  for (let i = 0; i < length; i++) {
    const piece = atom(random, dialect, depth);
    const quantifiable = !["^", "$", "\\b", "\\B"].includes(piece) && !piece.startsWith("(?=") &&
      !piece.startsWith("(?!") && !piece.startsWith("(?<=") && !piece.startsWith("(?<!");
    out += piece + (quantifiable && random.chance(0.3) ? quantifier(random) : "");
  }
  return out;
}

function alternation(random: Random, dialect: Dialect, depth: number): string {
  const branches = random.chance(0.25) ? 2 + random.int(2) : 1;
  return Array.from({ length: branches }, () => sequence(random, dialect, depth)).join("|");
}

/** A random pattern of `dialect`. */
export function randomPattern(random: Random, dialect: Dialect): string {
  return alternation(random, dialect, 0);
}

const WORDS = ["abc", "kas", "KAS", "x_1", "a-b", "foo", "s2", "ab ab", "b(c)", "[x]", "a.c"];
const NON_ASCII_WORDS = ["éa", "ſk", "\u212aas", "Ωω", "äß", "\ufffd", "😀b"];
const BREAKS = ["\n", "\n", "\n", "\r\n", "\r", "\u2028", "\u2029"];
const INVALID = [[0xff], [0xc3], [0xe2, 0x82], [0x80], [0xed, 0xa0, 0x80], [0xf0, 0x9f]];

/** A random file: words, spaces, every kind of line break, invalid UTF-8; never a NUL byte. */
export function randomFile(random: Random, nonAscii: boolean): Uint8Array {
  const encoder = new TextEncoder();
  const parts: number[] = [];
  const length = random.int(30);
  for (let i = 0; i < length; i++) {
    const roll = random.int(10);
    let bytes: number[];
    if (roll < 5) bytes = [...encoder.encode(random.pick(WORDS))];
    else if (roll < 6 && nonAscii) bytes = [...encoder.encode(random.pick(NON_ASCII_WORDS))];
    else if (roll < 8) bytes = [...encoder.encode(random.pick([" ", "  ", "\t", "-", "."]))];
    else if (roll < 9) bytes = [...encoder.encode(random.pick(BREAKS))];
    else bytes = nonAscii ? random.pick(INVALID) : [...encoder.encode("\n")];
    parts.push(...bytes);
  }
  if (random.chance(0.5)) parts.push(0x0a);
  return new Uint8Array(parts);
}

/** Writes `count` random files into a new temporary folder and returns its path. */
export async function randomTree(random: Random, count: number, nonAscii: boolean) {
  const root = await Deno.makeTempDir({ prefix: "llm-search-gen-" });
  for (let i = 0; i < count; i++) {
    await Deno.writeFile(`${root}/f${i}.txt`, randomFile(random, nonAscii));
  }
  return root;
}
