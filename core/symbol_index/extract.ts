/**
 * Extraction of one file's facts for the symbol index: one parse, then one pass of the
 * language's facts query (`extract_queries.ts`: the definition query `llm-ast-search --kind`
 * runs, read by the same code, with reference and import patterns after it), compiled once
 * per language and kept. Tree-sitter positions are UTF-16 indices of the parsed string; every
 * extent here is converted to UTF-8 byte offsets with lines and byte columns.
 *
 * It needs no permission (the grammars are embedded) and runs alike on the main thread and in
 * workers.
 *
 * @module
 */
import type { Parser } from "web-tree-sitter";
import { createParser, loadLanguage, runtimeFailure } from "../../grammars/loader.ts";
import { CONTAINER_KINDS, type Definition, definitionsOf } from "../../grammars/definitions.ts";
import { errorNodes } from "../../grammars/syntax_errors.ts";
import type { FileFacts, SymbolFact } from "./facts.ts";
import { type Container, Enclosures, ExtentMapper } from "./extract_positions.ts";
import { type FactMatches, type FactsQuery, factsQuery, splitMatches } from "./extract_queries.ts";
import { collectReferences } from "./extract_references.ts";
import { collectImports } from "./extract_imports.ts";
import { parseWithinBudget } from "./extract_budget.ts";
import { type DecodedFile, decodeFile } from "../utf8.ts";
import { type ChunkSource, chunkTexts } from "./extract_chunks.ts";

const encoder = new TextEncoder();

/** A language's parser and compiled queries, made once per isolate. */
interface LanguageState {
  parser: Parser;
  /** Definitions, references and imports, in one query. */
  facts?: FactsQuery;
}

const states = new Map<string, Promise<LanguageState>>();

function languageState(language: string): Promise<LanguageState> {
  let state = states.get(language);
  if (!state) {
    state = (async () => {
      const grammar = await loadLanguage(language);
      const parser = await createParser(language);
      try {
        return { parser, facts: factsQuery(language, grammar) };
      } catch (error) {
        parser.delete();
        throw error;
      }
    })();
    // A failed load is not kept, so a later call can retry (and report the error again).
    state.catch(() => states.delete(language));
    states.set(language, state);
  }
  return state;
}

/** Separator of qualified names: `::` where the language writes paths that way. */
function separatorOf(language: string): string {
  return language === "rust" || language === "cpp" ? "::" : ".";
}

/** Longest signature, in UTF-8 bytes. */
const SIGNATURE_BYTES = 200;

/** `text` cut to at most `max` UTF-8 bytes, at a character boundary. */
function cutUtf8(text: string, max: number): string {
  if (text.length * 3 <= max) return text;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + width > max) break;
    bytes += width;
    i += code >= 0x10000 ? 2 : 1;
  }
  return text.slice(0, i);
}

/**
 * The signature of a definition: its text from its start to the end of the line holding its
 * name (so `static int\nf(void)` gives `static int f(void)`), whitespace collapsed, cut at 200
 * bytes.
 */
function signatureOf(text: string, definition: Definition): string {
  let lineEnd = text.indexOf("\n", definition.nameEnd);
  if (lineEnd < 0 || lineEnd > definition.end) lineEnd = definition.end;
  const head = text.slice(definition.start, Math.max(lineEnd, definition.nameEnd));
  return cutUtf8(head.replace(/\s+/g, " ").trim(), SIGNATURE_BYTES);
}

/**
 * Languages whose variable patterns match file-scope declarations only: a "variable" inside a
 * function there is the tree misreading a header full of macros (`__init` in
 * `static int __init f(void)`, which the token scan reads right), so it is left out.
 */
const FILE_SCOPE_VARIABLES = new Set(["c", "cpp"]);

/**
 * The symbols of `definitions` (in document order, as `collectDefinitions` returns them), each
 * with its qualified name: the qualified name of its innermost enclosing container, then an
 * explicit parent that is not that container (a Go receiver, a Rust `impl` type, the `A` of
 * C++ `A::f`), then its name.
 */
