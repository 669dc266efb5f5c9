/**
 * The peer is the oracle: on generated C files, the call sites `extractFacts` finds agree
 * with cscope's (`cscope -L -3 NAME`, callers; `cscope -L -2 NAME`, callees) and its function
 * definitions with universal-ctags' (`--kinds-C=f`). Generated code holds the forms kernel code
 * uses (GNU and K&R-free headers, pointer returns, attributes, calls nested in arguments,
 * conditions, loops, switches, multi-line calls, macros called like functions, calls inside
 * comments and strings that are no calls). Tolerance: none, every call site (file, line,
 * caller, callee) and every definition (file, name, line) must agree.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { extractFacts } from "../core/symbol_index/extract.ts";
import { hasCommand } from "./helpers.ts";

const hasCscope = hasCommand("cscope");
const hasCtags = hasCommand("ctags");
const decoder = new TextDecoder();

/** A small deterministic random source. */
class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed;
  }
  next(bound: number): number {
    this.#state = (this.#state * 1103515245 + 12345) % 2 ** 31;
    return this.#state % bound;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.next(items.length)];
  }
}

const HEADERS = [
  (name: string) => `static int ${name}(int a, int b)\n{`,
  (name: string) => `void\n${name}(void)\n{`,
  (name: string) => `static inline long *${name}(const char *s, int a)\n{`,
  (name: string) => `int ${name}(int a, int b) {`,
  (name: string) => `static int __attribute__((unused)) ${name}(int a)\n{`,
  (name: string) => `unsigned long\n${name}(struct item *it,\n\t\tint a)\n{`,
];

const EXTERNAL = ["printk", "kmalloc", "memset", "spin_lock", "spin_unlock"];
const MACROS = ["CHECK_ARG", "WARN_ONCE"];

/** One statement calling `callees` in some form kernel code uses. */
function statement(random: Random, callees: () => string): string {
  const a = callees();
  const b = callees();
  switch (random.next(10)) {
    case 0:
      return `\t${a}(a);`;
    case 1:
      return `\tx = ${a}(a) + ${b}(2);`;
    case 2:
      return `\tif (${a}(a)) {\n\t\t${b}(1);\n\t}`;
    case 3:
      return `\tx = ${a}(a, ${b}(3));`;
    case 4:
      return `\tfor (i = 0; i < ${a}(i); i++)\n\t\t${b}(i);`;
    case 5:
      return `\twhile (${a}(x))\n\t\tx--;`;
    case 6:
      return `\t${a}(a,\n\t\t${b}(x));`;
    case 7:
      return `\tswitch (${a}(x)) {\n\tcase 1:\n\t\t${b}(x);\n\t\tbreak;\n\t}`;
    case 8:
      return `\t/* not_a_call(x) */ ${a}(x); x = sizeof(x);`;
    default:
      return `\t${random.pick(MACROS)}(${a}(x)); s = "fake_call(1)";`;
  }
}

/** A generated C file: some functions calling each other, externals and macros. */
function generateFile(random: Random, prefix: string, others: string[]): {
  text: string;
  names: string[];
} {
  const count = 3 + random.next(5);
  const names = Array.from({ length: count }, (_, i) => `${prefix}_fn${i}`);
  const pool = [...names, ...others, ...EXTERNAL];
  const lines = [
    "#include <linux/kernel.h>",
    ...MACROS.map((macro) => `#define ${macro}(v) (v)`),
    "struct item { int value; };",
    `static int ${prefix}_counter = 1;`,
    "",
  ];
  for (const name of names) {
    lines.push(random.pick(HEADERS)(name));
    lines.push("\tint x = 0, i;\n\tconst char *s;");
    const statements = 1 + random.next(5);
    for (let i = 0; i < statements; i++) lines.push(statement(random, () => random.pick(pool)));
    lines.push("\treturn 0;\n}\n");
  }
  return { text: lines.join("\n"), names };
}

interface CallSite {
  file: string;
  line: number;
  caller: string;
  callee: string;
}

const key = (site: CallSite) => `${site.file}:${site.line} ${site.caller} -> ${site.callee}`;

async function run(command: string, args: string[], cwd: string): Promise<string[]> {
  const output = await new Deno.Command(command, { args, cwd, stdout: "piped" }).output();
  assert.ok(output.success, `${command} ${args.join(" ")}`);
  return decoder.decode(output.stdout).split("\n").filter((line) => line.trim() !== "");
}

