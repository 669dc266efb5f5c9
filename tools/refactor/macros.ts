/**
 * A name inside the `#define`s of a C or C++ file, which the extracted facts do not see (to the
 * grammar a macro's body is unparsed text). A body's token spelled as the name is a reference
 * wherever the macro expands, as clangd counts a use spelled in a macro body: it is judged like
 * a use written at that place (the receiver or scope written before it included). A parameter
 * spelled as the name is the macro's own (so is that name in the body), never the symbol. A
 * token pasted (`##`) or stringified (`#`) is no reference that can be renamed safely: it is
 * reported for the caller to refuse. Strings, character literals and comments in bodies hold
 * no reference. The symbol index holds no fact of a macro body, so the files that name the
 * symbol only there are looked for apart ({@linkcode macroOnlyFiles}).
 *
 * @module
 */
import { basename } from "../../core/path_syntax.ts";
import type { Node } from "web-tree-sitter";
import { createParser } from "../../grammars/loader.ts";
import { languageForFile } from "../../grammars/languages.ts";
import { indexPathOf, IndexRefusal, openIndex } from "../../core/trigram/reader.ts";
import { decodeText } from "../../core/utf8.ts";
import type { FactView, LoadedFile } from "./view.ts";

/** What a macro's token spelled as the name is. */
export type MacroRole = "body" | "parameter" | "pasted";

/** A token spelled as the name in a `#define`. */
export interface MacroPlace {
  /** Start byte. */
  start: number;
  /** End byte. */
  end: number;
  /** A body's token, the macro's parameter (or its use in the body), or a pasted token. */
  role: MacroRole;
}

/** The name in a file's `#define`s. */
export interface MacroNames {
  /** Byte ranges of the parameter lists and bodies: every token in them is judged here. */
  regions: [number, number][];
  /** The tokens spelled as the name, in document order. */
  places: MacroPlace[];
}

/** Whether bytes `[start, end)` lie inside one of `regions` (a macro's parameters or body). */
export function inRegions(start: number, end: number, regions: [number, number][]): boolean {
  return regions.some(([from, to]) => start >= from && end <= to);
}

const DEFINE = /^[ \t]*#[ \t]*define\b/gm;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
const PP_NUMBER = /\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.'])*/y;
const STRING_PREFIX = /^(?:L|u|U|u8)?R?$/;
const PUNCTUATOR = /##|->|::|[^\sA-Za-z0-9_]/y;

/** Whether `text` holds `name` as a whole word. */
function hasWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + name.length);
    if (!isWordCode(before) && !isWordCode(after)) return true;
  }
  return false;
}

function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) || code === 95 || code === 36;
}

/** Whether a `#define` of `text` (with its continued lines) may spell `name`: no parse without. */
function mayDefineWith(text: string, name: string): boolean {
  DEFINE.lastIndex = 0;
  for (let match = DEFINE.exec(text); match; match = DEFINE.exec(text)) {
    let end = text.indexOf("\n", match.index);
    while (end > 0 && /\\\r?$/.test(text.slice(Math.max(0, end - 2), end))) {
      end = text.indexOf("\n", end + 1);
    }
    if (end < 0) end = text.length;
    if (hasWord(text.slice(match.index, end), name)) return true;
    DEFINE.lastIndex = end;
  }
  return false;
}

/** End of the string or character literal opening at `at` (`quote`), or of a raw string. */
function literalEnd(text: string, at: number, raw: boolean): number {
  if (raw) {
    const open = text.indexOf("(", at);
    if (open < 0) return text.length;
    const close = text.indexOf(`)${text.slice(at + 1, open)}"`, open);
    return close < 0 ? text.length : close + open - at + 1;
  }
  const quote = text[at];
  let end = at + 1;
  while (end < text.length && text[end] !== quote && text[end] !== "\n") {
    end += text[end] === "\\" ? 2 : 1;
  }
  return Math.min(text.length, end + 1);
}

/** A token of a macro body: an identifier, or the punctuator or literal before it. */
interface Token {
  text: string;
  start: number;
  identifier: boolean;
}

/** The tokens of a macro body (comments and whitespace dropped; literals kept as one token). */
function tokensOf(body: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < body.length) {
    const char = body[at];
    if (/\s|\\/.test(char)) {
      at++;
    } else if (body.startsWith("/*", at)) {
      const close = body.indexOf("*/", at + 2);
      at = close < 0 ? body.length : close + 2;
    } else if (body.startsWith("//", at)) {
      const close = body.indexOf("\n", at);
      at = close < 0 ? body.length : close;
    } else if (char === '"' || char === "'") {
      const end = literalEnd(body, at, false);
      tokens.push({ text: body.slice(at, end), start: at, identifier: false });
      at = end;
    } else {
      at = matchedToken(body, at, tokens);
    }
  }
  return tokens;
}

