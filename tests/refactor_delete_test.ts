/**
 * `llm-refactor delete` takes a definition's whole statement, as a language server's delete
 * does: `export`, `export default`, the declaration of `export const f = () => …` (or, in a
 * list of declarators, the one declarator and its comma), decorators (TypeScript classes and
 * methods, Python), Java annotations, Rust attributes and doc comments, a C++ template head;
 * an emptied Python block gets `pass`. Each case runs through the real gates (`node`,
 * `deno check`, `g++`, `javac`, `rustc`, `python3`), is compared with the exact expected text,
 * and then checked by the language's own tool; an insertion before an exported function goes
 * before its `export`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hasCommand, makeTree } from "./helpers.ts";
import { refactorCli } from "./refactor_helpers.ts";

interface DeleteCase {
  /** What it shows. */
  name: string;
  /** The program the gate and the check need. */
  compiler: string;
  /** The file, before. */
  file: string;
  before: string;
  /** `delete` arguments after the name. */
  args: string[];
  /** The file, after. */
  after: string;
  /** Checks the result with the language's own tool, in the root. */
  check: string[];
}

const TS_HEAD = "function dec(_value: unknown, _context: unknown) {}\n\n";

const CASES: DeleteCase[] = [
  {
    name: "an exported JavaScript function (m.mjs, as reported)",
    compiler: "node",
    file: "m.mjs",
    before: "export function keep(v) {\n  return v;\n}\n\n" +
      "/** Doubles each value. */\nexport function target(values) {\n" +
      "  return values.map((v) => v * 2);\n}\n\nconsole.log(keep(1));\n",
    args: ["target"],
    after: "export function keep(v) {\n  return v;\n}\n\nconsole.log(keep(1));\n",
    check: ["node", "m.mjs"],
  },
  {
    name: "an exported TypeScript class with its doc comment",
    compiler: "deno",
    file: "m.ts",
    before: TS_HEAD + "/** Doc. */\nexport class Target {\n  size = 1;\n}\n\n" +
      "export const kept = 1;\n",
    args: ["Target"],
    after: TS_HEAD + "export const kept = 1;\n",
    check: ["deno", "check", "m.ts"],
  },
  {
    name: "export const f = () => …",
    compiler: "deno",
    file: "m.ts",
    before: "export const arrow = (v: number): number => v + 1;\n\nexport const kept = 1;\n",
    args: ["arrow"],
    after: "export const kept = 1;\n",
    check: ["deno", "check", "m.ts"],
  },
  {
    name: "one declarator of an exported list",
    compiler: "deno",
    file: "m.ts",
    before: "export const a1 = 1, a2 = 2, a3 = 3;\n",
    args: ["a2"],
    after: "export const a1 = 1, a3 = 3;\n",
    check: ["deno", "check", "m.ts"],
  },
  {
    name: "export default function",
    compiler: "deno",
    file: "m.ts",
    before: "export const kept = 1;\n\nexport default function main(): string {\n" +
      '  return "main";\n}\n',
    args: ["main"],
    after: "export const kept = 1;\n",
    check: ["deno", "check", "m.ts"],
  },
  {
    name: "a decorated exported class",
    compiler: "deno",
    file: "m.ts",
    before: TS_HEAD + "@dec\nexport class Other {}\n\nexport const kept = 1;\n",
    args: ["Other"],
    after: TS_HEAD + "export const kept = 1;\n",
    check: ["deno", "check", "m.ts"],
  },
  {
    name: "a decorated method",
    compiler: "deno",
    file: "m.ts",
    before: TS_HEAD + "export class Box {\n  @dec\n  method(): number {\n    return 1;\n  }\n\n" +
      "  kept(): number {\n    return 2;\n  }\n}\n",
    args: ["method"],
    after: TS_HEAD + "export class Box {\n\n  kept(): number {\n    return 2;\n  }\n}\n",
    check: ["deno", "check", "m.ts"],
  },
  {
    name: "a Java method with its annotations and doc comment",
    compiler: "javac",
    file: "U.java",
    before: "public class U {\n    /** Doc. */\n    @Deprecated\n" +
      '    @SuppressWarnings("unchecked")\n    public static int target(int x) {\n' +
      "        return x;\n    }\n\n    @Override\n    public String toString() {\n" +
      '        return "";\n    }\n}\n',
    args: ["target"],
    after: "public class U {\n\n    @Override\n    public String toString() {\n" +
      '        return "";\n    }\n}\n',
    check: ["javac", "-d", "classes", "U.java"],
  },
  {
    name: "a Rust function with its doc comment and attributes, one on its own line",
    compiler: "rustc",
    file: "lib.rs",
    before: "/// Doc line.\n#[inline]\n#[allow(dead_code)] pub fn target(x: i32) -> i32 {\n" +
      "    x\n}\n\n#[derive(Debug)]\npub struct S;\n",
    args: ["target"],
    after: "#[derive(Debug)]\npub struct S;\n",
    check: ["rustc", "--crate-type", "lib", "--emit", "metadata", "lib.rs"],
  },
  {
    name: "a C++ function template with its template head",
    compiler: "g++",
    file: "t.cpp",
    before: "#include <cstdio>\n\ntemplate <typename T>\nT clamp(T v) {\n    return v;\n}\n\n" +
      "int main() {\n    return 0;\n}\n",
    args: ["clamp"],
    after: "#include <cstdio>\n\nint main() {\n    return 0;\n}\n",
    check: ["g++", "-fsyntax-only", "t.cpp"],
  },
  {
    name: "a decorated Python function",
    compiler: "python3",
    file: "p.py",
    before: "import functools\n\n\n@functools.lru_cache\ndef target(x):\n    return x\n\n\n" +
      "def kept():\n    return 1\n",
    args: ["target"],
    after: "import functools\n\n\ndef kept():\n    return 1\n",
    check: ["python3", "p.py"],
  },
  {
    name: "the only method of a Python class, which keeps a body",
    compiler: "python3",
    file: "p.py",
    before: "class C:\n    @staticmethod\n    def m():\n        return 1\n\n\nprint(C())\n",
    args: ["m"],
    after: "class C:\n    pass\n\n\nprint(C())\n",
    check: ["python3", "p.py"],
  },
];

for (const testCase of CASES) {
  const present = testCase.compiler === "deno" || hasCommand(testCase.compiler);
  Deno.test({
    name: `delete: ${testCase.name}` + (present ? "" : ` (needs ${testCase.compiler})`),
    ignore: !present,
    fn: async () => {
      const root = await makeTree({ [testCase.file]: testCase.before });
      try {
        const run = await refactorCli(root, [
          "delete",
          ...testCase.args,
          "--file",
          testCase.file,
        ]);
        assert.equal(run.code, 0, JSON.stringify(run.envelope));
        assert.equal(await Deno.readTextFile(join(root, testCase.file)), testCase.after);
        const [program, ...args] = testCase.check;
        const checked = await new Deno.Command(program === "deno" ? Deno.execPath() : program, {
          args,
          cwd: root,
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.ok(checked.success, new TextDecoder().decode(checked.stderr));
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "insert before an exported function goes before its export (needs node)",
  ignore: !hasCommand("node"),
  fn: async () => {
    const before = "export function target(values) {\n  return values;\n}\n";
    const root = await makeTree({ "m.mjs": before });
    try {
      const run = await refactorCli(root, [
        "insert",
        "target",
        "--before",
        "--text",
        "export const added = 1;",
      ]);
      assert.equal(run.code, 0, JSON.stringify(run.envelope));
      assert.equal(
        await Deno.readTextFile(join(root, "m.mjs")),
        "export const added = 1;\n\n" + before,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
