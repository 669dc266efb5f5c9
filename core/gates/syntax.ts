/**
 * The syntax gate: parse the candidate bytes with the language's embedded tree-sitter grammar
 * and turn every ERROR and MISSING node into an error diagnostic with its exact span. It needs
 * no permission (the grammars are embedded), so it always runs where a grammar loads.
 *
 * @module
 */
import type { Parser, Tree } from "web-tree-sitter";
import { createParser, runtimeFailure } from "../../grammars/loader.ts";
import { errorNodes, syntaxErrorMessage } from "../../grammars/syntax_errors.ts";
import { type DecodedText, decodeUtf8 } from "../utf8.ts";
import { LineIndex } from "../../schema/line_index.ts";
import { makeSpan } from "../../schema/span_build.ts";
import { type Diagnostic, makeDiagnostic } from "../../schema/diagnostic.ts";
import { gateCode, type GatePrefix } from "../../schema/error_codes.ts";
import { textEdit, TreeKeeper } from "./kept_trees.ts";
import { SYNTAX_TOOL } from "./refusal.ts";

/** At most this many syntax errors are listed; the last one listed counts the rest. */
export const SYNTAX_ERRORS_LISTED = 20;

/** What the syntax gate found: nothing (passed), errors, or why it could not parse. */
export type SyntaxOutcome =
  | { status: "passed" | "failed"; diagnostics: Diagnostic[] }
  | { status: "skipped"; reason: string };

/** One parser per language, kept for the life of the isolate (a parse resets it). */
const parsers = new Map<string, Promise<Parser>>();

/** The last tree of each file, for an incremental parse of its next version. */
const keptTrees = new TreeKeeper();

function parserFor(language: string): Promise<Parser> {
  let parser = parsers.get(language);
  if (!parser) {
    parser = createParser(language);
    parser.catch(() => parsers.delete(language));
    parsers.set(language, parser);
  }
  return parser;
}

/** What the syntax gate needs to know about the file. */
export interface SyntaxCheck {
  /** Registry language name. */
  language: string;
  /** The path diagnostics name (root-relative). */
  filePath: string;
  /** The candidate bytes. */
  bytes: Uint8Array;
  /** Prefix of the codes. */
  prefix: GatePrefix;
  /** The parse is stopped after this many milliseconds. */
  timeoutMs: number;
}

/**
 * The tree of `text`, parsed from the file's kept tree when there is one (the same tree as a
 * full parse: `tests/gates_incremental_test.ts` compares them on random edits), or `null` past
 * the deadline.
 */
function parseText(parser: Parser, key: string, text: string, deadline: number): Tree | null {
  const options = { progressCallback: () => performance.now() > deadline };
  const kept = keptTrees.take(key);
  if (!kept) return parser.parse(text, null, options);
  kept.tree.edit(textEdit(kept.text, text));
  const tree = parser.parse(text, kept.tree, options);
  kept.tree.delete();
  return tree;
}

/**
 * Parses the candidate bytes and reports every syntax error (ERROR or MISSING node), outermost
 * first, at most {@linkcode SYNTAX_ERRORS_LISTED}. A grammar that does not load or a parse past
 * the time limit skips the gate, with the reason. The tree is kept for the file's next version.
 */
export async function syntaxGate(check: SyntaxCheck): Promise<SyntaxOutcome> {
  let parser: Parser;
  try {
    parser = await parserFor(check.language);
  } catch (error) {
    return { status: "skipped", reason: error instanceof Error ? error.message : String(error) };
  }
  const decoded = decodeUtf8(check.bytes);
  const key = `${check.language}\0${check.filePath}`;
  let tree;
  try {
    tree = parseText(parser, key, decoded.text, performance.now() + check.timeoutMs);
  } catch (error) {
    // An aborted runtime cannot parse again in this isolate (nor free its trees): the gate
    // cannot run.
    parsers.delete(check.language);
    keptTrees.forget();
    const failure = runtimeFailure(error);
    return {
      status: "skipped",
      reason: failure instanceof Error ? failure.message : String(failure),
    };
  }
  if (!tree) {
    parser.reset();
    return { status: "skipped", reason: `the parse ran past ${check.timeoutMs} ms` };
  }
  try {
    return syntaxFindings(check, decoded, tree);
  } finally {
    keptTrees.keep(key, decoded.text, tree);
  }
}

/** The gate's verdict on a parsed tree: its syntax errors as diagnostics. */
function syntaxFindings(
  check: SyntaxCheck,
  decoded: DecodedText,
  tree: Tree,
): SyntaxOutcome {
  const errors = errorNodes(tree.rootNode);
  if (errors.length === 0) return { status: "passed", diagnostics: [] };
  const index = new LineIndex(check.bytes);
  const listed = errors.slice(0, SYNTAX_ERRORS_LISTED);
  const diagnostics = listed.map((node, position) => {
    const span = makeSpan(
      check.filePath,
      index,
      decoded.byteOffset(node.startIndex),
      decoded.byteOffset(node.endIndex),
    );
    const more = errors.length - listed.length;
    return makeDiagnostic(
      SYNTAX_TOOL,
      gateCode(check.prefix, "syntax"),
      syntaxErrorMessage(node, decoded.text),
      {
        file: check.filePath,
        span,
        line: span.start_line,
        column: span.start_col,
        ...(more > 0 && position === listed.length - 1
          ? { note: `${more} more syntax errors are not listed` }
          : {}),
      },
    );
  });
  return { status: "failed", diagnostics };
}
