/**
 * The fast path of the command line (`core/cli_fast.ts`) against the full path (`runCli`, flags
 * and checks from the zod input schemas), which is the oracle:
 *
 * - on thousands of generated argument vectors per command (valid and invalid), the fast path
 *   answers exactly the vectors the zod path accepts, with the same parsed input, and leaves
 *   every other one to the full path;
 * - `llm-symbols` query commands print byte-identical output (ids and times aside), stderr and
 *   exit codes by both paths, on an indexed fixture;
 * - the module graph `llm-symbols` loads before the fast path answers holds no zod (nor the
 *   parser), as `deno info --json` sees it; nor does any tool's compact form
 *   (`tools/<tool>/compact.ts`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseCommandLine } from "../core/cli.ts";
import { fastLine, FLAG_TABLES, type FlagTable, type TableField } from "../core/cli_fast.ts";
import type { PositionalMapper, Tool } from "../core/tool.ts";
import { TOOLS } from "../tools/registry.ts";
import { QUERY_CODE } from "../tools/symbols/commands.ts";
import { indexRoot } from "../tools/symbols/main.ts";
import {
  makeTree,
  REPO,
  runEntry,
  seededRandom,
  staticGraph,
  withoutRunFields,
} from "./helpers.ts";

/** The full path's verdict on a command line: the parsed input, or that it does not run one. */
function zodVerdict(tool: Tool, args: string[]): Record<string, unknown> | "other" {
  try {
    const line = parseCommandLine(tool, args);
    if (line.help || line.version || line.explain !== undefined) return "other";
    const parsed = tool.input.safeParse(line.input());
    return parsed.success ? parsed.data : "other";
  } catch {
    return "other";
  }
}

const NUMBERS = ["0", "1", "2", "7", "16", "17", "50", "-1", "1.5", "1e3", "0x10", " 3", "", "abc"]
  .concat(["9007199254740991", "9007199254740993", "+4", "-0", "007"]);
const STRINGS = ["main", "a.py", "", "-x", "--", "x y", "ünï", "src/", "=", "-"];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** A value for `field`: mostly ones it takes, often ones it refuses. */
function valueFor(random: () => number, field: TableField): string {
  const choices = field.rule.enum ?? field.rule.items?.enum;
  if (choices && random() < 0.7) return pick(random, choices);
  if (field.kind === "number") return pick(random, NUMBERS);
  return pick(random, STRINGS);
}

/** One generated argument vector for a command of `table`. */
function argVector(random: () => number, table: FlagTable): string[] {
  const args: string[] = [];
  // Required fields given by flag most of the time, so that a command with several
  // (`paths --from --to`) still gets enough valid command lines.
  for (const field of table.fields) {
    if (field.required && random() < 0.8) args.push(`--${field.flag}`, valueFor(random, field));
  }
  const count = Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.55) {
      const field = pick(random, table.fields);
      const names = [`--${field.flag}`, ...field.aliases.map((alias) => `--${alias}`)];
      if (field.short) names.push(`-${field.short}`);
      const name = pick(random, names);
      if (field.kind === "boolean") args.push(name);
      else if (random() < 0.2 && name.startsWith("--")) {
        args.push(`${name}=${valueFor(random, field)}`);
      } else if (random() < 0.95) args.push(name, valueFor(random, field));
      else args.push(name);
    } else if (roll < 0.85) args.push(pick(random, STRINGS.filter((s) => !s.startsWith("-"))));
    else {
      args.push(
        pick(random, [
          "--format",
          "--format=text",
          "--format=jsonl",
          "--format=xml",
          "--debug",
          "--help",
          "-h",
          "--version",
          "--explain=MAG-REF-001",
          "--unknown",
          "-Z",
          "--",
          "--log",
          "-E",
        ]),
      );
    }
  }
  return args;
}

/** The positional mapping the fast path uses for a table: the command code's own. */
function fastPositionals(name: string): PositionalMapper | undefined {
  const subcommand = name.replace(/^llm-symbols /, "") as keyof typeof QUERY_CODE;
  const code = QUERY_CODE[subcommand] as { positionals?: PositionalMapper } | undefined;
  return code?.positionals;
}

