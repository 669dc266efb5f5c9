/**
 * Symbol definitions from a language's definition query (`grammars/queries/<language>.scm`).
 *
 * The queries follow tree-sitter's tags convention, extended:
 * - `@definition.<kind>` captures the definition's node, `<kind>` one of the normalised kinds;
 * - `@name` captures its name. A C/C++ declarator (`*f(void)`, `(*fp)(int)`, `A::b`) is
 *   unwrapped to the identifier it declares; a qualified name gives its scope as parent; a
 *   variable or constant whose declarator declares a function (a prototype) is dropped;
 * - `@parent` (optional) names the enclosing symbol when it is not lexical (a Go receiver);
 * - `@scope` with `@name` marks a container that is not itself reported (a Rust `impl`);
 * - `@functions` captures a C translation unit whose file-scope functions are read from its
 *   tokens (see `c_functions.ts`: macros mislead the tree there), kind `function`; a function
 *   that another pattern already found (its name inside that definition) is not repeated;
 * - `@not_definition` captures a node that no pattern reports (in C++, a "function" defined in
 *   a function body, which is a loop macro and its block: `FOR_EACH(x, xs) {…}`).
 *
 * When several patterns capture the same name node, the first pattern in the file wins, so a
 * query lists specific patterns (a method in a class) before general ones (any function).
 * The parent of a definition is the innermost enclosing container: a definition of kind
 * function, method, class, struct, union, enum, interface, trait or module, or a scope.
 *
 * @module
 */
import type { Node, Query, QueryMatch, QueryOptions } from "web-tree-sitter";
import { scanFunctions, type ScannedFunction } from "./c_functions.ts";

/** A definition found in a tree, in UTF-16 code-unit indices of the parsed text. */
export interface Definition {
  /** Normalised kind. */
  kind: string;
  /** The symbol's name. */
  name: string;
  /** Index of the pattern that found it. */
  patternIndex: number;
  /** The definition node's range. */
  start: number;
  /** End of the definition node. */
  end: number;
  /** The name node's range. */
  nameStart: number;
  /** End of the name node. */
  nameEnd: number;
  /** The enclosing symbol's name, when there is one. */
  parent?: string;
}

/** Kinds whose definitions enclose others (and so become their parent). */
export const CONTAINER_KINDS: ReadonlySet<string> = new Set([
  "function",
  "method",
  "class",
  "struct",
  "union",
  "enum",
  "interface",
  "trait",
  "module",
]);

interface Candidate extends Definition {
  nodeId: number;
  container: boolean;
  reported: boolean;
  explicitParent?: string;
}

/** What a `@name` capture names: declarators unwrapped, qualified names split. */
interface ResolvedName {
  /** The node holding the name itself. */
  node: Node;
  /** The scope of a qualified name (`A::B` of `A::B::c`). */
  scope?: string;
  /** The declarator declares a function (`f(int)`, `*f(void)`), not a pointer to one. */
  declaresFunction: boolean;
}

function resolveName(node: Node): ResolvedName {
  let current = node;
  let scope: string | undefined;
  let declaresFunction = false;
  for (let depth = 0; depth < 32; depth++) {
    const type = current.type;
    if (type.endsWith("declarator")) {
      const inner = current.childForFieldName("declarator") ?? current.namedChild(0);
      if (!inner) break;
      // `f(…)` declares a function; `(*f)(…)` declares a pointer to one.
      declaresFunction = type === "function_declarator" &&
        inner.type !== "parenthesized_declarator";
      current = inner;
    } else if (type === "qualified_identifier" || type === "qualified_type_identifier") {
      const name = current.childForFieldName("name");
      const outer = current.childForFieldName("scope");
      if (!name) break;
      if (outer) scope = scope === undefined ? outer.text : `${scope}::${outer.text}`;
      current = name;
    } else break;
  }
  return { node: current, scope, declaresFunction };
}

/**
 * Runs a definition query over a tree and returns its definitions in document order, each
 * with its parent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collectDefinitions } from "./definitions.ts";
 * import { compileQuery } from "./query.ts";
 * import { createParser, loadLanguage } from "./loader.ts";
 * const language = await loadLanguage("c");
 * const source = "(function_definition declarator: (_) @name) @definition.function";
 * const query = compileQuery("c", language, source);
 * const parser = await createParser("c");
 * const tree = parser.parse("int main(void) { return 0; }\n")!;
 * assert.deepEqual(collectDefinitions(query, tree.rootNode).map((d) => d.name), ["main"]);
 * tree.delete();
 * parser.delete();
 * ```
 */
export function collectDefinitions(
  query: Query,
  root: Node,
  options?: QueryOptions,
): Definition[] {
  return definitionsOf(query.matches(root, options));
}

/**
 * The definitions of `matches`, found by a definition query or by a query whose first patterns
 * are a definition query's (then one pass over a tree serves several purposes; matches without
 * a definition capture are passed over), in document order with their parents.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { definitionsOf } from "./definitions.ts";
 * import { compileQuery } from "./query.ts";
 * import { createParser, loadLanguage } from "./loader.ts";
 * const language = await loadLanguage("c");
 * const source = "(function_definition declarator: (_) @name) @definition.function\n(call_expression) @call";
 * const query = compileQuery("c", language, source);
 * const parser = await createParser("c");
 * const tree = parser.parse("int main(void) { return f(); }\n")!;
 * assert.deepEqual(definitionsOf(query.matches(tree.rootNode)).map((d) => d.name), ["main"]);
 * tree.delete();
 * parser.delete();
 * ```
 */
