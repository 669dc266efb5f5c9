/**
 * The contract of `llm-refactor`: what a symbol-level operation (rename, patch, delete,
 * insert, plan) reports: the symbol it resolved, every edit (a span and the text put there),
 * the same-named places it left alone and why, the files with their checksums, the unified
 * diff of a preview, and for a rename the proof (the symbol graph before and after, with its
 * invariants checked). The plan it takes (`plan FILE`) is {@linkcode RefactorPlan}.
 *
 * @module
 */
import { z } from "zod";
import { type RecoverResult, RecoverResultSchema } from "./journal.ts";
import { type UndoResult, UndoResultSchema } from "./journal.ts";
import { type SymbolRecord, SymbolRecordSchema } from "./symbols.ts";

/** The operations of `llm-refactor` that edit code. */
export type RefactorOperation = "rename" | "patch" | "delete" | "insert" | "plan";

/** Why an edit is made. */
export type RefactorEditKind = "definition" | "reference" | "patch" | "delete" | "insert";

/** One edit: bytes `[byte_start, byte_end)` of the file as it was become `new_text`. */
export interface RefactorEdit {
  /** The file, relative to the root. */
  file_path: string;
  /** What the edit is. */
  kind: RefactorEditKind;
  /** Start in the file before the operation (of this step, in a plan). */
  byte_start: number;
  /** End in the file before the operation. */
  byte_end: number;
  /** 1-based line of `byte_start`. */
  start_line: number;
  /** 0-based byte column of `byte_start`. */
  start_col: number;
  /** The text written there (cut at 200 bytes with a marker for long definitions). */
  new_text: string;
}

/** A place holding the symbol's name that the operation did not touch, and why. */
export interface LeftOccurrence {
  /** The file, relative to the root. */
  file_path: string;
  /** 1-based line. */
  start_line: number;
  /** 0-based byte column. */
  start_col: number;
  /** Start byte. */
  byte_start: number;
  /** End byte. */
  byte_end: number;
  /**
   * `other_symbol`: it names another definition of the same name; `member_of_other`: a member
   * access whose receiver is not the symbol's; `definition_of_other`: another definition.
   */
  reason: "other_symbol" | "member_of_other" | "definition_of_other";
}

/** One file the operation changes. */
export interface RefactorFile {
  /** The file, relative to the root. */
  file_path: string;
  /** Edits in it. */
  edits: number;
  /** `sha256:` of the file before. */
  checksum_before: string;
  /** `sha256:` of the file after. */
  checksum_after: string;
}

/** One invariant of a rename's proof. */
export interface ProofInvariant {
  /** `reference_count_preserved`, `no_orphaned_reference`, `other_ids_unchanged`. */
  name: string;
  /** Whether it holds. */
  holds: boolean;
  /** What was compared. */
  detail: string;
}

/** The symbol graph around a renamed symbol, before or after. */
export interface ProofGraph {
  /** `symbol_id` of the renamed definition(s). */
  symbol_ids: string[];
  /** Uses that resolve to it. */
  references: number;
  /** Definitions of the touched files, other than it (their ids). */
  other_symbol_ids: number;
}

/** What `--proof` adds to a rename. */
export interface RenameProof {
  /** The graph before. */
  before: ProofGraph;
  /** The graph after (the new texts re-extracted and resolved). */
  after: ProofGraph;
  /** The invariants, each checked. */
  invariants: ProofInvariant[];
}

/** The result of an edit operation. */
export interface RefactorResult {
  /** The operation. */
  operation: RefactorOperation;
  /** Nothing was written: a preview. */
  dry_run: boolean;
  /** Whether the files now hold the edits. */
  applied: boolean;
  /** The symbol resolved (the first step's in a plan). */
  symbol?: SymbolRecord;
  /** The new name of a rename. */
  new_name?: string;
  /** Steps of a plan. */
  steps?: number;
  /** Files changed, by path. */
  files: RefactorFile[];
  /** Edits, by path and position (of the last step that made them, in a plan). */
  edits: RefactorEdit[];
  /** Places with the same name left alone. */
  left: LeftOccurrence[];
  /** Unified diff of every file (previews; `with_diff` on an applied run). */
  diff?: string;
  /** Which gates ran: `all` (syntax and compiler) or `syntax`. */
  gates: "all" | "syntax";
  /** A rename's proof, with `proof`. */
  proof?: RenameProof;
  /** Journal of an applied operation, relative to the root (undo takes the execution_id). */
  journal?: string;
}

/** What an `llm-refactor` envelope carries. */
export type RefactorOutput = RefactorResult | UndoResult | RecoverResult;

