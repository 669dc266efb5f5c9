/**
 * `core/flag_parse.ts` against its oracle, node:util's `parseArgs` with `strict: true` and
 * `allowPositionals: true`, on generated command lines: each is parsed to the same values and
 * positionals by both, or refused by both.
 */
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { FlagError, type FlagOption, parseFlags } from "../core/flag_parse.ts";
import { seededRandom } from "./helpers.ts";

const OPTIONS: Record<string, FlagOption> = {
  all: { type: "boolean", short: "a" },
  brief: { type: "boolean", short: "b" },
  count: { type: "string", short: "n" },
  pattern: { type: "string", short: "e", multiple: true },
  glob: { type: "string", multiple: true },
  hidden: { type: "boolean", multiple: true },
  format: { type: "string" },
  // A one-letter long name: `-q` names it when no flag has the short name `q`.
  q: { type: "boolean" },
};

/** Arguments that reach every branch: flags of each kind and form, values, and lookalikes. */
const ARGUMENTS = [
  ...["", "-", "--", "query", "3", "json", "a=b", "-5", "-x", "-z", "---x", "--=", "--=x"],
  ...["-a", "-b", "-q", "-n", "-e", "-ab", "-abn", "-an5", "-ba", "-n5", "-n-5", "-e-x", "-az"],
  ...["--all", "--all=1", "--all=", "--count", "--count=3", "--count=-3", "--count=", "--pattern"],
  ...["--pattern=x", "--glob", "--glob=*.ts", "--hidden", "--format", "--format=text", "--q"],
  ...["--nope", "--__proto__", "--constructor", "--toString", "-h"],
];

function generatedLine(random: () => number): string[] {
  const length = Math.floor(random() * 7);
  return Array.from({ length }, () => ARGUMENTS[Math.floor(random() * ARGUMENTS.length)]);
}

type Outcome = { values: Record<string, unknown>; positionals: string[] } | "refused";

function oracle(args: string[]): Outcome {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    });
    return { values: { ...values }, positionals };
  } catch {
    return "refused";
  }
}

function ours(args: string[]): Outcome {
  try {
    const { values, positionals } = parseFlags(args, OPTIONS);
    return { values: { ...values }, positionals };
  } catch (error) {
    if (error instanceof FlagError) return "refused";
    throw error;
  }
}

Deno.test("flag parsing: the same values and positionals as parseArgs, or a refusal by both", () => {
  const random = seededRandom(29);
  let refused = 0;
  for (let run = 0; run < 6000; run++) {
    const args = generatedLine(random);
    const expected = oracle(args);
    if (expected === "refused") refused++;
    assert.deepEqual(ours(args), expected, JSON.stringify(args));
  }
  // Both kinds of line were generated in numbers.
  assert.ok(refused > 1000 && refused < 5000, `${refused} of 6000 refused`);
});

Deno.test("flag parsing: a refusal says which flag and what is wrong", () => {
  const message = (args: string[]) => {
    try {
      parseFlags(args, OPTIONS);
    } catch (error) {
      if (error instanceof FlagError) return error.message;
      throw error;
    }
    throw new Error(`${JSON.stringify(args)} was accepted`);
  };
  assert.match(message(["--nope"]), /unknown flag '--nope'/);
  assert.match(message(["--count"]), /flag '-n, --count' needs a value/);
  assert.match(message(["--all=1"]), /flag '-a, --all' takes no value, got '1'/);
  assert.match(message(["-n", "-5"]), /flag '-n' would take '-5' as its value.*--count=-5/);
});