function symbolsOf(
  language: string,
  text: string,
  definitions: Definition[],
  mapper: ExtentMapper,
): { symbols: SymbolFact[]; containers: Container[]; sources: ChunkSource[] } {
  const separator = separatorOf(language);
  const fileScopeVariables = FILE_SCOPE_VARIABLES.has(language);
  const symbols: SymbolFact[] = [];
  const sources: ChunkSource[] = [];
  const containers: Container[] = [];
  const enclosures = new Enclosures(containers);
  for (const definition of definitions) {
    const enclosing = enclosures.innermost(definition.start, definition.end);
    if (fileScopeVariables && definition.kind === "variable" && enclosing?.kind === "function") {
      continue;
    }
    const prefix = qualifierOf(enclosing, definition.parent, separator);
    const qualified = prefix === undefined
      ? definition.name
      : `${prefix}${separator}${definition.name}`;
    const symbol: SymbolFact = {
      name: definition.name,
      qualified_name: qualified,
      kind: definition.kind,
      extent: mapper.extent(definition.start, definition.end),
      name_extent: mapper.extent(definition.nameStart, definition.nameEnd),
      signature: signatureOf(text, definition),
    };
    if (prefix !== undefined) symbol.parent = prefix;
    symbols.push(symbol);
    sources.push({ start: definition.start, end: definition.end, signature: symbol.signature });
    if (CONTAINER_KINDS.has(definition.kind)) {
      containers.push({
        start: definition.start,
        end: definition.end,
        kind: definition.kind,
        name: definition.name,
        qualified,
      });
    }
  }
  return { symbols, containers, sources };
}

/** The qualified name a definition's own name is appended to, if any. */
function qualifierOf(
  enclosing: Container | undefined,
  parent: string | undefined,
  separator: string,
): string | undefined {
  if (parent === undefined) return enclosing?.qualified;
  if (enclosing === undefined) return parent;
  if (enclosing.name === parent) return enclosing.qualified;
  return `${enclosing.qualified}${separator}${parent}`;
}

/** What {@linkcode extractFacts} gives beyond the facts every caller needs. */
export interface ExtractOptions {
  /** The terms of the file's text chunks, for the index's full-text table (`FileFacts.chunks`). */
  chunks?: boolean;
}

/**
 * The facts of one file of `language` (a registry name, `grammars/languages.ts`), given as its
 * bytes with their decoding (`decodeFile`: every extent counts the bytes read, a BOM included)
 * or as a text (whose UTF-8 encoding it counts): its definitions with qualified names and
 * signatures, its calls and other references with their enclosing definitions, its imports,
 * and how many syntax errors its tree has. A file that does not parse cleanly gives what its
 * tree holds. Throws a `GrammarLoadError` for a language without a grammar, and a
 * `ParserAbortedError` once the parser runtime of this thread has aborted (out of memory on a
 * huge file: only a fresh worker can parse again). Its one limit is the node budget
 * (`extract_budget.ts`): the facts of a file whose tree is larger are those of its first part,
 * and `cut` says where; the caller chooses which files to give. With `options.chunks`, the facts
 * have the terms of the file's text chunks too (`extract_chunks.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractFacts } from "./extract.ts";
 * const facts = await extractFacts("python", "class A:\n    def f(self):\n        g()\n");
 * assert.deepEqual(facts.symbols.map((s) => s.qualified_name), ["A", "A.f"]);
 * ```
 */
export async function extractFacts(
  language: string,
  source: string | DecodedFile,
  pause?: () => Promise<void>,
  options: ExtractOptions = {},
): Promise<FileFacts> {
  const file = typeof source === "string" ? decodeFile(encoder.encode(source)) : source;
  const text = file.decoded.text;
  const state = await languageState(language);
  try {
    const { tree, cut } = await parseWithinBudget(
      state.parser,
      text,
      undefined,
      undefined,
      pause,
    );
    try {
      const root = tree.rootNode;
      const mapper = new ExtentMapper(file);
      const matches: FactMatches = state.facts
        ? splitMatches(state.facts, state.facts.query.matches(root))
        : { definitions: [], references: [], imports: [] };
      const definitions = definitionsOf(matches.definitions);
      const { symbols, containers, sources } = symbolsOf(language, text, definitions, mapper);
      const enclosures = new Enclosures(containers);
      const references = collectReferences(
        text,
        matches.references,
        definitions,
        enclosures,
        mapper,
      );
      const imports = collectImports(matches.imports, mapper);
      return {
        language,
        symbols,
        references,
        imports,
        parse_errors: root.hasError ? errorNodes(root).length : 0,
        ...(cut ? { cut } : {}),
        ...(options.chunks ? { chunks: chunkTexts(text, sources) } : {}),
      };
    } finally {
      tree.delete();
    }
  } catch (error) {
    throw runtimeFailure(error);
  }
}
