/**
 * fzf's extended search syntax: space-separated terms that must all match, each fuzzy by
 * default or marked `'exact`, `'exact-at-word-boundaries'`, `^prefix`, `suffix$`, `^equal$`,
 * `!negated` (exact unless written `!'fuzzy`); a lone `|` between terms makes alternatives;
 * `\ ` is a literal space. Case follows fzf's smart case per term: a term with an uppercase
 * letter matches case-sensitively. A term without accented letters also matches accented
 * text (`cafe` finds `café`), as fzf's normalisation does.
 *
 * @module
 */
import { ToolError } from "../../schema/diagnostic.ts";
import { normalizeOf } from "./text.ts";

/** How a term matches. */
export type TermKind = "fuzzy" | "exact" | "exact-boundary" | "prefix" | "suffix" | "equal";

/** Case rule of a query: fzf's smart case, or forced either way. */
export type CaseMode = "smart" | "sensitive" | "insensitive";

/** One search term. */
export interface Term {
  /** How the term matches. */
  kind: TermKind;
  /** A negated term: the path must not match it. */
  inverse: boolean;
  /** The term's text, lowercased unless the term is case-sensitive. */
  text: string;
  /** The text's code points (folded as the text is). */
  codes: Int32Array;
  /** Whether case matters for this term. */
  caseSensitive: boolean;
  /** Whether accented letters in the path match their base letters. */
  normalize: boolean;
}

/** A parsed query: every set must match; within a set, any one term (alternatives). */
export interface ParsedQuery {
  /** The AND of OR-sets of terms. */
  sets: Term[][];
  /** Whether some term is not negated (else every path that survives the negations matches). */
  hasPositive: boolean;
}

function toCodes(text: string): Int32Array {
  return Int32Array.from(text, (char) => char.codePointAt(0)!);
}

function normalized(text: string): string {
  return String.fromCodePoint(...Array.from(text, (char) => normalizeOf(char.codePointAt(0)!)));
}

/**
 * Longest query, in UTF-8 bytes: no path is longer (Linux's PATH_MAX), so no longer term could
 * match, and fzf's algorithm costs the term's length times the path's for every path.
 */
export const MAX_QUERY_BYTES = 4096;

/** Most terms a query may have: each is scored against every path (a name has a few). */
export const MAX_QUERY_TERMS = 128;

/**
 * Refuses a query that is not text (a NUL byte, a lone surrogate) with `LMD-QRY-002`, or too
 * large to score cheaply with `LMD-QRY-001`, before any path is read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkQuery } from "./query.ts";
 * checkQuery("walker .ts$"); // no error
 * assert.throws(() => checkQuery("a\0b"), { code: "LMD-QRY-002" });
 * ```
 */
export function checkQuery(query: string): void {
  const nul = query.indexOf("\0");
  if (nul >= 0) {
    throw new ToolError("LMD-QRY-002", `the query contains a NUL byte at index ${nul}`, {
      column: nul,
    });
  }
  if (!query.isWellFormed()) {
    throw new ToolError("LMD-QRY-002", "the query is not valid Unicode (a lone surrogate)");
  }
  const bytes = new TextEncoder().encode(query).length;
  if (bytes > MAX_QUERY_BYTES) {
    throw new ToolError(
      "LMD-QRY-001",
      `the query is ${bytes} bytes, over the limit of ${MAX_QUERY_BYTES} (no path is longer)`,
      { note: `limit: ${MAX_QUERY_BYTES} bytes, ${MAX_QUERY_TERMS} terms` },
    );
  }
  const terms = query.split(/ +/).filter((term) => term !== "" && term !== "|").length;
  if (terms > MAX_QUERY_TERMS) {
    throw new ToolError(
      "LMD-QRY-001",
      `the query has ${terms} terms, over the limit of ${MAX_QUERY_TERMS}`,
      { note: `limit: ${MAX_QUERY_BYTES} bytes, ${MAX_QUERY_TERMS} terms` },
    );
  }
}

/**
 * Parses a query the way fzf's extended mode does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseQuery } from "./query.ts";
 * const query = parseQuery("^src .ts$ !test | spec");
 * assert.deepEqual(query.sets.map((set) => set.map((term) => term.kind)), [
 *   ["prefix"],
 *   ["suffix"],
 *   ["exact", "fuzzy"],
 * ]);
 * ```
 */
export function parseQuery(query: string, caseMode: CaseMode = "smart"): ParsedQuery {
  let trimmed = query.replace(/^ +/, "");
  while (trimmed.endsWith(" ") && !trimmed.endsWith("\\ ")) trimmed = trimmed.slice(0, -1);
  const tokens = trimmed.replaceAll("\\ ", "\t").split(/ +/);
  const sets: Term[][] = [];
  let set: Term[] = [];
  let switchSet = false;
  let afterBar = false;
  for (const token of tokens) {
    let text = token.replaceAll("\t", " ");
    const lower = text.toLowerCase();
    const caseSensitive = caseMode === "sensitive" || (caseMode === "smart" && text !== lower);
    const normalize = lower === normalized(lower);
    if (!caseSensitive) text = lower;
    if (set.length > 0 && !afterBar && text === "|") {
      switchSet = false;
      afterBar = true;
      continue;
    }
    afterBar = false;
    let kind: TermKind = "fuzzy";
    let inverse = false;
    if (text.startsWith("!")) {
      inverse = true;
      kind = "exact";
      text = text.slice(1);
    }
    if (text !== "$" && text.endsWith("$")) {
      kind = "suffix";
      text = text.slice(0, -1);
    }
    if (text.startsWith("'")) {
      if (!inverse) {
        if (text.length > 2 && text.endsWith("'")) {
          kind = "exact-boundary";
          text = text.slice(1, -1);
        } else {
          kind = "exact";
          text = text.slice(1);
        }
      } else {
        kind = "fuzzy";
        text = text.slice(1);
      }
    } else if (text.startsWith("^")) {
      kind = kind === "suffix" ? "equal" : "prefix";
      text = text.slice(1);
    }
    if (text.length === 0) continue;
    if (switchSet) {
      sets.push(set);
      set = [];
    }
    if (normalize) text = normalized(text);
    set.push({ kind, inverse, text, codes: toCodes(text), caseSensitive, normalize });
    switchSet = true;
  }
  if (set.length > 0) sets.push(set);
  const hasPositive = sets.some((terms) => terms.some((term) => !term.inverse));
  return { sets, hasPositive };
}
