/**
 * Output shapes of `llm-context` (contract §10): ranked files, ranked blocks of code fitted to a
 * token budget (each exactly the bytes of its span), and the next best blocks left out.
 *
 * @module
 */
import { z } from "zod";
import { type Span, SpanSchema } from "./span.ts";

/** A ranked file. */
export interface ContextFile {
  /** Root-relative path. */
  file_path: string;
  /** Its score (higher is better). */
  score: number;
  /** Why, strongest first: short codes with their evidence (`traceback:a.py:12`, `blocks`). */
  reasons: string[];
}

/** A member of a large class whose block is its header only. */
export interface ContextMember {
  /** Its name. */
  name: string;
  /** Its kind. */
  kind: string;
  /** Its first line. */
  line: number;
  /** Its first line's text. */
  signature: string;
}

/** A block of code chosen for the task. */
export interface ContextBlock {
  /** Where it lies: byte and line range, `span_id`. */
  span: Span;
  /** `sha256:` of the whole file, as an edit's expected checksum. */
  checksum: string;
  /** The definition's id, when the block is a definition. */
  symbol_id?: string;
  /** The definition's qualified name. */
  name?: string;
  /** The definition's kind, or `lines` for lines outside definitions. */
  kind: string;
  /** Its score. */
  score: number;
  /** Why it was chosen (`named_in_task:Foo`, `traceback:a.py:12`, `terms`, `callee_of:<id>`…). */
  reasons: string[];
  /** Its tokens: ceil of the characters of its text and outline over 4. */
  tokens: number;
  /** Exactly the bytes of the span. */
  text: string;
  /** A large class's members by signature, when the block is its header only. */
  outline?: ContextMember[];
}

/** A block left out for want of room. */
export interface ContextOmitted {
  /** Where it lies. */
  span: Pick<Span, "file_path" | "start_line" | "end_line" | "span_id">;
  /** The definition's qualified name. */
  name?: string;
  /** Its score. */
  score: number;
  /** Its tokens. */
  tokens: number;
}

/** The data of an `llm-context` answer. */
export interface ContextData {
  /** Blocks listed. */
  count: number;
  /** The budget, in tokens. */
  budget: number;
  /** Tokens the blocks take: never above the budget. */
  tokens_used: number;
  /** How a token is counted. */
  token_rule: string;
  /** Files, best first. */
  files: ContextFile[];
  /** Blocks, best first. */
  blocks: ContextBlock[];
  /** The next best blocks left out. */
  omitted: ContextOmitted[];
  /**
   * When blocks were left out: the call that lists the next ones — `context` with the same task
   * (not repeated here) and these arguments (the blocks listed so far excluded).
   */
  next?: ContextNext;
}

/** The next call of a partial `llm-context` answer: the same task, with these arguments. */
export interface ContextNext {
  /** The tool (MCP name; on the command line, `llm-context`). */
  tool: "context";
  /** Arguments to add to the same task's. */
  arguments: { exclude: string[]; budget: number };
}

const score = z.number();
const count = z.number().int().nonnegative();

/** zod schema of {@linkcode ContextData}. */
export const ContextDataSchema: z.ZodType<ContextData> = z.object({
  count,
  budget: count,
  tokens_used: count,
  token_rule: z.string(),
  files: z.array(z.object({
    file_path: z.string().min(1),
    score,
    reasons: z.array(z.string()),
  })),
  blocks: z.array(z.object({
    span: SpanSchema,
    checksum: z.string(),
    symbol_id: z.string().optional(),
    name: z.string().optional(),
    kind: z.string(),
    score,
    reasons: z.array(z.string()),
    tokens: count,
    text: z.string(),
    outline: z.array(z.object({
      name: z.string(),
      kind: z.string(),
      line: count,
      signature: z.string(),
    })).optional(),
  })),
  omitted: z.array(z.object({
    span: z.object({
      file_path: z.string(),
      start_line: count,
      end_line: count,
      span_id: z.string(),
    }),
    name: z.string().optional(),
    score,
    tokens: count,
  })),
  next: z.object({
    tool: z.literal("context"),
    arguments: z.object({ exclude: z.array(z.string()), budget: count }),
  }).optional(),
});
