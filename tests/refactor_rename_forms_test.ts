/**
 * Differential test of `llm-refactor rename` against each language's own compiler: small
 * multi-file projects are generated (a seeded choice of the forms a symbol is reached by:
 * Java static imports, `import {x as y}`, `export {x}`, `export * from` and namespace imports,
 * Rust `use a::{b as c}` and `self::`/`super::` paths, Python `from m import f as g` and
 * `import m as u`, Go selectors through aliased imports, C and C++ declarations in headers),
 * each next to same-spelled names that are not the symbol (parameters, locals, strings, a
 * keyword argument, another file's `static` function). Every template marks the symbol's
 * places `@@` and the others `%%`: after the rename every file must be exactly its template with
 * `@@` spelled anew and `%%` as before (no reference left, nothing else touched), compile, and
 * print what it printed before.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { hasCommand, makeTree, seededRandom } from "./helpers.ts";
import { refactorCli } from "./refactor_helpers.ts";

/** One way of reaching the symbol: files it adds, and lines of the program's main part. */
interface Form {
  /** Files it adds (path → template). */
  files?: Record<string, string>;
  /** Declarations at the top of the main file (imports, uses). */
  head?: string;
  /** Expressions (each a number) the program prints. */
  values?: string[];
  /** Definitions of the main file, after its head. */
  body?: string;
}

/** A language's project: its fixed files, its forms, and how it is built and run. */
interface Project {
  language: string;
  compiler: string;
  probe?: string[];
  /** Names the symbol takes (before, after). */
  names: [string, string][];
  /** The file that defines the symbol. */
  definedIn: string;
  /** Files every project has (templates). */
  files: Record<string, string>;
  forms: Form[];
  /** The main file from its forms' parts. */
  main: (head: string, body: string, values: string[]) => [string, string];
  /** Commands that build and run it; the last one's output is compared. */
  commands: string[][];
  /** Variables pointed at a fresh folder (caches the compiler writes). */
  scratchEnv?: string[];
}

const JS_FORMS = (ext: string, typed: boolean): Form[] => {
  const num = typed ? ": number" : "";
  return [
    { head: `import { @@ } from "./m.${ext}";`, values: ["@@(1)"] },
    { head: `import { @@ as t } from "./m.${ext}";`, values: ["t(2)"] },
    { head: `import * as ns from "./m.${ext}";`, values: ["ns.@@(3)", "[4].map(ns.@@)[0]"] },
    {
      files: { [`re1.${ext}`]: `export { @@ } from "./m.${ext}";\n` },
      head: `import { @@ as viaRe1 } from "./re1.${ext}";`,
      values: ["viaRe1(5)"],
    },
    {
      files: { [`re2.${ext}`]: `export { @@ as again } from "./m.${ext}";\n` },
      head: `import { again } from "./re2.${ext}";`,
      values: ["again(6)"],
    },
    {
      files: { [`re3.${ext}`]: `export * from "./m.${ext}";\n` },
      head: `import { @@ as viaStar } from "./re3.${ext}";`,
      values: ["viaStar(7)"],
    },
    {
      files: {
        [`local.${ext}`]: `import { @@ } from "./m.${ext}";\n\nexport { @@ };\n` +
          `export { @@ as localAlias };\n`,
      },
      head: `import { localAlias } from "./local.${ext}";`,
      values: ["localAlias(8)"],
    },
    { head: `import dflt from "./m.${ext}";`, values: ["dflt(9)"] },
    {
      body: `function shadow(%%${num})${num} {\n  return %% + 1;\n}\n`,
      values: ["shadow(10)", '"%%".length'],
    },
  ];
};

const JS_MAIN = (head: string, body: string, values: string[]) =>
  `${head}\n\n${body}\nconsole.log(${values.join(", ")});\n`;

