/**
 * The `llm-refactor` subcommands, each defined once through `defineTool` (its CLI, its MCP tool
 * `refactor_<subcommand>` and its JSON Schema): `rename`, `patch`, `delete`, `insert`, `plan`,
 * `undo`, `recover` and `log`. The edits preview by default for MCP clients (an agent confirms
 * with dry_run: false) and apply by default on the command line (`--dry-run` previews).
 *
 * @module
 */
import { resolve } from "../../core/path_syntax.ts";
import type { z } from "zod";
import {
  defineTool,
  type InputSchema,
  type PositionalMapper,
  type RunContext,
  type Tool,
} from "../../core/tool.ts";
import { listExecutions, storeDirectory } from "../../core/execution_log.ts";
import {
  type MutationEnvelope,
  mutationEnvelope,
  mutationEnvelopeSchema,
  queryEnvelope,
  queryEnvelopeSchema,
} from "../../schema/envelope.ts";
import { type ExecutionListData, ExecutionListDataSchema } from "../../schema/mcp.ts";
import {
  type RefactorOperation,
  type RefactorOutput,
  RefactorOutputSchema,
} from "../../schema/refactor.ts";
import { LLM_REFACTOR } from "../../schema/tool_names.ts";
import { ToolError } from "../../schema/diagnostic.ts";
import { refactor, type RefactorReport, type RefactorRequest } from "./engine.ts";
import {
  DeleteInput,
  InsertInput,
  LogInput,
  PatchInput,
  PlanInput,
  RecoverInput,
  RenameInput,
  UndoInput,
} from "./input.ts";
import type { Step } from "./ops.ts";
import { expectedOf, planOf, type RequestSource, targetOf, textOf } from "./request.ts";
import { renderText } from "./text.ts";

/** Output schema of the `llm-refactor` edits, undo and recover. */
export const RefactorEnvelopeSchema: z.ZodType<MutationEnvelope<RefactorOutput>> =
  mutationEnvelopeSchema(RefactorOutputSchema);

const ANNOTATIONS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false };

/** A preview unless asked otherwise: MCP hosts (no standard input to read) preview by default. */
function previewOf(dryRun: boolean | undefined, context: RunContext): boolean {
  return dryRun ?? context.readStdin === undefined;
}

function sourceOf(input: { root?: string }, context: RunContext): RequestSource {
  return {
    cwd: context.cwd,
    root: input.root ?? ".",
    ...(context.readStdin ? { readStdin: context.readStdin } : {}),
  };
}

/** The envelope (its `tool` the subcommand's name) and exit code of an engine report. */
function outcomeOf(tool: string, report: RefactorReport) {
  const { exitCode, execution_id, ...parts } = report;
  const envelope = mutationEnvelope<RefactorOutput>(tool, {
    ...parts,
    executionId: execution_id,
  });
  return { envelope, exitCode };
}

interface EditFlags {
  dry_run?: boolean;
  gates: "all" | "syntax";
  allow_build_scripts: boolean;
  expected_checksums: string[];
  with_diff: boolean;
  refresh: "all" | "involved";
  root?: string;
  proof?: boolean;
}

