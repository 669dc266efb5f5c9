/**
 * Plumbing of the malformed-input tests: a replayable random generator, the coded error a call
 * must throw, and a fuzz loop that feeds a tool random inputs and accepts only an envelope or a
 * coded error that is not internal.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Tool } from "../core/tool.ts";
import { ToolError } from "../schema/diagnostic.ts";
import { seededRandom } from "./helpers.ts";
import { EXIT, explainCode } from "../schema/error_codes.ts";

/** The coded error a call throws (fails when it throws something else, or nothing). */
export async function refusal(call: () => Promise<unknown>): Promise<ToolError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof ToolError, `not a coded error: ${error}`);
    return error;
  }
  assert.fail("no error");
}

/** How to fuzz a tool. */
export interface FuzzPlan {
  /** Candidate values of each input field. */
  fields: Record<string, readonly unknown[]>;
  /** Inputs to try. */
  runs: number;
  /** Seed of the generator. */
  seed: number;
  /** Most fields set per input. */
  maxFields: number;
  /** Completes an input (e.g. adds what makes it a search), given the generator. */
  complete?: (input: Record<string, unknown>, next: () => number) => void;
}

/**
 * Runs `tool` on `plan.runs` random inputs in `cwd`: each must give an envelope, or throw a
 * `ToolError` whose code is in the registry and does not mean an internal error.
 */
export async function fuzzTool(tool: Tool, cwd: string, plan: FuzzPlan): Promise<void> {
  const next = seededRandom(plan.seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const names = Object.keys(plan.fields);
  for (let run = 0; run < plan.runs; run++) {
    const input: Record<string, unknown> = {};
    const count = 1 + Math.floor(next() * plan.maxFields);
    for (let i = 0; i < count; i++) {
      const field = pick(names);
      input[field] = pick(plan.fields[field]);
    }
    plan.complete?.(input, next);
    try {
      const outcome = await tool.execute(input, {
        executionId: "00000000-0000-4000-8000-000000000000",
        cwd,
      });
      assert.ok(["ok", "partial", "error"].includes(outcome.envelope.status));
    } catch (error) {
      const what = `input ${JSON.stringify(input).slice(0, 300)}`;
      assert.ok(error instanceof ToolError, `${what}: ${(error as Error)?.stack}`);
      const entry = explainCode(error.code);
      assert.ok(entry, `${what}: ${error.code} is not in the registry`);
      assert.notEqual(entry.exit, EXIT.internal, `${what}: ${error.code} ${error.message}`);
    }
  }
}
