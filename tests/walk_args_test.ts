/**
 * Walk flags are validated as strictly as ripgrep validates them, through the real CLIs of
 * `llm-search` and `llm-discover`: a size, a number, a glob or a type that ripgrep refuses is a
 * coded `*-ARG-*` error naming the bad value, exit 2 — never a silent fallback. Sizes are
 * generated and ripgrep itself says which are valid (except sizes of 2^53 bytes and more,
 * which ripgrep's 64-bit integers hold and we refuse rather than round).
 *
 * @module
 */
import assert from "node:assert/strict";
import { hasCommand, makeTree, parseJson, runEntry, seededRandom } from "./helpers.ts";

const hasRg = hasCommand("rg");

const TOOLS = [
  { entry: "tools/search/main.ts", prefix: "LMS", args: ["hit"] },
  { entry: "tools/discover/main.ts", prefix: "LMD", args: ["a"] },
];

/** Generated `--max-filesize` values: digits with prefixes and suffixes ripgrep may refuse. */
function sizes(count: number): string[] {
  const rng = seededRandom(11);
  const pick = (items: string[]) => items[Math.floor(rng() * items.length)];
  const values = new Set<string>();
  while (values.size < count) {
    const digits = pick(["0", "7", "10", "010", "4096", "99999999999999999999", ""]);
    values.add(
      pick(["", "", "", "-", "+", " "]) + digits +
        pick(["", "K", "M", "G", "k", "m", "Q", "T", "KB", ".5", " ", "e3"]),
    );
  }
  return [...values];
}

function rgAccepts(size: string, root: string): boolean {
  const output = new Deno.Command("rg", {
    args: ["--files", "--no-config", `--max-filesize=${size}`, root],
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  return output.code !== 2;
}

async function runTool(
  tool: typeof TOOLS[number],
  flags: string[],
  cwd: string,
): Promise<{ code: number; envelope: Record<string, unknown> }> {
  const result = await runEntry(tool.entry, [...flags, ...tool.args], {
    cwd,
    permissions: [`--allow-read=${cwd}`],
  });
  return { code: result.code, envelope: parseJson(result) };
}

function assertRefused(
  run: { code: number; envelope: Record<string, unknown> },
  prefix: string,
  value: string,
): void {
  const diagnostics = run.envelope.diagnostics as { code: string; message: string }[];
  const error = diagnostics.find((diagnostic) => diagnostic.code.startsWith(`${prefix}-ARG-`));
  assert.equal(run.code, 2, `exit for ${JSON.stringify(value)}: ${JSON.stringify(diagnostics)}`);
  assert.ok(
    error,
    `no ${prefix}-ARG-* for ${JSON.stringify(value)}: ${JSON.stringify(diagnostics)}`,
  );
  assert.ok(error.message.includes(value.trim()), `the message names the value: ${error.message}`);
}

Deno.test({
  name:
    "--max-filesize: exactly the sizes ripgrep accepts are accepted, others are coded (needs rg)",
  ignore: !hasRg,
  async fn() {
    const root = await makeTree({ "a.txt": "hit\n" });
    try {
      for (const [index, size] of sizes(24).entries()) {
        const tool = TOOLS[index % TOOLS.length];
        const run = await runTool(tool, [`--max-filesize=${size}`], root);
        const tooLarge = /^\d+[KMG]?$/.test(size) && size.startsWith("99999999999999999999");
        if (rgAccepts(size, root) && !tooLarge) {
          assert.equal(run.code, 0, `${size}: ${JSON.stringify(run.envelope.diagnostics)}`);
        } else assertRefused(run, tool.prefix, size);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("walk numbers, globs and types that ripgrep refuses are coded ARG errors, exit 2", async () => {
  const root = await makeTree({ "a.txt": "hit\n" });
  const refused: [string, string][] = [
    // Below the schema's range: LMx-ARG-002 naming the field, as for every tool's numbers.
    ["--max-depth=-1", "max_depth"],
    ["--max-depth=1e99", "1e99"],
    ["--max-depth=abc", "abc"],
    ["--max-depth=0x10", "0x10"],
    ["--max-depth=1.5", "1.5"],
    ["--max-depth=99999999999999999999", "99999999999999999999"],
    ["--max-depth=", ""],
    ["--max-filesize=99999999999999999999G", "99999999999999999999G"],
    ["--max-filesize=10Q", "10Q"],
    ["--max-filesize=-1K", "-1K"],
    ["--glob=a[b", "a[b"],
    ["--glob=a{b", "a{b"],
    ["--glob={a,{b}}", "{a,{b}}"],
    ["--glob=[z-a]", "[z-a]"],
    ["--glob=a\\", "a\\"],
    ["--type=nope", "nope"],
    ["--type-not=nope", "nope"],
  ];
  try {
    for (const tool of TOOLS) {
      for (const [flag, value] of refused) {
        assertRefused(await runTool(tool, [flag], root), tool.prefix, value);
      }
      const limit = await runTool(tool, ["--limit=1e3"], root);
      assertRefused(limit, tool.prefix, "1e3");
      const fine = await runTool(tool, ["--max-depth=+3", "--max-filesize=1K", "-g", "a}b"], root);
      assert.equal(fine.code, 0, JSON.stringify(fine.envelope.diagnostics));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
