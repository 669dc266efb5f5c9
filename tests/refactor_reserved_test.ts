/**
 * `llm-refactor rename --to <reserved word>` as a real `deno run --no-prompt` subprocess on the
 * fixture projects: a keyword of the file's language (`int int(int x)` in C) is refused with
 * `SPL-ARG-012`, exit 2, every file byte-identical, in each language the fixtures cover (run
 * without `--allow-run`, where only the syntax gate used to judge, and let `int int(int x)`
 * through); a
 * soft keyword (Python's `match`) is a name and is renamed to.
 */
import assert from "node:assert/strict";
import {
  assertCompiles,
  editResult,
  hasCompiler,
  refactorCli,
  snapshot,
  withFixture,
} from "./refactor_helpers.ts";

/** Per fixture: the rename's arguments before `--to`, and reserved words of its language. */
const CASES: { language: string; args: string[]; words: string[] }[] = [
  {
    language: "c",
    args: ["helper", "--file", "util.c", "--kind", "function"],
    words: ["int", "return", "while", "struct", "sizeof", "_Bool", "__reserved"],
  },
  { language: "cpp", args: ["area", "--kind", "function"], words: ["and", "class"] },
  { language: "python", args: ["helper", "--kind", "function"], words: ["lambda", "None"] },
  { language: "javascript", args: ["helper", "--kind", "function"], words: ["yield", "eval"] },
  { language: "typescript", args: ["helper", "--kind", "function"], words: ["enum", "let"] },
  { language: "java", args: ["Util.helper"], words: ["goto", "null", "_"] },
  { language: "rust", args: ["helper"], words: ["fn", "gen", "_"] },
  { language: "go", args: ["Helper"], words: ["range", "_", "init"] },
];

for (const testCase of CASES) {
  Deno.test(`rename to a reserved word of ${testCase.language} is refused (SPL-ARG-012), nothing written`, async () => {
    await withFixture(testCase.language, async (root) => {
      const before = await snapshot(root);
      for (const word of testCase.words) {
        // No --allow-run: only the syntax gate stands between the rename and the files.
        const run = await refactorCli(root, ["rename", ...testCase.args, "--to", word], {
          permissions: [`--allow-read=${root}`, `--allow-write=${root}`],
        });
        assert.equal(run.code, 2, `${word}: ${JSON.stringify(run.envelope)}`);
        assert.equal(run.envelope.status, "error");
        assert.equal(run.envelope.error?.code, "SPL-ARG-012", word);
        assert.match(run.envelope.error?.message ?? "", new RegExp(`"${word}" is `));
        assert.match(run.envelope.error?.remediation ?? "", new RegExp(`${word} is `));
        assert.deepEqual(await snapshot(root), before, word);
      }
    });
  });
}

Deno.test({
  name: "rename to a soft keyword of Python (match) is applied and compiles" +
    (hasCompiler("python") ? "" : " (needs python3)"),
  ignore: !hasCompiler("python"),
  fn: async () => {
    await withFixture("python", async (root) => {
      const run = await refactorCli(root, [
        "rename",
        "helper",
        "--kind",
        "function",
        "--to",
        "match",
      ]);
      assert.equal(run.code, 0, JSON.stringify(run.envelope));
      assert.equal(editResult(run).applied, true);
      await assertCompiles("python", root);
    });
  },
});