/** One generated file: its name, text and the functions it defines. */
interface GeneratedFile {
  file: string;
  text: string;
  names: string[];
}

/** Writes a generated tree of `files` files under `dir`; returns each file's text and names. */
function generateTree(seed: number, dir: string, files: number): GeneratedFile[] {
  const random = new Random(seed);
  const tree: GeneratedFile[] = [];
  const known: string[] = [];
  for (let i = 0; i < files; i++) {
    const file = `f${i}.c`;
    const { text, names } = generateFile(random, `m${i}`, known.slice(-6));
    known.push(...names);
    Deno.writeTextFileSync(join(dir, file), text);
    tree.push({ file, text, names });
  }
  return tree;
}

/** Runs `check` on a generated tree of three files in a temporary directory, per seed. */
async function forEachTree(
  seeds: number[],
  check: (seed: number, dir: string, tree: GeneratedFile[]) => Promise<void>,
): Promise<void> {
  for (const seed of seeds) {
    const dir = await Deno.makeTempDir({ prefix: "symbols-peer-" });
    try {
      await check(seed, dir, generateTree(seed, dir, 3));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
}

Deno.test({
  name: "extractFacts: callers and callees agree with cscope on generated C (needs cscope)",
  ignore: !hasCscope,
  async fn() {
    let compared = 0;
    await forEachTree([1, 2, 3, 4, 5, 6], async (seed, dir, tree) => {
      const ours: CallSite[] = [];
      for (const { file, text } of tree) {
        const facts = await extractFacts("c", text);
        for (const reference of facts.references) {
          if (reference.kind !== "call") continue;
          ours.push({
            file,
            line: reference.extent.start_line,
            caller: reference.enclosing ?? "<global>",
            callee: reference.name,
          });
        }
      }
      const db = join(dir, "cscope.out");
      await run("cscope", ["-b", "-k", "-f", db, ...tree.map((t) => t.file)], dir);
      for (const name of tree.flatMap((t) => t.names)) {
        const callers = (await run("cscope", ["-d", "-k", "-f", db, "-L", "-3", name], dir))
          .map((line) => line.split(" "))
          .map(([file, caller, at]) => key({ file, caller, line: Number(at), callee: name }));
        const callees = (await run("cscope", ["-d", "-k", "-f", db, "-L", "-2", name], dir))
          .map((line) => line.split(" "))
          .map(([file, callee, at]) => key({ file, caller: name, line: Number(at), callee }));
        const unique = (keys: string[]) => [...new Set(keys)].sort();
        compared += callers.length + callees.length;
        assert.deepEqual(
          unique(ours.filter((site) => site.callee === name).map(key)),
          unique(callers),
          `seed ${seed}: callers of ${name}`,
        );
        assert.deepEqual(
          unique(ours.filter((site) => site.caller === name).map(key)),
          unique(callees),
          `seed ${seed}: callees of ${name}`,
        );
      }
    });
    // Enough call sites that an extractor finding none, or few, fails.
    assert.ok(compared > 200, `${compared} call sites compared`);
  },
});

Deno.test({
  name: "extractFacts: function definitions agree with ctags on generated C (needs ctags)",
  ignore: !hasCtags,
  async fn() {
    await forEachTree([11, 12, 13, 14, 15, 16], async (seed, dir, tree) => {
      const ours: string[] = [];
      for (const { file, text } of tree) {
        for (const symbol of (await extractFacts("c", text)).symbols) {
          if (symbol.kind === "function") {
            ours.push(`${file}:${symbol.name_extent.start_line} ${symbol.name}`);
          }
        }
      }
      const peer = (await run("ctags", [
        "--options=NONE",
        "--languages=C",
        "--kinds-C=f",
        "--fields=+n",
        "--output-format=json",
        "-f",
        "-",
        ...tree.map((t) => t.file),
      ], dir)).map((line) => JSON.parse(line))
        .filter((tag) => tag._type === "tag")
        .map((tag) => `${tag.path}:${tag.line} ${tag.name}`);
      assert.deepEqual(ours.sort(), peer.sort(), `seed ${seed}`);
    });
  },
});