/** Reads the number, identifier (or prefixed literal) or punctuator at `at`; returns its end. */
function matchedToken(body: string, at: number, tokens: Token[]): number {
  for (const pattern of [PP_NUMBER, IDENTIFIER, PUNCTUATOR]) {
    pattern.lastIndex = at;
    const match = pattern.exec(body);
    if (!match) continue;
    const end = at + match[0].length;
    if (pattern === IDENTIFIER && /["']/.test(body[end] ?? "") && STRING_PREFIX.test(match[0])) {
      const close = literalEnd(body, end, match[0].endsWith("R") && body[end] === '"');
      tokens.push({ text: body.slice(at, close), start: at, identifier: false });
      return close;
    }
    tokens.push({ text: match[0], start: at, identifier: pattern === IDENTIFIER });
    return end;
  }
  return at + 1;
}

/** The role of the body's token `index` (spelled as the name) in a macro of `parameters`. */
function roleOf(tokens: Token[], index: number, parameters: Set<string>): MacroRole {
  const before = tokens[index - 1]?.text;
  const after = tokens[index + 1]?.text;
  if (before === "#" || before === "##" || after === "##") return "pasted";
  return parameters.has(tokens[index].text) ? "parameter" : "body";
}

/** The places of `name` in one `#define` node. */
function definePlaces(file: LoadedFile, node: Node, name: string, found: MacroNames): void {
  // Tree indices count UTF-16 units of the decoded text; places count bytes.
  const byteOffset = file.decoded.byteOffset;
  const parameters = new Set<string>();
  const params = node.childForFieldName("parameters");
  if (params) {
    found.regions.push([byteOffset(params.startIndex), byteOffset(params.endIndex)]);
    for (const param of params.namedChildren) {
      if (!param || param.type !== "identifier") continue;
      parameters.add(param.text);
      if (param.text !== name) continue;
      found.places.push({
        start: byteOffset(param.startIndex),
        end: byteOffset(param.endIndex),
        role: "parameter",
      });
    }
  }
  const body = node.childForFieldName("value");
  if (!body) return;
  found.regions.push([byteOffset(body.startIndex), byteOffset(body.endIndex)]);
  const tokens = tokensOf(body.text);
  tokens.forEach((token, index) => {
    if (!token.identifier || token.text !== name) return;
    const start = body.startIndex + token.start;
    found.places.push({
      start: byteOffset(start),
      end: byteOffset(start + name.length),
      role: roleOf(tokens, index, parameters),
    });
  });
}

/**
 * The tokens spelled `name` in the `#define`s of a C or C++ file, and the ranges they were
 * read from; `undefined` when no `#define` of the file spells it (the file is then not parsed).
 */
export async function macroNames(file: LoadedFile, name: string): Promise<MacroNames | undefined> {
  const text = file.decoded.text;
  if (!["c", "cpp"].includes(file.language) || !mayDefineWith(text, name)) return undefined;
  const parser = await createParser(file.language);
  try {
    const tree = parser.parse(text);
    if (!tree) return undefined;
    try {
      const found: MacroNames = { regions: [], places: [] };
      const defines = tree.rootNode.descendantsOfType(["preproc_def", "preproc_function_def"]);
      for (const node of defines) if (node) definePlaces(file, node, name, found);
      found.places.sort((a, b) => a.start - b.start);
      return found;
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** Files of the symbol index read in full for macro-only mentions when there is no search index. */
export const MACRO_SCAN_MAX_FILES = 2_000;

function isC(path: string): boolean {
  return ["c", "cpp"].includes(languageForFile(basename(path))?.name ?? "");
}

/**
 * Candidate paths for `name` from the search index `.llm/trigram.idx`: the files holding its
 * trigrams when it was built, and the symbol index's files it does not describe as they are
 * now (changed or added since); `undefined` when there is none or it cannot be trusted.
 */
function searchIndexCandidates(view: FactView, name: string): string[] | undefined {
  try {
    const index = openIndex(indexPathOf(view.workspace.real));
    const hits = index?.candidates([name], false);
    if (!index || !hits) return undefined;
    const candidates = index.paths.filter((_, id) => hits[id] === 1 && !index.binary(id));
    for (const row of view.store.files()) {
      const id = index.idOf(row.path);
      if (id === undefined || !index.trusted(id, row.size, row.mtime)) candidates.push(row.path);
    }
    return [...new Set(candidates)];
  } catch (error) {
    if (error instanceof IndexRefusal) return undefined;
    throw error;
  }
}

/**
 * C and C++ files of the symbol index besides `known` whose text passes `test`: the search
 * index's candidates for `name`, or every C and C++ file of the symbol index when there is no
 * search index and they are at most {@linkcode MACRO_SCAN_MAX_FILES}; each read now.
 */
async function cFilesWhere(
  view: FactView,
  name: string,
  known: ReadonlySet<string>,
  test: (text: string) => boolean,
): Promise<string[]> {
  const fromSearchIndex = searchIndexCandidates(view, name);
  const candidates = fromSearchIndex ?? view.store.files().map((row) => row.path);
  const unknown = candidates.filter((path) => !known.has(path) && isC(path));
  if (!fromSearchIndex && unknown.length > MACRO_SCAN_MAX_FILES) return [];
  const found: string[] = [];
  for (const path of unknown) {
    let bytes: Uint8Array;
    try {
      bytes = await view.diskBytesOf(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    if (test(decodeText(bytes))) found.push(path);
  }
  return found;
}

/** C and C++ files of the symbol index besides `known` whose `#define`s spell `name`. */
export function macroOnlyFiles(
  view: FactView,
  name: string,
  known: ReadonlySet<string>,
): Promise<string[]> {
  return cFilesWhere(view, name, known, (text) => mayDefineWith(text, name));
}

/** C and C++ files of the symbol index that hold `name` as a word. */
export function cFilesNaming(view: FactView, name: string): Promise<string[]> {
  return cFilesWhere(view, name, new Set(), (text) => hasWord(text, name));
}