/** One step of a plan: the operation and its arguments, as the subcommand takes them. */
export interface RefactorStep {
  /** The operation. */
  op: "rename" | "patch" | "delete" | "insert";
  /** Name (or qualified name) of the symbol. */
  symbol?: string;
  /** Its `symbol_id` instead of a name. */
  symbol_id?: string;
  /** File of the definition, to pick among several. */
  file?: string;
  /** Kind of the definition, to pick among several. */
  kind?: string;
  /** New name (rename). */
  to?: string;
  /** New text (patch: the whole definition; insert: the new definition). */
  with?: string;
  /** Insert before the symbol (else after). */
  before?: boolean;
  /** Delete even when references remain. */
  force?: boolean;
}

/** Steps applied all or nothing. */
export interface RefactorPlan {
  /** Contract version the plan was written for. */
  schema_version?: string;
  /** Expected `sha256:` of files, checked before anything (by root-relative path). */
  expected_checksums?: Record<string, string>;
  /** The steps, in order; each sees the code as the steps before it left it. */
  steps: RefactorStep[];
}

const checksum = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const count = z.number().int().nonnegative();

/** zod schema of {@linkcode RefactorEdit}. */
export const RefactorEditSchema: z.ZodType<RefactorEdit> = z.object({
  file_path: z.string(),
  kind: z.enum(["definition", "reference", "patch", "delete", "insert"]),
  byte_start: count,
  byte_end: count,
  start_line: z.number().int().positive(),
  start_col: count,
  new_text: z.string(),
}).meta({ id: "RefactorEdit" });

/** zod schema of {@linkcode LeftOccurrence}. */
export const LeftOccurrenceSchema: z.ZodType<LeftOccurrence> = z.object({
  file_path: z.string(),
  start_line: z.number().int().positive(),
  start_col: count,
  byte_start: count,
  byte_end: count,
  reason: z.enum(["other_symbol", "member_of_other", "definition_of_other"]),
}).meta({ id: "LeftOccurrence" });

/** zod schema of {@linkcode RefactorFile}. */
export const RefactorFileSchema: z.ZodType<RefactorFile> = z.object({
  file_path: z.string(),
  edits: count,
  checksum_before: checksum,
  checksum_after: checksum,
}).meta({ id: "RefactorFile" });

const ProofGraphSchema: z.ZodType<ProofGraph> = z.object({
  symbol_ids: z.array(z.string()),
  references: count,
  other_symbol_ids: count,
});

/** zod schema of {@linkcode RenameProof}. */
export const RenameProofSchema: z.ZodType<RenameProof> = z.object({
  before: ProofGraphSchema,
  after: ProofGraphSchema,
  invariants: z.array(z.object({ name: z.string(), holds: z.boolean(), detail: z.string() })),
}).meta({ id: "RenameProof" });

/** zod schema of {@linkcode RefactorResult}. */
export const RefactorResultSchema: z.ZodType<RefactorResult> = z.object({
  operation: z.enum(["rename", "patch", "delete", "insert", "plan"]),
  dry_run: z.boolean(),
  applied: z.boolean(),
  symbol: SymbolRecordSchema.optional(),
  new_name: z.string().optional(),
  steps: count.optional(),
  files: z.array(RefactorFileSchema),
  edits: z.array(RefactorEditSchema),
  left: z.array(LeftOccurrenceSchema),
  diff: z.string().optional(),
  gates: z.enum(["all", "syntax"]),
  proof: RenameProofSchema.optional(),
  journal: z.string().optional(),
}).meta({ id: "RefactorResult", title: "RefactorResult" });

/** zod schema of {@linkcode RefactorOutput}. */
export const RefactorOutputSchema: z.ZodType<RefactorOutput> = z.union([
  RefactorResultSchema,
  UndoResultSchema,
  RecoverResultSchema,
]);

/** zod schema of {@linkcode RefactorStep}. */
export const RefactorStepSchema: z.ZodType<RefactorStep> = z.strictObject({
  op: z.enum(["rename", "patch", "delete", "insert"]),
  symbol: z.string().min(1).optional(),
  symbol_id: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  file: z.string().min(1).optional(),
  kind: z.string().min(1).optional(),
  to: z.string().min(1).optional(),
  with: z.string().optional(),
  before: z.boolean().optional(),
  force: z.boolean().optional(),
}).meta({ id: "RefactorStep" });

/** zod schema of {@linkcode RefactorPlan}. */
export const RefactorPlanSchema: z.ZodType<RefactorPlan> = z.strictObject({
  schema_version: z.string().optional(),
  expected_checksums: z.record(z.string(), z.string()).optional(),
  steps: z.array(RefactorStepSchema).min(1),
}).meta({ id: "RefactorPlan", title: "RefactorPlan" });