export function definitionsOf(matches: QueryMatch[]): Definition[] {
  const byName = new Map<string, Candidate>();
  const scans: { node: Node; patternIndex: number }[] = [];
  const rejected = new Set<number>();
  for (const match of matches) {
    let definition: Node | undefined;
    let kind: string | undefined;
    let nameNode: Node | undefined;
    let parentNode: Node | undefined;
    let scope = false;
    for (const capture of match.captures) {
      const captureName = capture.name;
      if (captureName.startsWith("definition.")) {
        definition = capture.node;
        kind = captureName.slice("definition.".length);
      } else if (captureName === "scope") {
        definition = capture.node;
        scope = true;
      } else if (captureName === "name") nameNode ??= capture.node;
      else if (captureName === "parent") parentNode ??= capture.node;
      else if (captureName === "functions") {
        scans.push({ node: capture.node, patternIndex: match.patternIndex });
      } else if (captureName === "not_definition") rejected.add(capture.node.id);
    }
    if (!definition || !nameNode) continue;
    const resolved = resolveName(nameNode);
    // A file-scope `int f(void);` or `char *f(void);` declares a function, not a variable.
    if ((kind === "variable" || kind === "constant") && resolved.declaresFunction) continue;
    const key = `${scope ? "s" : "d"}${resolved.node.id}`;
    const known = byName.get(key);
    if (known && known.patternIndex <= match.patternIndex) continue;
    const name = resolved.node.text;
    if (!name) continue;
    const candidate: Candidate = {
      kind: kind ?? "scope",
      name,
      patternIndex: match.patternIndex,
      start: definition.startIndex,
      end: definition.endIndex,
      nameStart: resolved.node.startIndex,
      nameEnd: resolved.node.endIndex,
      nodeId: definition.id,
      container: scope || CONTAINER_KINDS.has(kind ?? ""),
      reported: !scope,
    };
    const explicitParent = parentNode?.text ?? resolved.scope;
    if (explicitParent) candidate.explicitParent = explicitParent;
    byName.set(key, candidate);
  }
  const candidates = [...byName.values()].filter((candidate) => !rejected.has(candidate.nodeId));
  for (const { node, patternIndex } of scans) {
    candidates.push(...scannedCandidates(scanFunctions(node), patternIndex, candidates));
  }
  return withParents(candidates);
}

/** Candidates for the functions a token scan found, except those `known` already holds. */
function scannedCandidates(
  functions: ScannedFunction[],
  patternIndex: number,
  known: readonly Candidate[],
): Candidate[] {
  const found = known.filter((candidate) =>
    candidate.kind === "function" || candidate.kind === "method"
  );
  return functions
    .filter((fn) => !found.some((other) => other.start <= fn.nameStart && fn.nameStart < other.end))
    .map((fn, i): Candidate => ({
      kind: "function",
      name: fn.name,
      patternIndex,
      start: fn.start,
      end: fn.end,
      nameStart: fn.nameStart,
      nameEnd: fn.nameEnd,
      // No node spans a scanned definition (its header may be split among several).
      nodeId: -1 - i,
      container: true,
      reported: true,
    }));
}

/** Orders candidates and gives each its innermost enclosing container as parent. */
function withParents(candidates: Candidate[]): Definition[] {
  candidates.sort((a, b) =>
    a.start - b.start || b.end - a.end || Number(b.container) - Number(a.container) ||
    a.nameStart - b.nameStart
  );
  const open: Candidate[] = [];
  const definitions: Definition[] = [];
  for (const candidate of candidates) {
    while (open.length && open[open.length - 1].end < candidate.end) open.pop();
    let enclosing: Candidate | undefined;
    for (let i = open.length - 1; i >= 0; i--) {
      const container = open[i];
      if (container.nodeId !== candidate.nodeId && container.start <= candidate.start) {
        enclosing = container;
        break;
      }
    }
    if (candidate.reported) {
      const definition: Definition = {
        kind: candidate.kind,
        name: candidate.name,
        patternIndex: candidate.patternIndex,
        start: candidate.start,
        end: candidate.end,
        nameStart: candidate.nameStart,
        nameEnd: candidate.nameEnd,
      };
      const parent = candidate.explicitParent ?? enclosing?.name;
      if (parent !== undefined) definition.parent = parent;
      definitions.push(definition);
    }
    if (candidate.container) open.push(candidate);
  }
  return definitions;
}

/**
 * The innermost definition of `definitions` (as returned by {@linkcode collectDefinitions})
 * that strictly encloses `[start, end)` and is a container, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { enclosingDefinition } from "./definitions.ts";
 * const outer = { kind: "function", name: "f", patternIndex: 0, start: 0, end: 50, nameStart: 4, nameEnd: 5 };
 * assert.equal(enclosingDefinition([outer], 10, 20)?.name, "f");
 * assert.equal(enclosingDefinition([outer], 40, 60), undefined);
 * ```
 */
export function enclosingDefinition(
  definitions: readonly Definition[],
  start: number,
  end: number,
): Definition | undefined {
  let best: Definition | undefined;
  for (const definition of definitions) {
    if (definition.start > start) break;
    if (!CONTAINER_KINDS.has(definition.kind)) continue;
    const encloses = definition.start <= start && end <= definition.end &&
      (definition.start !== start || definition.end !== end);
    if (encloses && (!best || definition.start >= best.start)) best = definition;
  }
  return best;
}