const PROJECTS: Project[] = [
  {
    language: "java",
    definedIn: "pkg/Util.java",
    compiler: "javac",
    names: [["helper", "twice"], ["scale", "doubled"]],
    files: {
      "pkg/Util.java": "package pkg;\n\npublic class Util {\n" +
        "    public static int @@(int x) {\n        return x * 2;\n    }\n\n" +
        "    public static int other() {\n        return @@(1) + Util.@@(2);\n    }\n}\n",
    },
    forms: [
      {
        files: {
          "A1.java": "import static pkg.Util.@@;\n\nclass A1 {\n" +
            "    static int run() {\n        return @@(3);\n    }\n}\n",
        },
        values: ["A1.run()"],
      },
      {
        files: {
          "A2.java": "import static pkg.Util.*;\n\nclass A2 {\n" +
            "    static int run() {\n        return @@(4) + other();\n    }\n}\n",
        },
        values: ["A2.run()"],
      },
      {
        files: {
          "A3.java": "import pkg.Util;\n\nclass A3 {\n" +
            "    static int run() {\n        int %% = 5;\n        return Util.@@(%%);\n    }\n}\n",
        },
        values: ["A3.run()"],
      },
      {
        files: {
          "A4.java":
            "class A4 {\n    static int run() {\n        return pkg.Util.@@(6);\n    }\n}\n",
        },
        values: ["A4.run()"],
      },
      {
        files: {
          "A5.java": "import java.util.function.IntUnaryOperator;\nimport pkg.Util;\n\n" +
            "class A5 {\n    static int run() {\n" +
            "        IntUnaryOperator f = Util::@@;\n        return f.applyAsInt(7);\n    }\n}\n",
        },
        values: ["A5.run()"],
      },
      {
        files: {
          "A6.java": "class A6 {\n    static int %%(int x) {\n        return x + 1;\n    }\n\n" +
            '    static int run() {\n        return %%(8) + "%%".length();\n    }\n}\n',
        },
        values: ["A6.run()"],
      },
    ],
    main: (_head, _body, values) => [
      "Main.java",
      "public class Main {\n    public static void main(String[] args) {\n" +
      values.map((value) => `        System.out.println(${value});\n`).join("") + "    }\n}\n",
    ],
    commands: [["javac", "-d", "classes", "@sources"], ["java", "-cp", "classes", "Main"]],
  },
  {
    language: "javascript",
    definedIn: "m.mjs",
    compiler: "node",
    names: [["target", "twice"], ["compute", "doubled"]],
    files: {
      "m.mjs": "export function @@(values) {\n  return values * 2;\n}\n\nexport default @@;\n",
    },
    forms: JS_FORMS("mjs", false),
    main: (head, body, values) => ["main.mjs", JS_MAIN(head, body, values)],
    commands: [["node", "main.mjs"]],
  },
  {
    language: "typescript",
    definedIn: "m.ts",
    compiler: "deno",
    names: [["target", "twice"], ["compute", "doubled"]],
    files: {
      "m.ts": "export function @@(values: number): number {\n  return values * 2;\n}\n\n" +
        "export default @@;\n",
    },
    forms: JS_FORMS("ts", true),
    main: (head, body, values) => ["main.ts", JS_MAIN(head, body, values)],
    commands: [["deno", "check", "main.ts"], ["deno", "run", "main.ts"]],
  },
  {
    language: "rust",
    definedIn: "util.rs",
    compiler: "rustc",
    names: [["helper", "twice"], ["scale", "doubled"]],
    files: {
      "util.rs": "pub fn @@(x: i32) -> i32 {\n    x * 2\n}\n\n" +
        "pub fn other() -> i32 {\n    self::@@(1) + crate::util::@@(2) + super::util::@@(0)\n}\n",
    },
    forms: [
      { head: "use util::@@;", values: ["@@(1)"] },
      { head: "use util::{@@ as h, other};", values: ["h(2)", "other()"] },
      { head: "use crate::util::@@ as h2;", values: ["h2(3)"] },
      { values: ["util::@@(4)", "crate::util::@@(5)"] },
      { head: "use crate::util as u;", values: ["u::@@(6)", "[7].map(u::@@)[0]"] },
      {
        body: "fn shadow(%%: i32) -> i32 {\n    let v = %% + 1;\n    v\n}\n",
        values: ["shadow(8)", '"%%".len() as i32'],
      },
    ],
    main: (head, body, values) => [
      "main.rs",
      `#![allow(unused_imports)]\nmod util;\n${head}\n\n${body}\nfn main() {\n` +
      values.map((value) => `    println!("{}", ${value});\n`).join("") + "}\n",
    ],
    commands: [["rustc", "-o", "prog", "main.rs"], ["./prog"]],
  },
  {
    language: "python",
    definedIn: "pkg/tools.py",
    compiler: "python3",
    names: [["helper", "twice"], ["scale", "doubled"]],
    files: {
      "pkg/__init__.py": "",
      "pkg/tools.py": "def @@(x):\n    return x * 2\n",
    },
    forms: [
      { head: "from pkg.tools import @@", values: ["@@(1)"] },
      { head: "from pkg.tools import @@ as h", values: ["h(2)"] },
      { head: "import pkg.tools", values: ["pkg.tools.@@(3)"] },
      { head: "from pkg import tools", values: ["tools.@@(4)"] },
      { head: "from pkg import tools as t", values: ["t.@@(5)"] },
      { head: "import pkg.tools as pt", values: ["pt.@@(6)", "list(map(pt.@@, [7]))[0]"] },
      {
        files: {
          "pkg/user.py": "from .tools import @@\nfrom . import tools as tt\n\n\n" +
            "def run():\n    return @@(8) + tt.@@(9)\n",
        },
        head: "from pkg import user",
        values: ["user.run()"],
      },
      {
        body: "def shadow(%%):\n    %% = %% + 1\n    return %%\n\n\n",
        values: ["shadow(10)", "len('%%')", "dict(%%=11)['%%']"],
      },
    ],
    main: (head, body, values) => [
      "main.py",
      `${head}\n\n\n${body}print(${values.join(", ")})\n`,
    ],
    commands: [["python3", "main.py"]],
  },
  {
    language: "go",
    definedIn: "util/util.go",
    compiler: "go",
    probe: ["version"],
    names: [["Helper", "Twice"], ["Scale", "Doubled"]],
    files: {
      "go.mod": "module example.com/demo\n\ngo 1.21\n",
      "util/util.go": "package util\n\nfunc @@(x int) int {\n\treturn x * 2\n}\n\n" +
        "func Other() int {\n\treturn @@(1)\n}\n",
    },
    forms: [
      { head: '\t"example.com/demo/util"', values: ["util.@@(1)", "util.Other()"] },
      { head: '\tu2 "example.com/demo/util"', values: ["u2.@@(2)"] },
      {
        head: '\tu3 "example.com/demo/util"',
        body: "var stored = u3.@@\n\n",
        values: ["stored(3)"],
      },
      {
        body: "func shadow(%% int) int {\n\treturn %% + 1\n}\n\n",
        values: ["shadow(4)", 'len("%%")'],
      },
    ],
    main: (head, body, values) => [
      "main.go",
      `package main\n\nimport (\n\t"fmt"\n${head}\n)\n\n${body}func main() {\n` +
      `\tfmt.Println(${values.join(", ")})\n}\n`,
    ],
    commands: [["go", "build", "-o", "prog", "."], ["./prog"]],
    scratchEnv: ["GOCACHE", "GOPATH"],
  },
  {
    language: "c",
    definedIn: "util.c",
    compiler: "gcc",
    names: [["helper", "twice"], ["scale", "doubled"]],
    files: {
      "util.h": "#ifndef UTIL_H\n#define UTIL_H\nint @@(int x);\n#endif\n",
      "util.c": '#include "util.h"\n\nint @@(int x) {\n    return x * 2;\n}\n',
    },
    forms: [
      { head: '#include "util.h"', values: ["@@(1)"] },
      {
        files: {
          "other.c": "extern int @@(int x);\n\nint via_other(void) {\n" +
            "    int (*p)(int) = @@;\n    return p(2) + @@(3);\n}\n",
        },
        head: "int via_other(void);",
        values: ["via_other()"],
      },
      {
        files: {
          "own.c": "static int %%(int x) {\n    return x + 100;\n}\n\n" +
            "int via_own(void) {\n    return %%(4);\n}\n",
        },
        head: "int via_own(void);",
        values: ["via_own()"],
      },
      {
        body: "static int shadow(int %%) {\n    return %% + 1;\n}\n\n",
        values: ["shadow(5)", '(int)sizeof("%%")'],
      },
    ],
    main: (head, body, values) => [
      "main.c",
      `#include <stdio.h>\n${head}\n\n${body}int main(void) {\n` +
      values.map((value) => `    printf("%d\\n", ${value});\n`).join("") +
      "    return 0;\n}\n",
    ],
    commands: [["gcc", "-o", "prog", "@c-sources"], ["./prog"]],
  },
  {
    language: "cpp",
    definedIn: "geo.cpp",
    compiler: "g++",
    names: [["make", "build"], ["scale", "doubled"]],
    files: {
      "geo.hpp": "#pragma once\nnamespace geo {\nstruct Box {\n    int w;\n" +
        "    static int @@(int v);\n};\n}\n",
      "geo.cpp": '#include "geo.hpp"\n\nint geo::Box::@@(int v) {\n    return v * 2;\n}\n',
    },
    forms: [
      { head: '#include "geo.hpp"', values: ["geo::Box::@@(1)"] },
      {
        files: {
          "other.cpp": '#include "geo.hpp"\n\nint via_other() {\n' +
            "    int (*p)(int) = &geo::Box::@@;\n    return p(2);\n}\n",
        },
        head: "int via_other();",
        values: ["via_other()"],
      },
      {
        body: "static int shadow(int %%) {\n    return %% + 1;\n}\n\n",
        values: ["shadow(3)"],
      },
    ],
    main: (head, body, values) => [
      "main.cpp",
      `#include <cstdio>\n${head}\n\n${body}int main() {\n` +
      values.map((value) => `    std::printf("%d\\n", ${value});\n`).join("") +
      "    return 0;\n}\n",
    ],
    commands: [["g++", "-o", "prog", "@cpp-sources"], ["./prog"]],
  },
];