async function runEdit(
  tool: string,
  request: Extract<RefactorRequest, { kind: "edit" }>,
  input: EditFlags,
  context: RunContext,
  expected: Record<string, string> = {},
) {
  const source = sourceOf(input, context);
  const report = await refactor(request, {
    root: source.root,
    cwd: context.cwd,
    executionId: context.executionId,
    dryRun: previewOf(input.dry_run, context),
    gates: input.gates,
    allowBuildScripts: input.allow_build_scripts,
    refresh: input.refresh,
    withDiff: input.with_diff,
    proof: input.proof ?? false,
    expectedChecksums: { ...expectedOf(input.expected_checksums, source), ...expected },
    ...(context.cache ? { cache: context.cache } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
  });
  return outcomeOf(tool, report);
}

const firstAsSymbol = ([symbol]: string[]) => symbol === undefined ? {} : { symbol };

const EDIT_NOTES = "Compiler gates run only with --allow-run (scope it to the compilers, e.g. " +
  "--allow-run=gcc,python3,node,javac,rustc,go,deno); without it they are skipped with a note and " +
  "the syntax gate decides. The symbol index (<root>/.llm/index.db) is brought up to date first.";

/** What one edit subcommand states; the rest of its definition is shared. */
interface EditSpec<T extends EditFlags & Record<string, unknown>> {
  operation: RefactorOperation;
  title: string;
  description: string;
  example: Record<string, unknown>;
  input: InputSchema<T>;
  usage: string;
  examples: string[];
  positionals?: PositionalMapper;
  /** The steps the input asks for, with the checksums a plan expects. */
  steps: (
    input: T,
    source: RequestSource,
  ) => Promise<{ steps: Step[]; expected?: Record<string, string> }>;
}

/** An edit subcommand: `llm-refactor <operation>`, MCP `refactor_<operation>`. */
function editTool<T extends EditFlags & Record<string, unknown>>(spec: EditSpec<T>): Tool {
  const name = `${LLM_REFACTOR} ${spec.operation}`;
  return defineTool({
    name,
    mcpName: `refactor_${spec.operation}`,
    title: spec.title,
    description: spec.description,
    example: spec.example,
    prefix: "SPL",
    kind: "mutation",
    operationType: spec.operation,
    permissions: ["read", "write"],
    annotations: ANNOTATIONS,
    input: spec.input,
    output: RefactorEnvelopeSchema,
    text: renderText,
    cli: {
      usage: spec.usage,
      positionals: spec.positionals ?? firstAsSymbol,
      notes: EDIT_NOTES,
      examples: spec.examples,
    },
    run: async (input, context) => {
      const { steps, expected } = await spec.steps(input, sourceOf(input, context));
      const request = { kind: "edit" as const, operation: spec.operation, steps };
      return await runEdit(name, request, input, context, expected);
    },
  });
}

/** `llm-refactor rename`. */
export const refactorRenameTool: Tool = editTool({
  operation: "rename",
  title: "Rename a symbol everywhere it is used, through the code graph",
  description: "Rename a definition (symbol, with file/kind to pick one, or symbol_id) and every " +
    "use that resolves to it across files: identifiers only, never strings, comments, shadowing " +
    "locals or another scope's symbol of the same name. Refused when the new name collides, " +
    "when the name is ambiguous (candidates listed) or when a use cannot be told apart. Every " +
    "changed file passes the syntax and compiler gates before one atomic write; dry_run " +
    "previews the diff; proof checks the symbol graph before and after; undo takes the " +
    "execution_id.",
  example: { symbol: "parse_config", to: "load_config", dry_run: true },
  input: RenameInput,
  usage: "rename SYMBOL --to NEW [--file F] [--kind K] [--dry-run] [--proof]",
  examples: [
    "llm-refactor rename parse_config --to load_config --dry-run",
    "llm-refactor rename helper --file src/util.c --kind function --to util_helper --proof",
  ],
  steps: (input, source) =>
    Promise.resolve({ steps: [{ op: "rename", target: targetOf(input, source), to: input.to }] }),
});

/** `llm-refactor patch`. */
export const refactorPatchTool: Tool = editTool({
  operation: "patch",
  title: "Replace a symbol's whole definition, compiled before it lands",
  description: "Replace the whole definition of a symbol (symbol, file/kind, or symbol_id) with " +
    "text (its doc comment is kept). The file passes the syntax and compiler gates before the " +
    "atomic write, else nothing changes; dry_run previews the diff; undo takes the execution_id.",
  example: { symbol: "area", text: "def area(r):\n    return 3.14159 * r * r\n", dry_run: true },
  input: PatchInput,
  usage: "patch SYMBOL (--text T | --with FILE | < FILE) [--file F] [--kind K] [--dry-run]",
  examples: ["llm-refactor patch area --with area.py", "llm-refactor patch main < main.c"],
  steps: async (input, source) => ({
    steps: [{ op: "patch", target: targetOf(input, source), text: await textOf(input, source) }],
  }),
});

/** `llm-refactor delete`. */
export const refactorDeleteTool: Tool = editTool({
  operation: "delete",
  title: "Delete a symbol's definition with its doc comment, if nothing uses it",
  description: "Delete a definition (symbol, file/kind, or symbol_id) with its doc comment and " +
    "attributes. Refused while references remain (listed), unless force. The file passes the " +
    "gates before the atomic write; dry_run previews; undo takes the execution_id.",
  example: { symbol: "unused_helper", dry_run: true },
  input: DeleteInput,
  usage: "delete SYMBOL [--file F] [--kind K] [--force] [--dry-run]",
  examples: ["llm-refactor delete unused_helper --dry-run"],
  steps: (input, source) =>
    Promise.resolve({
      steps: [{ op: "delete", target: targetOf(input, source), force: input.force }],
    }),
});

/** `llm-refactor insert`. */
export const refactorInsertTool: Tool = editTool({
  operation: "insert",
  title: "Add a definition next to a symbol, compiled before it lands",
  description: "Insert text (a new definition) after a symbol (or before it, with its doc " +
    "comment, with before), indented like it. The file passes the gates before the atomic " +
    "write; dry_run previews; undo takes the execution_id.",
  example: { symbol: "main", before: true, text: "static int twice(int x) { return 2 * x; }\n" },
  input: InsertInput,
  usage: "insert SYMBOL (--before | --after) (--text T | --with FILE | < FILE) [--dry-run]",
  examples: ["llm-refactor insert main --before --with helper.c"],
  steps: async (input, source) => {
    if (input.before && input.after) {
      throw new ToolError("SPL-ARG-002", "give before or after, not both");
    }
    const text = await textOf(input, source);
    return {
      steps: [{ op: "insert", target: targetOf(input, source), text, before: input.before }],
    };
  },
});

/** `llm-refactor plan`. */
export const refactorPlanTool: Tool = editTool({
  operation: "plan",
  title: "Apply several symbol-level steps all or nothing",
  description: "Apply steps [{op: rename|patch|delete|insert, symbol, file?, kind?, to?, with?, " +
    "before?, force?}] in order, each on the code the steps before it left, then gate every " +
    "changed file and write all of them or none (plan: a JSON file {steps, " +
    "expected_checksums?}). dry_run previews the diff; undo takes the execution_id.",
  example: { steps: [{ op: "rename", symbol: "old_name", to: "new_name" }], dry_run: true },
  input: PlanInput,
  usage: "plan (FILE | - | --steps JSON) [--dry-run]",
  positionals: ([plan]) => plan === undefined ? {} : { plan },
  examples: ["llm-refactor plan steps.json --dry-run", "llm-refactor plan - < steps.json"],
  steps: (input, source) => planOf(input, source),
});

/** Runs an undo or a recovery: journals only, no index, no gate. */
async function runJournal(
  tool: string,
  request: RefactorRequest,
  root: string | undefined,
  context: RunContext,
) {
  const report = await refactor(request, {
    root: root ?? ".",
    cwd: context.cwd,
    executionId: context.executionId,
    dryRun: false,
    gates: "syntax",
    refresh: "involved",
  });
  return outcomeOf(tool, report);
}

/** `llm-refactor undo`. */
export const refactorUndoTool: Tool = defineTool({
  name: `${LLM_REFACTOR} undo`,
  mcpName: "refactor_undo",
  title: "Undo a refactor, restoring the exact bytes",
  description: "Undo an applied refactor given its execution_id (default: the newest one): every " +
    "file it changed gets back " +
    "its exact prior bytes, refused (nothing written) when any of them changed since. dry_run " +
    "previews the restoration.",
  example: { execution_id: "0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11", dry_run: true },
  prefix: "SPL",
  kind: "mutation",
  operationType: "undo",
  permissions: ["read", "write"],
  annotations: ANNOTATIONS,
  input: UndoInput,
  output: RefactorEnvelopeSchema,
  text: renderText,
  cli: {
    usage: "undo [EXECUTION_ID] [--dry-run]",
    positionals: ([id]) => id === undefined ? {} : { execution_id: id },
    examples: ["llm-refactor undo 0b7c6a1e-5f0e-4c3e-9a57-2b8f2f0d7c11"],
  },
  run: async (input, context) => {
    const request: RefactorRequest = { kind: "undo", dryRun: previewOf(input.dry_run, context) };
    if (input.execution_id !== undefined) request.id = input.execution_id;
    return await runJournal(`${LLM_REFACTOR} undo`, request, input.root, context);
  },
});

/** `llm-refactor recover`. */
export const refactorRecoverTool: Tool = defineTool({
  name: `${LLM_REFACTOR} recover`,
  mcpName: "refactor_recover",
  title: "Recover refactors interrupted midway",
  description: "Finish or roll back refactors whose process died while writing (from their " +
    "journals), so every file holds either all of an operation or none of it.",
  example: { dry_run: true },
  prefix: "SPL",
  kind: "mutation",
  operationType: "recover",
  permissions: ["read", "write"],
  annotations: ANNOTATIONS,
  input: RecoverInput,
  output: RefactorEnvelopeSchema,
  text: renderText,
  cli: { usage: "recover [--dry-run]", examples: ["llm-refactor recover"] },
  run: async (input, context) => {
    const request: RefactorRequest = { kind: "recover", dryRun: input.dry_run };
    return await runJournal(`${LLM_REFACTOR} recover`, request, input.root, context);
  },
});

/** `llm-refactor log`. */
export const refactorLogTool: Tool = defineTool({
  name: `${LLM_REFACTOR} log`,
  mcpName: "refactor_log",
  title: "List the refactors run in this root",
  description: "List the llm-refactor runs of the execution log, newest first, with their " +
    "execution_id (what undo takes), arguments and status.",
  example: { limit: 10 },
  prefix: "SPL",
  kind: "query",
  permissions: ["read"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  input: LogInput,
  output: queryEnvelopeSchema(ExecutionListDataSchema),
  cli: { usage: "log [--limit N]", examples: ["llm-refactor log --limit 5"] },
  run: (input, context) => {
    const all = listExecutions(storeDirectory(resolve(context.cwd, input.root ?? ".")));
    const ours = all.executions.filter((run) => run.tool.startsWith("refactor_"));
    const shown = input.limit > 0 ? ours.slice(0, input.limit) : ours;
    const data: ExecutionListData = { count: shown.length, total: ours.length, executions: shown };
    return Promise.resolve({ envelope: queryEnvelope(`${LLM_REFACTOR} log`, data, []) });
  },
});

/** Every subcommand of `llm-refactor`, by name. */
export const REFACTOR_SUBCOMMANDS: Readonly<Record<string, Tool>> = {
  rename: refactorRenameTool,
  patch: refactorPatchTool,
  delete: refactorDeleteTool,
  insert: refactorInsertTool,
  plan: refactorPlanTool,
  undo: refactorUndoTool,
  recover: refactorRecoverTool,
  log: refactorLogTool,
};
