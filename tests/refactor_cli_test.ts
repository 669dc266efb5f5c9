/**
 * llm-refactor as a real `deno run --no-prompt` subprocess with scoped permissions, on the
 * fixture projects of eight languages (several files, shadowing parameters and locals, a
 * same-named symbol in another scope, the name in strings and comments, imports/includes):
 * a rename yields code the real compiler accepts and that runs, touches exactly the symbol's
 * places, and its undo restores the exact bytes; a dry run writes nothing and exits 1; a
 * compiler-rejected plan leaves every file byte-identical; a process killed mid-commit is
 * recovered.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RecoverResult, UndoResult } from "../schema/mod.ts";
import { spawnEntry } from "./helpers.ts";
import {
  assertBytesOf,
  assertCompiles,
  CHECKS,
  editResult,
  ENTRY,
  hasCompiler,
  refactorCli,
  scoped,
  snapshot,
  withFixture,
} from "./refactor_helpers.ts";
import { exists, holdCommitLock, until } from "./transform_helpers.ts";

interface RenameCase {
  language: string;
  args: string[];
  edits: number;
  /** Text each file still holds afterwards (strings, comments, shadowing locals, other scopes). */
  kept: Record<string, string[]>;
}

const CASES: RenameCase[] = [
  {
    language: "c",
    args: ["helper", "--file", "util.c", "--kind", "function", "--to", "twice", "--proof"],
    edits: 8,
    kept: {
      "main.c": ["static int shadow(int helper)", "int helper = 5;", '"helper %d'],
      "wrap.h": ["#define HELPER_PLUS_ONE(v) (twice(v) + 1)"],
      "util.h": [
        "#define HELPER_TWICE(v) twice(twice(v))",
        "#define APPLY(helper, v) ((helper) + (v))",
        '"helper"',
      ],
      "other.c": ["static int helper(int x)", "return helper(1);"],
      "util.c": ['/* helper: "helper" is also in this comment */'],
    },
  },
  {
    language: "cpp",
    args: ["area", "--kind", "function", "--to", "square_area"],
    edits: 3,
    kept: { "shapes.hpp": ["int area() const"], "main.cpp": ["shadow(int area)", "r.area()"] },
  },
  {
    language: "python",
    args: ["helper", "--kind", "function", "--to", "twice"],
    edits: 4,
    kept: {
      "util.py": ["def helper(self)", "self.helper()", "(helper)."],
      "main.py": ["def shadow(helper)", "helper = 5", "# helper in a comment"],
    },
  },
  {
    language: "javascript",
    args: ["helper", "--kind", "function", "--to", "twice"],
    edits: 4,
    kept: {
      "util.mjs": ["  helper() {", '"helper" in a string'],
      "main.mjs": ["function shadow(helper)", "const helper = 5;", "new Box().helper()"],
    },
  },
  {
    language: "typescript",
    args: ["helper", "--kind", "function", "--to", "twice"],
    edits: 4,
    kept: {
      "util.ts": ["  helper(): string {"],
      "main.ts": [
        "function shadow(helper: number)",
        "const helper = 5;",
        "new Box().helper()",
        "const parts = { helper: twice };",
        "parts.helper(3)",
      ],
    },
  },
  {
    language: "java",
    args: ["Util.helper", "--to", "twice"],
    edits: 2,
    kept: {
      "Main.java": ["int helper = 3;", "new Box().helper()", '"helper "'],
      "Box.java": ["public String helper()"],
    },
  },
  {
    language: "rust",
    args: ["helper", "--to", "twice"],
    edits: 4,
    kept: { "main.rs": ["fn shadow(helper: i32)", '"helper {} {}"'], "util.rs": ["/// helper"] },
  },
  {
    language: "go",
    args: ["Helper", "--to", "Twice"],
    edits: 2,
    kept: { "main.go": ["func shadow(Helper int)", '"Helper"'] },
  },
];

for (const testCase of CASES) {
  const compiler = hasCompiler(testCase.language);
  Deno.test({
    name:
      `rename in the ${testCase.language} fixture compiles, runs, and undoes to the exact bytes` +
      (compiler ? "" : ` (needs ${testCase.language}'s compiler)`),
    ignore: !compiler,
    fn: async () => {
      await withFixture(testCase.language, async (root) => {
        const before = await snapshot(root);
        const run = await refactorCli(root, ["rename", ...testCase.args]);
        assert.equal(run.code, 0, JSON.stringify(run.envelope));
        const result = editResult(run);
        assert.equal(result.applied, true);
        assert.equal(result.edits.length, testCase.edits, JSON.stringify(result.edits));
        for (const [file, texts] of Object.entries(testCase.kept)) {
          const text = await Deno.readTextFile(join(root, file));
          for (const kept of texts) assert.ok(text.includes(kept), `${file} lost ${kept}`);
        }
        await assertCompiles(testCase.language, root);
        const undo = await refactorCli(root, ["undo", run.envelope.execution_id]);
        assert.equal(undo.code, 0, JSON.stringify(undo.envelope));
        await assertBytesOf(root, before);
      });
    },
  });
}

