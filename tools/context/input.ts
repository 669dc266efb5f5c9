/**
 * The input schema of `llm-context` (which is also its flag set): the definition (`tool.ts`)
 * takes it, the run (`run.ts`) its type.
 *
 * @module
 */
import { z } from "zod";
import { field } from "../../schema/fields.ts";
import { CONTEXT_DEFAULTS } from "./defaults.ts";

/** Input schema of `llm-context`. */
export const ContextInput = z.object({
  task: field(
    z.string().optional().describe(
      "The task: an issue's text, a request, a traceback (the first positional argument; - reads " +
        "standard input)",
    ),
    { aliases: ["query", "issue"] },
  ),
  symbol: field(
    z.string().min(1).optional().describe(
      "One symbol's context in place of a task's: its definition (signature and body), then its " +
        "callers, then its callees (name, Class.method or pkg.mod.name)",
    ),
    { short: "s" },
  ),
  task_file: field(
    z.string().optional().describe("Read the task from this file (command line)"),
    { path: true },
  ),
  budget: z.number().int().positive().default(CONTEXT_DEFAULTS.budget).describe(
    "Tokens the blocks may take; a token is ceil(chars / 4) of their text",
  ),
  paths: field(
    z.array(z.string()).default([]).describe("Only files under these paths [default: the root]"),
    { path: true, aliases: ["path"] },
  ),
  language: field(
    z.string().optional().describe("Only files of this language (a registry name: python, c…)"),
    { short: "l", aliases: ["lang"] },
  ),
  focus: field(
    z.array(z.string()).default([]).describe(
      "Files or definitions (names) the agent already holds: not listed again, and the code " +
        "next to them counts more",
    ),
    {},
  ),
  exclude: field(
    z.array(z.string()).default([]).describe(
      "Span ids or files the agent already holds: not listed again (a second call's way to the " +
        "next blocks)",
    ),
    {},
  ),
});

/** Input of `llm-context`, as the engine receives it after defaults. */
export type ContextInput = z.output<typeof ContextInput>;