Deno.test("every flag table belongs to a tool of the registry, with its metadata", () => {
  assert.ok(Object.keys(FLAG_TABLES).length >= 6, "the fast path has too few commands");
  for (const table of Object.values(FLAG_TABLES)) {
    const tool = TOOLS.find((candidate) => candidate.name === table.name);
    assert.ok(tool, `${table.name} is not in the registry`);
    assert.deepEqual(
      [table.mcpName, table.prefix, table.kind, table.listKey, table.itemType],
      [tool.mcpName, tool.prefix, tool.kind, tool.listKey, tool.itemType],
    );
  }
});

Deno.test("the fast path accepts exactly what the zod path accepts, with the same input", () => {
  const random = seededRandom(17);
  for (const table of Object.values(FLAG_TABLES)) {
    const tool = TOOLS.find((candidate) => candidate.name === table.name)!;
    // A command the fast path runs maps positionals by its own code, which must be its
    // definition's; the table of any other command is checked with its definition's mapping.
    const positionals = fastPositionals(table.name) ?? tool.cli.positionals;
    assert.equal(positionals, tool.cli.positionals, table.name);
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      const args = argVector(random, table);
      const expected = zodVerdict(tool, args);
      const answer = fastLine(table, positionals, args);
      const replay = `${table.name} ${JSON.stringify(args)}`;
      if (expected === "other") {
        assert.equal(answer, undefined, `the fast path answers what zod refuses: ${replay}`);
        continue;
      }
      const deferred = table.fields.filter((field) =>
        field.rule.type === "deferred" && expected[field.field] !== undefined
      );
      if (deferred.length > 0) {
        assert.equal(answer, undefined, `a deferred field is left to the full path: ${replay}`);
        continue;
      }
      assert.ok(answer, `the fast path leaves a valid command line to the full path: ${replay}`);
      assert.deepEqual(answer.input, expected, replay);
      assert.deepEqual(Object.keys(answer.input), Object.keys(expected), replay);
      const line = parseCommandLine(tool, args);
      assert.deepEqual(
        [answer.line.format, answer.line.debug, answer.line.log],
        [line.format, line.debug, line.log],
      );
      fast++;
    }
    assert.ok(fast > 300, `${table.name}: only ${fast} generated command lines were valid`);
  }
});

const FIXTURE: Record<string, string> = {
  "c/util.h": "int helper(int x);\n",
  "c/util.c": '#include "util.h"\nint helper(int x) { return x + 1; }\n' +
    "int twice(int x) { return helper(helper(x)); }\n",
  "py/a.py": "def load():\n    return 1\n\ndef go():\n    return load()\n",
  "py/b.py": "def load():\n    return 2\n",
};

/** Command lines of the read-only subcommands, ordinary and refused. */
const CASES: string[][] = [
  ["find", "helper"],
  ["find", "load"],
  ["find", "--match", "prefix", "l", "--limit", "1"],
  ["find", "--match", "fuzzy", "hlpr", "-k", "function"],
  ["find", "nosuch"],
  ["find", "helper", "--format", "jsonl"],
  ["find", "helper", "--format", "text"],
  ["find", "helper", "--format", "compact"],
  ["find", "helper", "c/"],
  ["refs", "helper"],
  ["callers", "helper", "-d", "2"],
  ["callers", "load", "--format", "text"],
  ["callees", "twice"],
  ["outline", "c/util.c"],
  ["outline", "missing.c"],
  ["imports", "c/util.c"],
  ["importers", "c/util.h", "--format", "jsonl"],
  ["status"],
  ["status", "--db", "nowhere.db"],
  ["find"],
  ["find", "--limit", "-1", "helper"],
  ["callers", "helper", "--depth", "99"],
  ["find", "helper", "--kind", "widget"],
  ["find", "--help"],
  ["status", "--explain", "MAG-IO-013"],
];

