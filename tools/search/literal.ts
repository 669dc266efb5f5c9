/**
 * Required-literal extraction: a string every match of a pattern must contain, so files that
 * lack it are skipped on their raw bytes without being decoded (ripgrep's prefilter idea).
 * The analysis is conservative: when unsure it finds no literal, which only costs speed.
 *
 * @module
 */

const QUANTIFIER_START = new Set(["*", "+", "?", "{"]);
const ESCAPED_LITERALS = new Set([..."\\^$.|?*+()[]{}/-,:=!<>#&~'\"` @%;"]);

/** Splits a top-level pattern into runs of literal characters; `null` if it has a top-level `|`. */
function literalRuns(pattern: string): string[] | null {
  const runs: string[] = [];
  let current = "";
  const cut = () => {
    if (current) runs.push(current);
    current = "";
  };
  for (let i = 0; i < pattern.length;) {
    const char = pattern[i];
    let atom: string | undefined; // a literal character, or undefined for a non-literal atom
    let next = i + 1;
    if (char === "|") return null;
    if (char === "\\") {
      const escaped = pattern[i + 1];
      if (escaped !== undefined && ESCAPED_LITERALS.has(escaped)) atom = escaped;
      else if (escaped === "n") atom = "\n";
      else if (escaped === "t") atom = "\t";
      next = i + 2;
      // \xHH, \uHHHH, \p{..} and classes (\w, \d, \b, …) end the run.
    } else if (char === "(" || char === "[") {
      // Skip the whole group or class: its content is not required as a whole.
      let depth = 0;
      let j = i;
      for (; j < pattern.length; j++) {
        const c = pattern[j];
        if (c === "\\") {
          j++;
          continue;
        }
        if (char === "[") {
          if (c === "]" && j > i + 1) break;
          continue;
        }
        if (c === "[") {
          const close = pattern.indexOf("]", j + 2);
          if (close !== -1) j = close;
          continue;
        }
        if (c === "(") depth++;
        else if (c === ")" && --depth === 0) break;
      }
      // A top-level alternation inside a group does not matter: the group is skipped.
      next = j + 1;
    } else if (char === "^" || char === "$") {
      i = next;
      cut();
      continue;
    } else if (char === ".") {
      atom = undefined;
    } else atom = char;
    const quantifier = pattern[next];
    if (quantifier !== undefined && QUANTIFIER_START.has(quantifier)) {
      // `x?`, `x*`, `x{0,…}` make x optional; `x+` and `x{n,…}` keep one x but end the run.
      const optional = quantifier === "?" || quantifier === "*" ||
        /^\{0[,}]/.test(pattern.slice(next));
      if (atom !== undefined && !optional) current += atom;
      cut();
      next++;
      if (quantifier === "{") next = pattern.indexOf("}", next) + 1 || pattern.length;
      if (pattern[next] === "?" || pattern[next] === "+") next++;
      i = next;
      continue;
    }
    if (atom === undefined) cut();
    else current += atom;
    i = next;
  }
  cut();
  return runs;
}

/**
 * The longest literal that every match of the JavaScript regular expression `pattern` must
 * contain, or `undefined` when none is certain.
 *
 * @example
 * ```ts
 * import { requiredLiteral } from "@llm/search/search";
 * requiredLiteral("[A-Z]+_SUSPEND"); // "_SUSPEND"
 * requiredLiteral("foo|bar"); // undefined
 * ```
 */
export function requiredLiteral(pattern: string): string | undefined {
  const runs = literalRuns(pattern);
  if (!runs || runs.length === 0) return undefined;
  return runs.reduce((best, run) => (run.length > best.length ? run : best));
}
