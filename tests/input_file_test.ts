/**
 * A file argument that names something other than a regular file is a coded refusal (exit 2),
 * never an internal error: `--query-file` and `--plan` given a directory, a missing path or a
 * FIFO.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeTree, parseJson, runEntry } from "./helpers.ts";

const CASES = [
  { entry: "tools/ast-search/main.ts", flag: "--query-file", prefix: "LMA", extra: [] },
  { entry: "tools/transform/main.ts", flag: "--plan", prefix: "LMT", extra: ["--dry-run"] },
];

function firstCode(envelope: Record<string, unknown>): string {
  const diagnostics = envelope.diagnostics as { code: string }[];
  return diagnostics[0].code;
}

for (const { entry, flag, prefix, extra } of CASES) {
  Deno.test(`${flag} refuses a directory, a missing path and a FIFO with codes`, async () => {
    const root = await makeTree({ "dir/a.txt": "x\n" });
    const fifo = join(root, "pipe");
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const permissions = ["--allow-read", "--allow-write"];
    const expected: [string, string][] = [
      ["dir", `${prefix}-IO-004`],
      ["missing.json", `${prefix}-IO-001`],
      ["pipe", `${prefix}-IO-004`],
    ];
    for (const [name, code] of expected) {
      const result = await runEntry(entry, [flag, name, ...extra], { cwd: root, permissions });
      assert.equal(result.code, 2, `${flag} ${name}: ${result.stdout}${result.stderr}`);
      assert.equal(firstCode(parseJson(result)), code);
    }
  });
}

for (const { entry, flag, prefix, extra } of CASES) {
  Deno.test(`${flag} never reads through a link that leaves the root (IO-003, no contents)`, async () => {
    const root = await makeTree({ "inside.txt": "(x) @x\n" });
    const outside = await makeTree({ "secret.txt": "TOP-SECRET-MARKER\n" });
    await Deno.symlink(join(outside, "secret.txt"), join(root, "link.txt"));
    await Deno.symlink(outside, join(root, "linkdir"));
    const permissions = [`--allow-read=${root},${outside}`, `--allow-write=${root}`];
    for (const name of ["link.txt", "linkdir/secret.txt"]) {
      const result = await runEntry(entry, [flag, name, ...extra], { cwd: root, permissions });
      assert.equal(result.code, 2, `${flag} ${name}: ${result.stdout}${result.stderr}`);
      assert.equal(firstCode(parseJson(result)), `${prefix}-IO-003`);
      assert.ok(!(result.stdout + result.stderr).includes("TOP-SECRET-MARKER"));
    }
  });
}
