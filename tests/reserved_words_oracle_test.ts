/**
 * The reserved words of `grammars/reserved_words.ts` held to the languages' own compilers: for
 * each language whose compiler is installed, a definition named after each word of its list
 * and of a sample of words that are no keywords (contextual keywords, predeclared names, plain
 * names), used once, is compiled; the compiler refuses exactly the words `reservedNameReason`
 * refuses. Python's list is also compared with `keyword.kwlist`. Each compiler's known gaps
 * (C23 keywords an older GCC does not know yet) are named where they are allowed for.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { KEYWORDS, reservedNameReason } from "../grammars/reserved_words.ts";
import { hasCommand } from "./helpers.ts";

/** One compile of a word: its files (name → text), and the command that checks them. */
interface Probe {
  files: (word: string) => Record<string, string>;
  command: (dir: string) => { program: string; args: string[]; env?: Record<string, string> };
}

/** The words among `words` the compiler refuses, one compile each (a few at a time). */
async function refusedBy(words: readonly string[], probe: Probe): Promise<Set<string>> {
  const refused = new Set<string>();
  const queue = [...words];
  const worker = async () => {
    for (let word = queue.shift(); word !== undefined; word = queue.shift()) {
      const dir = await Deno.makeTempDir({ prefix: "llm-reserved-" });
      try {
        for (const [name, text] of Object.entries(probe.files(word))) {
          await Deno.writeTextFile(join(dir, name), text);
        }
        const { program, args, env } = probe.command(dir);
        const output = await new Deno.Command(program, {
          args,
          cwd: dir,
          env,
          stdout: "null",
          stderr: "null",
        }).output();
        if (!output.success) refused.add(word);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return refused;
}

/** The words `reservedNameReason` refuses for a definition of `kind`. */
function refusedByUs(language: string, words: readonly string[], kind: string): Set<string> {
  return new Set(words.filter((word) => reservedNameReason(language, word, kind) !== undefined));
}

function sorted(set: Set<string>): string[] {
  return [...set].sort();
}

/** Asserts that the compiler and the list refuse the same words, but the `gaps` allowed for. */
function assertAgree(
  language: string,
  compiler: Set<string>,
  ours: Set<string>,
  gaps: readonly string[] = [],
): void {
  const theirs = new Set([...compiler, ...gaps.filter((word) => ours.has(word))]);
  assert.deepEqual(sorted(theirs), sorted(ours), `${language}: compiler vs list`);
}

function words(language: string, extra: readonly string[]): string[] {
  return [...new Set([...KEYWORDS[language], ...extra])];
}

/** A major version from `--version`-style output, or 0. */
function majorVersion(program: string, args: string[]): number {
  const output = new Deno.Command(program, { args, stdout: "piped", stderr: "null" }).outputSync();
  return Number(new TextDecoder().decode(output.stdout).trim().split(".")[0]) || 0;
}

/** Plain names every language accepts. */
const PLAIN = ["helper", "twice", "value", "Widget"];

Deno.test({
  name: "python: the list is keyword.kwlist, and compile() refuses exactly what it refuses",
  ignore: !hasCommand("python3"),
  fn: async () => {
    const candidates = words("python", [
      "__debug__",
      "_",
      "case",
      "match",
      "type",
      "print",
      "self",
      "list",
      ...PLAIN,
    ]);
    const script = [
      "import json, keyword, sys",
      "words = json.loads(sys.argv[1])",
      "def refused(word):",
      "    try:",
      '        compile(f"def {word}(): pass\\n{word}()\\n", "probe", "exec")',
      "        return False",
      "    except SyntaxError:",
      "        return True",
      'print(json.dumps({"kwlist": keyword.kwlist, "soft": keyword.softkwlist,',
      '                  "refused": [word for word in words if refused(word)]}))',
    ].join("\n");
    const output = await new Deno.Command("python3", {
      args: ["-c", script, JSON.stringify(candidates)],
      stdout: "piped",
    }).output();
    const answer = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      kwlist: string[];
      soft: string[];
      refused: string[];
    };
    assert.deepEqual([...KEYWORDS.python].sort(), [...answer.kwlist].sort());
    for (const soft of answer.soft) {
      assert.equal(reservedNameReason("python", soft, "function"), undefined, soft);
    }
    assertAgree(
      "python",
      new Set(answer.refused),
      refusedByUs("python", candidates, "function"),
    );
  },
});

/** A C or C++ function named `word` and a call of it, checked by `program -std=std`. */
function gccProbe(program: string, std: string, extension: string): Probe {
  return {
    files: (word) => ({
      [`probe.${extension}`]: `int ${word}(void) { return 0; }\n` +
        `int caller_(void) { return ${word}(); }\n`,
    }),
    command: () => ({ program, args: [`-std=${std}`, "-fsyntax-only", `probe.${extension}`] }),
  };
}

/** Names C and C++ reserve for the implementation that compilers take: checked apart. */
const IMPLEMENTATION_NAMES = ["__count", "_Count"];

Deno.test({
  name: "c: gcc (gnu2x) refuses exactly the C23 keywords of the list, and asm",
  ignore: !hasCommand("gcc"),
  fn: async () => {
    const candidates = words("c", [
      "final",
      "override",
      "module",
      "import",
      "defined",
      "fortran",
      "entry",
      "main_",
      ...PLAIN,
    ]);
    const major = majorVersion("gcc", ["-dumpversion"]);
    // C23's new keywords reached GCC in 13 (bool, true, nullptr, …) and 14 (_BitInt).
    const gaps = [
      ...(major < 13
        ? [
          "alignas",
          "alignof",
          "bool",
          "constexpr",
          "false",
          "nullptr",
          "static_assert",
          "thread_local",
          "true",
          "typeof_unqual",
        ]
        : []),
      ...(major < 14 ? ["_BitInt"] : []),
    ];
    assertAgree(
      "c",
      await refusedBy(candidates, gccProbe("gcc", "gnu2x", "c")),
      refusedByUs("c", candidates, "function"),
      gaps,
    );
    for (const name of IMPLEMENTATION_NAMES) {
      assert.match(reservedNameReason("c", name, "function") ?? "", /reserves/, name);
    }
  },
});

Deno.test({
  name: "c++: g++ (gnu++20) refuses exactly the keywords and alternative tokens of the list",
  ignore: !hasCommand("g++"),
  fn: async () => {
    const candidates = words("cpp", [
      "final",
      "override",
      "module",
      "import",
      "restrict",
      "defined",
      ...PLAIN,
    ]);
    assertAgree(
      "cpp",
      await refusedBy(candidates, gccProbe("g++", "gnu++20", "cpp")),
      refusedByUs("cpp", candidates, "function"),
    );
    for (const name of IMPLEMENTATION_NAMES) {
      assert.match(reservedNameReason("cpp", name, "function") ?? "", /reserves/, name);
    }
  },
});

Deno.test({
  name: "javascript: node --check (a module) refuses exactly the list; methods take any",
  ignore: !hasCommand("node"),
  fn: async () => {
    const candidates = words("javascript", [
      "eval",
      "arguments",
      "async",
      "of",
      "get",
      "set",
      "from",
      "as",
      "target",
      "meta",
      "undefined",
      "NaN",
      "Infinity",
      "constructor",
      "type",
      ...PLAIN,
    ]);
    const check = (dir: string) => ({ program: "node", args: ["--check", join(dir, "p.mjs")] });
    assertAgree(
      "javascript",
      await refusedBy(candidates, {
        files: (word) => ({ "p.mjs": `function ${word}() {}\n${word}();\n` }),
        command: check,
      }),
      refusedByUs("javascript", candidates, "function"),
    );
    assertAgree(
      "javascript methods",
      await refusedBy(candidates, {
        files: (word) => ({ "p.mjs": `class K { ${word}() {} }\nnew K().${word}();\n` }),
        command: check,
      }),
      refusedByUs("javascript", candidates, "method"),
    );
  },
});

/** A TypeScript declaration of each kind that names a type, named `word`, as a module. */
const TYPE_FORMS: Record<string, (word: string) => string> = {
  class: (word) => `class ${word} {}\nexport const v = new ${word}();\n`,
  interface: (word) => `export interface ${word} { x: 1 }\n`,
  enum: (word) => `export enum ${word} { A }\n`,
  type: (word) => `export type ${word} = 1;\n`,
};

Deno.test("typescript: deno check refuses exactly the predefined type names as type names", async () => {
  // The keywords are ECMAScript's (node checks them above); these are type errors (TS2414,
  // TS2427, TS2431, TS2457), which one `deno check` of every file reports together.
  const candidates = [
    "any",
    "bigint",
    "boolean",
    "never",
    "number",
    "object",
    "string",
    "symbol",
    "undefined",
    "unknown",
    "type",
    "declare",
    "module",
    "namespace",
    "readonly",
    "keyof",
    "infer",
    "is",
    "asserts",
    "global",
    "require",
    "abstract",
    "async",
    "of",
    "Object",
    ...PLAIN,
  ];
  const dir = await Deno.makeTempDir({ prefix: "llm-reserved-" });
  try {
    const files: string[] = [];
    for (const [index, word] of candidates.entries()) {
      for (const [kind, form] of Object.entries(TYPE_FORMS)) {
        files.push(`${kind}_${index}.ts`);
        await Deno.writeTextFile(join(dir, `${kind}_${index}.ts`), form(word));
      }
    }
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--no-config", ...files],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const report = new TextDecoder().decode(output.stderr);
    assert.doesNotMatch(report, /SyntaxError/, "a parse error hides the other files' errors");
    for (const kind of Object.keys(TYPE_FORMS)) {
      const failed = candidates.filter((_, index) => report.includes(`/${kind}_${index}.ts:`));
      assertAgree(
        `typescript ${kind}`,
        new Set(failed),
        refusedByUs("typescript", candidates, kind),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "java: javac refuses exactly the list as method names, and the type names as classes",
  ignore: !hasCommand("javac", ["-version"]),
  fn: async () => {
    const candidates = words("java", [
      "yield",
      "var",
      "record",
      "sealed",
      "permits",
      "when",
      "module",
      "exports",
      "open",
      "opens",
      "provides",
      "requires",
      "to",
      "transitive",
      "uses",
      "with",
      "String",
      "Object",
      ...PLAIN,
    ]);
    const dir = await Deno.makeTempDir({ prefix: "llm-reserved-" });
    try {
      const files: string[] = [];
      for (const [index, word] of candidates.entries()) {
        files.push(`M${index}.java`, `C${index}.java`);
        await Deno.writeTextFile(
          join(dir, `M${index}.java`),
          `class M${index} { static int ${word}() { return 0; } static int x = ${word}(); }\n`,
        );
        await Deno.writeTextFile(
          join(dir, `C${index}.java`),
          `class ${word} {}\nclass U${index} { ${word} v; }\n`,
        );
      }
      // One javac for every file: its parser reports each file's errors.
      const output = await new Deno.Command("javac", {
        args: ["-Xmaxerrs", "100000", "-d", "classes", ...files],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const report = new TextDecoder().decode(output.stderr);
      const failed = (prefix: string) =>
        new Set(
          candidates.filter((_, index) =>
            new RegExp(`(^|\\n)${prefix}${index}\\.java:`).test(report)
          ),
        );
      assertAgree("java methods", failed("M"), refusedByUs("java", candidates, "method"));
      assertAgree("java classes", failed("C"), refusedByUs("java", candidates, "class"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "rust: rustc (edition 2024) refuses exactly the strict and reserved keywords, and _",
  ignore: !hasCommand("rustc"),
  fn: async () => {
    const candidates = words("rust", [
      "_",
      "union",
      "macro_rules",
      "safe",
      "raw",
      "i32",
      "str",
      "String",
      "main",
      "Box",
      ...PLAIN,
    ]);
    assertAgree(
      "rust",
      await refusedBy(candidates, {
        files: (word) => ({ "probe.rs": `fn ${word}() {}\npub fn caller() { ${word}() }\n` }),
        command: () => ({
          program: "rustc",
          args: [
            "--edition",
            "2024",
            "--crate-type",
            "lib",
            "--emit=metadata",
            "-o",
            "probe.rmeta",
            "probe.rs",
          ],
        }),
      }),
      refusedByUs("rust", candidates, "function"),
    );
  },
});

Deno.test({
  name: "go: go build refuses exactly the 25 keywords, _ and init (init as a method is fine)",
  ignore: !hasCommand("go", ["version"]),
  fn: async () => {
    const candidates = words("go", [
      "_",
      "init",
      "main",
      "int",
      "len",
      "nil",
      "true",
      "iota",
      "append",
      "string",
      "error",
      "any",
      "make",
      "new",
      "print",
      ...PLAIN,
    ]);
    const scratch = await Deno.makeTempDir({ prefix: "llm-reserved-go-" });
    const build = () => ({
      program: "go",
      args: ["build", "-o", "probe.out", "probe.go"],
      env: {
        GOCACHE: join(scratch, "cache"),
        GOPATH: join(scratch, "path"),
        GO111MODULE: "off",
      },
    });
    try {
      assertAgree(
        "go",
        await refusedBy(candidates, {
          files: (word) => ({ "probe.go": `package p\n\nfunc ${word}() {}\n\nvar X = ${word}\n` }),
          command: build,
        }),
        refusedByUs("go", candidates, "function"),
      );
      const methods = ["init", "_", "main", "len", ...PLAIN];
      assertAgree(
        "go methods",
        await refusedBy(methods, {
          files: (word) => ({
            "probe.go":
              `package p\n\ntype T struct{}\n\nfunc (T) ${word}() {}\n\nvar X = T.${word}\n`,
          }),
          command: build,
        }),
        refusedByUs("go", methods, "method"),
      );
    } finally {
      await new Deno.Command("chmod", { args: ["-R", "u+w", scratch] }).output();
      await Deno.remove(scratch, { recursive: true });
    }
  },
});

Deno.test({
  name: "bash: bash -n refuses exactly the reserved words as function names",
  ignore: !hasCommand("bash"),
  fn: async () => {
    const candidates = words("bash", ["echo", "test", "export", "local", "declare", ...PLAIN]);
    assertAgree(
      "bash",
      await refusedBy(candidates, {
        files: (word) => ({ "probe.sh": `${word}() { :; }\n${word}\n` }),
        command: () => ({ program: "bash", args: ["-n", "probe.sh"] }),
      }),
      refusedByUs("bash", candidates, "function"),
    );
  },
});
