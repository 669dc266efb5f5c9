/**
 * From a subcommand's input to the engine's request: the symbol named (its file made
 * root-relative), the new text read from its argument, file or standard input, a plan read and
 * checked against its schema, the expected checksums parsed.
 *
 * @module
 */
import { relative, resolve } from "../../core/path_syntax.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { normalizeChecksum } from "../../schema/checksum.ts";
import { RefactorPlanSchema, type RefactorStep } from "../../schema/refactor.ts";
import { readInputBytes } from "../../core/input_file.ts";
import { utf8Input, wellFormedInput } from "../../core/text_input.ts";
import { toSlash } from "../../core/paths.ts";
import { parseJsonText } from "../../core/transaction/plan_json.ts";
import type { Step } from "./ops.ts";
import type { TargetSpec } from "./target.ts";

/** Where a request's text and paths come from. */
export interface RequestSource {
  /** Directory relative paths are given against. */
  cwd: string;
  /** The root, relative to `cwd` (or absolute). */
  root: string;
  /** Reads standard input, when the host offers it. */
  readStdin?: () => Promise<string>;
}

/** The symbol fields of an input. */
export interface SymbolInput {
  /** Name. */
  symbol?: string;
  /** Or id. */
  symbol_id?: string;
  /** File of the definition, relative to the working directory. */
  file?: string;
  /** Kind. */
  kind?: string;
}

function argError(code: string, message: string): ToolError {
  return new ToolError(code, message);
}

/** The target of an input, its file made relative to the root. */
export function targetOf(input: SymbolInput, source: RequestSource): TargetSpec {
  if (input.symbol === undefined && input.symbol_id === undefined) {
    throw argError("SPL-ARG-002", "name the symbol (symbol) or give its symbol_id");
  }
  const spec: TargetSpec = {};
  if (input.symbol !== undefined) spec.symbol = input.symbol;
  if (input.symbol_id !== undefined) spec.symbol_id = input.symbol_id;
  if (input.kind !== undefined) spec.kind = input.kind;
  if (input.file !== undefined) {
    const root = resolve(source.cwd, source.root);
    spec.file = toSlash(relative(root, resolve(source.cwd, input.file)));
  }
  return spec;
}

/** The new text: the argument, the file named by `with`, or standard input. */
export async function textOf(
  input: { text?: string; with?: string },
  source: RequestSource,
): Promise<string> {
  if (input.text !== undefined && input.with !== undefined) {
    throw argError("SPL-ARG-002", "give the new text either as text or with a file, not both");
  }
  if (input.text !== undefined) return wellFormedInput("SPL", input.text, "the text");
  if (input.with !== undefined && input.with !== "-") {
    const bytes = readInputBytes("SPL", source.cwd, input.with, "text file");
    return utf8Input("SPL", bytes, `the text file ${input.with}`);
  }
  if (!source.readStdin) {
    throw argError(
      "SPL-ARG-002",
      "give the new text (text), which this host cannot read from " +
        "standard input",
    );
  }
  return await source.readStdin();
}

/** `PATH=sha256:…` pairs as a map of root-relative paths to checksums. */
export function expectedOf(
  pairs: readonly string[],
  source: RequestSource,
): Record<string, string> {
  const root = resolve(source.cwd, source.root);
  const expected: Record<string, string> = {};
  for (const pair of pairs) {
    const cut = pair.lastIndexOf("=");
    const path = toSlash(relative(root, resolve(source.cwd, pair.slice(0, cut))));
    expected[path] = normalizeChecksum(pair.slice(cut + 1)) ?? pair.slice(cut + 1);
  }
  return expected;
}

function stepError(index: number, message: string): ToolError {
  return new ToolError("SPL-ARG-010", `step ${index + 1}: ${message}`);
}

/** A plan step as the engine's step. */
function stepOf(raw: RefactorStep, index: number, source: RequestSource): Step {
  const target = targetOf(raw, source);
  switch (raw.op) {
    case "rename":
      if (raw.to === undefined) throw stepError(index, "a rename needs `to`");
      return { op: "rename", target, to: raw.to };
    case "patch":
      if (raw.with === undefined) throw stepError(index, "a patch needs `with` (the new text)");
      return { op: "patch", target, text: raw.with };
    case "insert":
      if (raw.with === undefined) throw stepError(index, "an insert needs `with` (the new text)");
      return { op: "insert", target, text: raw.with, before: raw.before ?? false };
    case "delete":
      return { op: "delete", target, force: raw.force ?? false };
  }
}

/** The steps and expected checksums of a plan given as a file, standard input or inline. */
export async function planOf(
  input: { plan?: string; steps?: unknown },
  source: RequestSource,
): Promise<{ steps: Step[]; expected: Record<string, string> }> {
  let raw: unknown;
  let label: string;
  if (input.steps !== undefined) {
    label = "the steps argument";
    raw = {
      steps: typeof input.steps === "string"
        ? parseJsonText(input.steps, label, "SPL-ARG-010")
        : input.steps,
    };
  } else if (input.plan !== undefined) {
    label = input.plan === "-" ? "the plan on standard input" : `the plan ${input.plan}`;
    const text = input.plan === "-"
      ? await textOf({}, source)
      : utf8Input("SPL", readInputBytes("SPL", source.cwd, input.plan, "plan file"), label);
    raw = parseJsonText(text, label, "SPL-ARG-010");
  } else {
    throw argError("SPL-ARG-002", "give the plan (a file, or - for standard input) or steps");
  }
  const parsed = RefactorPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ToolError(
      "SPL-ARG-010",
      `${label} does not match the refactor-plan schema: $.${issue.path.join(".")}: ` +
        issue.message,
    );
  }
  // Paths in a plan are relative to the root, wherever the plan was run from.
  const inRoot = { ...source, cwd: resolve(source.cwd, source.root), root: "." };
  const steps = parsed.data.steps.map((step, index) => stepOf(step, index, inRoot));
  const pairs = Object.entries(parsed.data.expected_checksums ?? {}).map(([path, sum]) =>
    `${path}=${sum}`
  );
  return { steps, expected: expectedOf(pairs, inRoot) };
}