/** A generated project: its templates, and the names the rename takes. */
interface Generated {
  templates: Record<string, string>;
  from: string;
  to: string;
}

/** A seeded choice of `project`'s forms (at least two; seed 0: all of them) and names. */
function generate(project: Project, seed: number): Generated {
  const random = seededRandom(seed);
  let chosen = project.forms.filter(() => seed === 0 || random() < 0.6);
  if (chosen.length < 2) chosen = project.forms.slice(0, 2);
  const [from, to] = project.names[Math.floor(random() * project.names.length)];
  const templates: Record<string, string> = { ...project.files };
  for (const form of chosen) Object.assign(templates, form.files ?? {});
  const head = chosen.flatMap((form) => form.head ? [form.head] : []).join("\n");
  const body = chosen.map((form) => form.body ?? "").join("");
  const [main, text] = project.main(head, body, chosen.flatMap((form) => form.values ?? []));
  templates[main] = text;
  return { templates, from, to };
}

function spelled(templates: Record<string, string>, symbol: string, other: string) {
  return Object.fromEntries(
    Object.entries(templates).map((
      [path, text],
    ) => [path, text.replaceAll("@@", symbol).replaceAll("%%", other)]),
  );
}

const decoder = new TextDecoder();

/** Builds and runs the project in `root`; the last command's standard output. */
async function buildAndRun(project: Project, root: string, files: string[]): Promise<string> {
  const scratch = await Deno.makeTempDir({ prefix: "llm-refactor-forms-" });
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of project.scratchEnv ?? []) env[name] = join(scratch, name.toLowerCase());
  const expand = (arg: string) =>
    arg === "@sources"
      ? files.filter((file) => file.endsWith(".java"))
      : arg === "@c-sources"
      ? files.filter((file) => file.endsWith(".c"))
      : arg === "@cpp-sources"
      ? files.filter((file) => file.endsWith(".cpp"))
      : [arg];
  try {
    let stdout = "";
    for (const [program, ...args] of project.commands) {
      const output = await new Deno.Command(program === "deno" ? Deno.execPath() : program, {
        args: args.flatMap(expand),
        cwd: root,
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(
        output.success,
        `${program} ${args.join(" ")}:\n${decoder.decode(output.stderr)}${
          decoder.decode(output.stdout)
        }`,
      );
      stdout = decoder.decode(output.stdout);
    }
    return stdout;
  } finally {
    // Go marks its module cache read-only; chmod lets the removal through.
    await new Deno.Command("chmod", { args: ["-R", "u+w", scratch] }).output();
    await Deno.remove(scratch, { recursive: true });
  }
}

const SEEDS = [1, 2, 3];

for (const project of PROJECTS) {
  const present = project.compiler === "deno" || hasCommand(project.compiler, project.probe);
  Deno.test({
    name: `rename: every reference form of ${project.language} is renamed; the compiler agrees` +
      (present ? "" : ` (needs ${project.compiler})`),
    ignore: !present,
    fn: async (t) => {
      // Every form together, then seeded choices of them.
      for (const seed of [0, ...SEEDS]) {
        const generated = generate(project, seed);
        await t.step(`seed ${seed}: ${generated.from} → ${generated.to}`, async () => {
          const { templates, from, to } = generated;
          const root = await makeTree(spelled(templates, from, from));
          try {
            const files = Object.keys(templates);
            const before = await buildAndRun(project, root, files);
            const run = await refactorCli(root, [
              "rename",
              from,
              "--file",
              project.definedIn,
              "--to",
              to,
            ]);
            assert.equal(run.code, 0, JSON.stringify(run.envelope));
            const expected = spelled(templates, to, from);
            for (const [path, text] of Object.entries(expected)) {
              assert.equal(await Deno.readTextFile(join(root, path)), text, path);
            }
            assert.equal(await buildAndRun(project, root, files), before);
          } finally {
            await Deno.remove(root, { recursive: true });
          }
        });
      }
    },
  });
}