Deno.test("a dry run prints the diff, writes nothing and exits 1", async () => {
  await withFixture("python", async (root) => {
    const before = await snapshot(root);
    const run = await refactorCli(root, [
      "rename",
      "helper",
      "--kind",
      "function",
      "--to",
      "twice",
      "--dry-run",
    ]);
    assert.equal(run.code, 1, JSON.stringify(run.envelope));
    const result = editResult(run);
    assert.equal(result.applied, false);
    assert.match(
      result.diff ?? "",
      /^-from util import helper, Box\n\+from util import twice, Box$/m,
    );
    assert.deepEqual(await snapshot(root), before);
  });
});

Deno.test("an ambiguous name is refused with its candidates, exit 3", async () => {
  await withFixture("python", async (root) => {
    const run = await refactorCli(root, ["rename", "helper", "--to", "twice"]);
    assert.equal(run.code, 3);
    assert.equal(run.envelope.error?.code, "SPL-REF-002");
    assert.match(run.envelope.error?.note ?? "", /function helper util\.py:4/);
    assert.match(run.envelope.error?.note ?? "", /method Box\.helper util\.py:10/);
  });
});

/** A plan whose second step breaks compilation, and the file the compiler gate refuses. */
interface BrokenPlan {
  language: string;
  what: string;
  steps: Record<string, string>[];
  refused: RegExp;
}

const BROKEN_PLANS: BrokenPlan[] = [
  {
    language: "c",
    what: "a patch using an undeclared name (gcc)",
    steps: [
      { op: "rename", symbol: "helper", file: "util.c", kind: "function", to: "twice" },
      { op: "patch", symbol: "other", with: "int other(void) {\n  return missing_name;\n}\n" },
    ],
    refused: /other\.c/,
  },
  {
    language: "go",
    what: "a patch that breaks the importing package (go vet of a copy of the module)",
    steps: [
      { op: "rename", symbol: "shadow", to: "plusOne" },
      { op: "patch", symbol: "Helper", with: "func Helper(x string) string {\n\treturn x\n}\n" },
    ],
    refused: /main\.go/,
  },
];

for (const broken of BROKEN_PLANS) {
  Deno.test({
    name: `a ${broken.language} plan with ${broken.what} lands nowhere: every file ` +
      `byte-identical (needs ${CHECKS[broken.language].compiler})`,
    ignore: !hasCompiler(broken.language),
    fn: async () => {
      await withFixture(broken.language, async (root) => {
        const before = await snapshot(root);
        const plan = JSON.stringify({ steps: broken.steps });
        const run = await refactorCli(root, ["plan", "-"], { stdin: plan });
        assert.equal(run.code, 3, JSON.stringify(run.envelope));
        assert.equal(run.envelope.error?.code, "SPL-V-003");
        assert.match(run.envelope.error?.message ?? "", broken.refused);
        assert.deepEqual(await snapshot(root), before);
      });
    },
  });
}

Deno.test({
  name: "patch, insert and delete through a plan compile; undo restores every byte (needs gcc)",
  ignore: !hasCompiler("c"),
  fn: async () => {
    await withFixture("c", async (root) => {
      const before = await snapshot(root);
      const plan = {
        steps: [
          {
            op: "insert",
            symbol: "helper",
            file: "util.c",
            kind: "function",
            before: false,
            with: "/* Unused: deleted by the next step. */\nint spare(void) {\n  return 7;\n}\n",
          },
          { op: "delete", symbol: "spare" },
          {
            op: "patch",
            symbol: "helper",
            file: "util.c",
            kind: "function",
            with: "int helper(int x) {\n  return x + x;\n}\n",
          },
          { op: "rename", symbol: "shadow", to: "plus_one" },
        ],
      };
      const run = await refactorCli(root, ["plan", "-"], { stdin: JSON.stringify(plan) });
      assert.equal(run.code, 0, JSON.stringify(run.envelope));
      const util = await Deno.readTextFile(join(root, "util.c"));
      assert.ok(!util.includes("spare"), util);
      assert.ok(util.includes("return x + x;"), util);
      assert.ok(util.includes('/* helper: "helper" is also in this comment */'), util);
      await assertCompiles("c", root);
      const undo = await refactorCli(root, ["undo", run.envelope.execution_id]);
      assert.equal(undo.code, 0);
      assert.equal((undo.envelope.result as UndoResult).count, 2);
      await assertBytesOf(root, before);
    });
  },
});