Deno.test("llm-symbols prints the same by the fast path and by the full path", async () => {
  const root = await makeTree(FIXTURE);
  try {
    await indexRoot({ root, threads: 0 });
    for (const args of CASES) {
      const [subcommand, ...rest] = args;
      const table = FLAG_TABLES[`llm-symbols ${subcommand}`];
      const answered = fastLine(table, fastPositionals(table.name), rest) !== undefined;
      const fast = await runEntry("tools/symbols/main.ts", args, { cwd: root });
      const full = await runEntry("tests/fixtures/symbols_full_cli.ts", args, { cwd: root });
      const label = `${JSON.stringify(args)} (${answered ? "fast" : "full"} path)`;
      assert.equal(withoutRunFields(fast.stdout), withoutRunFields(full.stdout), label);
      assert.equal(fast.stderr, full.stderr, label);
      assert.equal(fast.code, full.code, label);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("llm-symbols loads no zod and no parser before its fast path answers", async () => {
  const graph = await staticGraph("tools/symbols/main.ts");
  assert.ok(graph.some((specifier) => specifier.endsWith("/core/cli_fast.ts")));
  const heavy = graph.filter((specifier) => /npm:\/?(zod|web-tree-sitter)@/.test(specifier));
  assert.deepEqual(heavy, [], "the fast path's static imports reach zod or the parser");
  // Nor does any graph Deno reads at start: no npm package at all (each costs a check of
  // node_modules), and not the full command line's definitions.
  const read = await staticGraph("tools/symbols/main.ts", true);
  assert.deepEqual(read.filter((specifier) => specifier.startsWith("npm:")), []);
  assert.ok(!read.some((specifier) => specifier.endsWith("/tools/symbols/dispatch.ts")));
  // The full path does load them, so the check above can see them.
  const full = await staticGraph("tests/fixtures/symbols_full_cli.ts");
  assert.ok(full.some((specifier) => specifier.startsWith("npm:") && specifier.includes("zod@")));
});

Deno.test("the query and edit commands load no node: module before they answer", async () => {
  // The first `node:` import loads Deno's Node layer: 8–13 ms of every start, measured.
  for (const tool of ["discover", "search", "ast-search", "transform", "write", "validate"]) {
    const graph = await staticGraph(`tools/${tool}/main.ts`);
    assert.ok(graph.some((specifier) => specifier.endsWith("/core/path_syntax.ts")), tool);
    const node = graph.filter((specifier) => specifier.startsWith("node:"));
    assert.deepEqual(node, [], `llm-${tool}'s static imports reach ${node.join(", ")}`);
  }
  // The graphs that need node:sqlite load it, so the check above can see node: modules.
  const symbols = await staticGraph("tools/symbols/main.ts");
  assert.ok(symbols.includes("node:sqlite"));
});

Deno.test("each tool's compact form loads no zod, so a command line can print it before any schema", async () => {
  const forms: string[] = [];
  for await (const entry of Deno.readDir(join(REPO, "tools"))) {
    const form = join("tools", entry.name, "compact.ts");
    if (entry.isDirectory && (await Deno.stat(join(REPO, form)).catch(() => null))?.isFile) {
      forms.push(form);
    }
  }
  assert.equal(forms.length, TOOLS.filter((tool) => tool.compact).length, forms.join());
  for (const form of forms) {
    const graph = await staticGraph(form, true);
    const heavy = graph.filter((specifier) => specifier.startsWith("npm:"));
    assert.deepEqual(heavy, [], `${form} reaches ${heavy.join(", ")}`);
  }
});

Deno.test("llm-symbols: a full command line under read scoped away from the package is MAG-PERM-001", async () => {
  const root = await makeTree(FIXTURE);
  try {
    const refused = await runEntry("tools/symbols/main.ts", ["index"], {
      cwd: root,
      permissions: [`--allow-read=${root}`, `--allow-write=${join(root, ".llm")}`],
    });
    assert.equal(refused.code, 4, refused.stderr);
    const envelope = JSON.parse(refused.stdout);
    assert.equal(envelope.status, "error");
    assert.equal(envelope.diagnostics[0].code, "MAG-PERM-001");
    assert.match(envelope.diagnostics[0].message, /dispatch\.ts/);
    // The remediation names the exact flag: read permission for the package, which then works.
    const packageDir = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
    assert.equal(
      envelope.diagnostics[0].remediation,
      `Run again with --allow-read=${packageDir}/ added (a run from JSR or a compiled binary ` +
        "needs no more).",
    );
    // The queries' fast path needs read permission for the root only.
    const found = await runEntry("tools/symbols/main.ts", ["find", "helper"], {
      cwd: root,
      permissions: [`--allow-read=${root}`],
    });
    assert.equal(found.code, 3, found.stderr); // no index yet: MAG-IO-013
    assert.equal(JSON.parse(found.stdout).diagnostics[0].code, "MAG-IO-013");
    const granted = await runEntry("tools/symbols/main.ts", ["index"], {
      cwd: root,
      permissions: [`--allow-read=${root},${packageDir}`, `--allow-write=${join(root, ".llm")}`],
    });
    assert.equal(granted.code, 0, granted.stdout);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
