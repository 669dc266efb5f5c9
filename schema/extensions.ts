/**
 * The rich span extensions of contract §5. Each appears in output only when asked for.
 *
 * @module
 */
import { z } from "zod";
import { type Span, SpanSchema } from "./span.ts";

/** One line of context around a match. */
export interface ContextLine {
  /** 1-based line number. */
  line: number;
  /** The line's text without its line break, cut at `--max-columns`. */
  text: string;
  /** Present and true when `text` was cut at `--max-columns`. */
  truncated?: boolean;
}

/** zod schema of {@linkcode ContextLine}. */
export const ContextLineSchema: z.ZodType<ContextLine> = z.object({
  line: z.number().int().positive(),
  text: z.string(),
  truncated: z.boolean().optional(),
}).meta({ id: "ContextLine" });

/** What a span is in the language's terms (`--with-semantics`). */
export interface Semantics {
  /** Normalised kind: function, method, class, struct, … or a node type. */
  semantic_kind: string;
  /** Registry name of the language. */
  language: string;
  /** Name of the enclosing symbol, when there is one. */
  parent?: string;
}

/** zod schema of {@linkcode Semantics}. */
export const SemanticsSchema: z.ZodType<Semantics> = z.object({
  semantic_kind: z.string(),
  language: z.string(),
  parent: z.string().optional(),
}).meta({ id: "Semantics" });

/** A reference to a symbol in a relationship list. */
export interface SymbolRef {
  /** The symbol's name. */
  name: string;
  /** Its normalised kind. */
  kind?: string;
  /** Its stable id when known. */
  symbol_id?: string;
  /** Where it is defined or used. */
  span?: Span;
}

/** zod schema of {@linkcode SymbolRef}. */
export const SymbolRefSchema: z.ZodType<SymbolRef> = z.object({
  name: z.string(),
  kind: z.string().optional(),
  symbol_id: z.string().optional(),
  span: SpanSchema.optional(),
}).meta({ id: "SymbolRef" });

/** Code-graph relationships of a span (`--with-callers`, `--with-callees`, … `-R`). */
export interface Relationships {
  /** Symbols that call this one. */
  callers?: SymbolRef[];
  /** Symbols this one calls. */
  callees?: SymbolRef[];
  /** Imports of the file. */
  imports?: SymbolRef[];
  /** Exports of the file. */
  exports?: SymbolRef[];
}

/** zod schema of {@linkcode Relationships}. */
export const RelationshipsSchema: z.ZodType<Relationships> = z.object({
  callers: z.array(SymbolRefSchema).optional(),
  callees: z.array(SymbolRefSchema).optional(),
  imports: z.array(SymbolRefSchema).optional(),
  exports: z.array(SymbolRefSchema).optional(),
}).meta({ id: "Relationships" });

/** Checksums that let a later edit prove it works on the bytes that were read (`--with-checksums`). */
export interface SpanChecksums {
  /** `sha256:` of the span's bytes. */
  checksum_before: string;
  /** `sha256:` of the whole file. */
  file_checksum_before: string;
}

const checksum = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** zod schema of {@linkcode SpanChecksums}. */
export const SpanChecksumsSchema: z.ZodType<SpanChecksums> = z.object({
  checksum_before: checksum,
  file_checksum_before: checksum,
}).meta({ id: "SpanChecksums" });

/** A next step the tool suggests to an agent. */
export interface SuggestedAction {
  /** Tool to call, e.g. `llm-transform`. */
  tool: string;
  /** What it would do, e.g. `replace`. */
  action: string;
  /** Why. */
  reason: string;
  /** Arguments for that call. */
  arguments?: Record<string, unknown>;
}

/** zod schema of {@linkcode SuggestedAction}. */
export const SuggestedActionSchema: z.ZodType<SuggestedAction> = z.object({
  tool: z.string(),
  action: z.string(),
  reason: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
}).meta({ id: "SuggestedAction" });

/** All optional extension fields a span-bearing result may carry. */
export interface SpanExtensions {
  /** Lines before the match (`-C`, `-B`). */
  context_before?: ContextLine[];
  /** Lines after the match (`-C`, `-A`). */
  context_after?: ContextLine[];
  /** `--with-semantics`. */
  semantics?: Semantics;
  /** `--with-callers` and friends. */
  relationships?: Relationships;
  /** `--with-checksums`. */
  checksums?: SpanChecksums;
  /** A suggested next call. */
  suggested_action?: SuggestedAction;
  /** Short hints for an agent, e.g. which flag narrows the result. */
  tool_hints?: string[];
}

/** zod shape of {@linkcode SpanExtensions}, to spread into result object schemas. */
export const spanExtensionShape: {
  context_before: z.ZodOptional<z.ZodArray<z.ZodType<ContextLine>>>;
  context_after: z.ZodOptional<z.ZodArray<z.ZodType<ContextLine>>>;
  semantics: z.ZodOptional<z.ZodType<Semantics>>;
  relationships: z.ZodOptional<z.ZodType<Relationships>>;
  checksums: z.ZodOptional<z.ZodType<SpanChecksums>>;
  suggested_action: z.ZodOptional<z.ZodType<SuggestedAction>>;
  tool_hints: z.ZodOptional<z.ZodArray<z.ZodString>>;
} = {
  context_before: z.array(ContextLineSchema).optional(),
  context_after: z.array(ContextLineSchema).optional(),
  semantics: SemanticsSchema.optional(),
  relationships: RelationshipsSchema.optional(),
  checksums: SpanChecksumsSchema.optional(),
  suggested_action: SuggestedActionSchema.optional(),
  tool_hints: z.array(z.string()).optional(),
};
