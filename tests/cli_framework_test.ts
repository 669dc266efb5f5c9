import assert from "node:assert/strict";
import { parseJson, runEntry } from "./helpers.ts";

const PROBE = "tests/fixtures/probe_tool.ts";

interface Envelope {
  status: string;
  execution_id: string;
  data: { count: number; echo?: unknown };
  diagnostics: { code: string; message: string; note?: string; remediation?: string }[];
}

const STACK = /\n\s+at .*:\d+:\d+/;

Deno.test("flags come from the input schema: numbers are coerced, repeatable flags collect", async () => {
  const result = await runEntry(PROBE, ["--size", "7", "--tag", "a", "--tag", "b"]);
  assert.equal(result.code, 0, result.stderr);
  const envelope = parseJson(result) as unknown as Envelope;
  assert.deepEqual(envelope.data.echo, { size: 7, tag: ["a", "b"] });
  const bad = await runEntry(PROBE, ["--size", "seven"]);
  assert.equal(bad.code, 2);
  assert.equal((parseJson(bad) as unknown as Envelope).diagnostics[0].code, "LMS-ARG-001");
  const choice = await runEntry(PROBE, ["--fail", "sideways"]);
  assert.equal(choice.code, 2);
  assert.match((parseJson(choice) as unknown as Envelope).diagnostics[0].message, /\$\.fail/);
});

Deno.test("an unexpected exception is an internal diagnostic, exit 5, without a stack trace", async () => {
  const result = await runEntry(PROBE, ["--fail", "throw"]);
  assert.equal(result.code, 5);
  const envelope = parseJson(result) as unknown as Envelope;
  assert.equal(envelope.status, "error");
  assert.equal(envelope.diagnostics[0].code, "LMS-INT-001");
  assert.match(envelope.diagnostics[0].message, /probe exploded/);
  assert.doesNotMatch(result.stdout + result.stderr, STACK);
});

Deno.test("--debug adds the stack trace to an internal error", async () => {
  const result = await runEntry(PROBE, ["--fail", "throw", "--debug"]);
  assert.equal(result.code, 5);
  const envelope = parseJson(result) as unknown as Envelope;
  assert.match(envelope.diagnostics[0].note ?? "", STACK);
});

Deno.test("--debug shows the cause chain of a coded error; without it, no stack", async () => {
  const plain = await runEntry(PROBE, ["--fail", "wrapped"]);
  assert.equal(plain.code, 2);
  const quiet = (parseJson(plain) as unknown as Envelope).diagnostics[0];
  assert.equal(quiet.code, "LMS-IO-002");
  assert.doesNotMatch(plain.stdout + plain.stderr, STACK);
  const result = await runEntry(PROBE, ["--fail", "wrapped", "--debug"]);
  assert.equal(result.code, 2);
  const note = (parseJson(result) as unknown as Envelope).diagnostics[0].note ?? "";
  assert.match(note, /caused by: Error: disk on fire\n\s+at /);
  assert.match(note, /caused by: RangeError: sector 7/);
});

Deno.test("a node:fs sandbox refusal (no error class) is a PERM diagnostic naming the flag, exit 4", async () => {
  const result = await runEntry(PROBE, ["--fail", "node-fs", "--path", "/etc/hostname"], {
    permissions: ["--allow-read=/tmp"],
  });
  assert.equal(result.code, 4);
  const envelope = parseJson(result) as unknown as Envelope;
  assert.equal(envelope.diagnostics[0].code, "LMS-PERM-001");
  assert.match(envelope.diagnostics[0].remediation ?? "", /--allow-read=\/etc\/hostname/);
  assert.doesNotMatch(result.stdout + result.stderr, STACK);
});

Deno.test("a coded error keeps its code and the registry's exit code", async () => {
  const result = await runEntry(PROBE, ["--fail", "coded"]);
  assert.equal(result.code, 2);
  assert.equal((parseJson(result) as unknown as Envelope).diagnostics[0].code, "LMS-QRY-002");
  assert.equal(result.stderr, "llm-probe: LMS-QRY-002: probe wants a pattern\n");
});

Deno.test("jsonl and text formats, and --version, from the same definition", async () => {
  const jsonl = await runEntry(PROBE, ["--format", "jsonl"]);
  const lines = jsonl.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].type, "summary");
  const badFormat = await runEntry(PROBE, ["--format", "yaml"]);
  assert.equal(badFormat.code, 2);
  assert.equal((parseJson(badFormat) as unknown as Envelope).diagnostics[0].code, "LMS-ARG-001");
  const version = await runEntry(PROBE, ["--version"]);
  assert.match(version.stdout, /^llm-probe \d+\.\d+\.\d+\n$/);
});

Deno.test("a subcommand named like an Object property (constructor, toString) is unknown, exit 2", async () => {
  for (
    const [entry, code] of [["tools/refactor/main.ts", "SPL-ARG-001"], [
      "tools/symbols/main.ts",
      "MAG-ARG-001",
    ]]
  ) {
    for (const name of ["constructor", "toString", "__proto__"]) {
      const result = await runEntry(entry, [name]);
      assert.equal(result.code, 2, `${entry} ${name}: ${result.stdout}`);
      const envelope = JSON.parse(result.stdout);
      assert.equal(envelope.error?.code ?? envelope.diagnostics[0].code, code);
    }
  }
});