Deno.test("delete refuses while references remain, listing them; force deletes", async () => {
  await withFixture("python", async (root) => {
    const refused = await refactorCli(root, ["delete", "helper", "--kind", "function"]);
    assert.equal(refused.code, 3);
    assert.equal(refused.envelope.error?.code, "SPL-V-002");
    assert.match(refused.envelope.error?.note ?? "", /main\.py:9:18/);
    const forced = await refactorCli(root, [
      "delete",
      "helper",
      "--kind",
      "function",
      "--force",
      "--gates",
      "syntax",
    ]);
    assert.equal(forced.code, 0, JSON.stringify(forced.envelope));
    const util = await Deno.readTextFile(join(root, "util.py"));
    assert.ok(!util.includes("def helper(x)") && !util.includes("Return x doubled"), util);
    assert.ok(util.includes("def helper(self)"), util);
  });
});

Deno.test("undo refuses when a file changed since, and changes nothing", async () => {
  await withFixture("python", async (root) => {
    const run = await refactorCli(root, ["rename", "Box.helper", "--to", "assist"]);
    assert.equal(run.code, 0, JSON.stringify(run.envelope));
    await Deno.writeTextFile(join(root, "util.py"), "# edited since\n", { append: true });
    const before = await snapshot(root);
    const undo = await refactorCli(root, ["undo", run.envelope.execution_id]);
    assert.equal(undo.code, 3);
    assert.equal(undo.envelope.error?.code, "SPL-V-006");
    assert.deepEqual(await snapshot(root), before);
  });
});

Deno.test("the new name colliding in an affected scope is refused", async () => {
  await withFixture("python", async (root) => {
    const before = await snapshot(root);
    const run = await refactorCli(root, [
      "rename",
      "helper",
      "--kind",
      "function",
      "--to",
      "total",
    ]);
    assert.equal(run.code, 3);
    assert.equal(run.envelope.error?.code, "SPL-V-001");
    assert.match(run.envelope.error?.note ?? "", /main\.py:7/);
    assert.deepEqual(await snapshot(root), before);
  });
});

Deno.test("log lists the refactors of the root, newest first", async () => {
  await withFixture("python", async (root) => {
    const run = await refactorCli(root, ["rename", "Box.helper", "--to", "assist"]);
    assert.equal(run.code, 0);
    const log = await refactorCli(root, ["log"]);
    assert.equal(log.code, 0);
    const data = (log.envelope as unknown as { data: { executions: { execution_id: string }[] } })
      .data;
    assert.equal(data.executions[0].execution_id, run.envelope.execution_id);
  });
});

/** Bytes as a latin1 string, as {@linkcode snapshot} keeps them. */
function latin1(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
}

/** Starts the tool without waiting for it, with the same flags as the runs above. */
function spawn(root: string, args: string[]): Deno.ChildProcess {
  return spawnEntry(ENTRY, args, { cwd: root, permissions: scoped(root) });
}

/** The execution id of the temporary files `.llm-tmp.<id>.<n>` a commit writes, once there. */
async function pendingId(root: string, count: number): Promise<string | undefined> {
  const ids = new Map<string, number>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name === ".llm") continue;
      if (entry.isDirectory) await walk(join(dir, entry.name));
      const match = /^\.llm-tmp\.([0-9a-f-]{36})\.\d+$/.exec(entry.name);
      if (match) ids.set(match[1], (ids.get(match[1]) ?? 0) + 1);
    }
  };
  await walk(root);
  return [...ids].find(([, found]) => found === count)?.[0];
}

Deno.test("a rename killed (SIGKILL) between two renames is rolled back by recover", async () => {
  await withFixture("python", async (root) => {
    const before = await snapshot(root);
    // Build the index first, so the killed run only has the commit left to do.
    const warm = await refactorCli(root, ["rename", "Box.helper", "--to", "assist", "--dry-run"]);
    assert.equal(warm.code, 1);
    const lock = await holdCommitLock(root);
    const child = spawn(root, ["rename", "helper", "--kind", "function", "--to", "twice"]);
    let id: string | undefined;
    await until(async () => (id = await pendingId(root, 2)) !== undefined, "the temporary files");
    const fifo = await new Deno.Command("mkfifo", {
      args: [join(root, ".llm", "journal", id!, "progress")],
    }).output();
    assert.ok(fifo.success, "mkfifo");
    lock.close();
    const main = before["main.py"];
    const renamed = async () => latin1(await Deno.readFile(join(root, "main.py"))) !== main;
    await until(renamed, "the first rename");
    child.kill("SIGKILL");
    assert.equal((await child.status).signal, "SIGKILL");
    await child.stdout.cancel();
    await child.stderr.cancel();
    assert.notDeepEqual(await snapshot(root), before);
    const recovered = await refactorCli(root, ["recover"]);
    assert.equal(recovered.code, 0, JSON.stringify(recovered.envelope));
    const result = recovered.envelope.result as RecoverResult;
    assert.equal(result.journals[0].outcome, "rolled_back");
    await assertBytesOf(root, before);
    assert.ok(!await exists(join(root, `.llm-tmp.${id}.1`)));
  });
});
