/**
 * The command tables every entrypoint parses its command line by (`core/cli_table.ts`, the
 * generated `core/tables/*.json`), against the zod input schemas they are derived from, which
 * are the oracle:
 *
 * - on thousands of generated command lines per command (valid and invalid: bounds inclusive
 *   and exclusive, sizes, JSON arguments, patterns, choices), the table accepts exactly what the
 *   zod schema accepts, with the same input, and refuses exactly what it refuses, with the same
 *   issues (paths and messages, in zod's order); what the table leaves to zod (`schema`) is
 *   counted, and never met by a command whose code has no schema to load;
 * - the same on generated raw inputs of every type (as an MCP client could send), unions
 *   included;
 * - each command's code (run, text, positionals) is its definition's;
 * - the module graph each query and edit entrypoint loads holds no zod (nor, for `llm-symbols`,
 *   the parser, nor any npm package at all in what Deno reads at start), and no `node:` module;
 *   nor does any tool's compact form;
 * - `llm-symbols` under read permission scoped to the root: every command line is answered, and
 *   `index` (whose indexer is not read at start, to keep the queries' start-up) names the flag
 *   that lets it load.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { commandTable } from "../core/cli.ts";
import { type CommandHead, parseCommandLineBy } from "../core/cli_run.ts";
import {
  checkInput,
  type CommandCode,
  type CommandTable,
  type FieldRule,
  programOptions,
  type TableField,
  tableOf,
} from "../core/cli_table.ts";
import type { CommandSpec, SchemaIssue, Tool } from "../core/tool.ts";
import { ToolError } from "../schema/diagnostic.ts";
import { commands, tableFile } from "../scripts/flag_tables.ts";
import { TOOLS } from "../tools/registry.ts";
import { AST_SEARCH_CODE } from "../tools/ast-search/run.ts";
import { DISCOVER_CODE } from "../tools/discover/run.ts";
import { LOG_CODE } from "../tools/log/run.ts";
import { SEARCH_CODE } from "../tools/search/run.ts";
import { GRAPH_CODE, QUERY_CODE, VERIFY_CODE } from "../tools/symbols/commands.ts";
import { SYMBOLS_SUBCOMMANDS } from "../tools/symbols/tool.ts";
import { TRANSFORM_CODE } from "../tools/transform/run.ts";
import { TransformInput } from "../tools/transform/input.ts";
import { REQUEST_FIELDS } from "../tools/transform/request.ts";
import { VALIDATE_CODE } from "../tools/validate/run.ts";
import { WRITE_CODE } from "../tools/write/run.ts";
import { indexRoot } from "../tools/symbols/main.ts";
import { makeTree, REPO, runEntry, seededRandom, staticGraph } from "./helpers.ts";

/** Every command with its definition and its generated table (as on disk). */
const COMMANDS: { definition: CommandSpec | Tool; table: CommandTable }[] = commands().map(
  (definition) => {
    const tables = JSON.parse(Deno.readTextFileSync(join(REPO, tableFile(definition.name))));
    return { definition, table: tableOf(tables, definition.name) };
  },
);

/**
 * The code each zod-free entrypoint runs, by command: the table must answer every command line
 * of these without zod unless the code can load the schema.
 */
const CODE: Record<string, CommandCode<never>> = {
  "llm-search": SEARCH_CODE,
  "llm-discover": DISCOVER_CODE,
  "llm-transform": TRANSFORM_CODE,
  "llm-ast-search": AST_SEARCH_CODE,
  "llm-write": WRITE_CODE,
  "llm-validate": VALIDATE_CODE,
  "llm-log": LOG_CODE,
  "llm-symbols verify": VERIFY_CODE,
  ...Object.fromEntries(
    Object.entries({ ...QUERY_CODE, ...GRAPH_CODE }).map(([name, code]) => [
      `llm-symbols ${name}`,
      code,
    ]),
  ),
};

function head(table: CommandTable, definition: CommandSpec | Tool): CommandHead {
  return { name: table.name, prefix: table.prefix, cli: definition.cli };
}

const NUMBERS = ["0", "1", "2", "7", "16", "17", "50", "-1", "1.5", "1e3", "0x10", " 3", "", "abc"]
  .concat(["9007199254740991", "9007199254740993", "+4", "-0", "007", "63", "64", "1536", "1537"])
  .concat(["1023", "1024", "1025", "2147483647", "2147483648"]);
const STRINGS = ["main", "a.py", "", "-x", "--", "x y", "ünï", "src/", "=", "-"];
/** Sizes (`--max-filesize`) and JSON arguments (`--edits`, `--files`, `--steps`). */
const SIZES = ["10M", "1K", "5", "1.5G", "10m", "-1", "9007199254740993G"];
const JSON_TEXTS = [
  '[{"file_path":"a.txt","byte_start":0,"byte_end":1,"new_text":"x"}]',
  '[{"file_path":"a.py","content":"x = 1\\n"}]',
  '[{"op":"rename","symbol":"a","to":"b"}]',
  "[]",
  "{}",
  '{"a.txt":"sha256:00"}',
  "not json",
  "[1, 2",
];
/** Values of the patterns some fields take (`--symbol-id`, `--expected-checksums`). */
const PATTERNED = ["0123456789abcdef", "0123456789ABCDEF", "0123", `a.c=sha256:${"0".repeat(64)}`];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** The bounds of a field's number rule, and the numbers either side of each. */
function boundaries(rule: FieldRule): string[] {
  const checks = rule.type === "number" ? rule.checks ?? [] : [];
  return checks.flatMap((check) =>
    check.value === undefined ? [] : [check.value - 1, check.value, check.value + 1].map(String)
  );
}

function choicesOf(rule: FieldRule): string[] | undefined {
  if (rule.type === "enum") return rule.values;
  if (rule.type === "array") return choicesOf(rule.items);
  return undefined;
}

/** A value for `field` on a command line: mostly ones it takes, often ones it refuses. */
function valueFor(random: () => number, field: TableField): string {
  const choices = choicesOf(field.rule);
  if (choices && random() < 0.7) return pick(random, choices);
  if (field.kind === "number") {
    const edges = boundaries(field.rule);
    return edges.length && random() < 0.5 ? pick(random, edges) : pick(random, NUMBERS);
  }
  const roll = random();
  if (field.rule.type === "union" && roll < 0.6) {
    return pick(random, random() < 0.5 ? SIZES : JSON_TEXTS);
  }
  if (roll < 0.15) return pick(random, PATTERNED);
  return pick(random, STRINGS);
}

/** One generated command line for the command of `table`. */
function argVector(random: () => number, table: CommandTable): string[] {
  const args: string[] = [];
  // Required fields given by flag most of the time, so that a command with several
  // (`paths --from --to`) still gets enough valid command lines.
  for (const field of table.fields) {
    if (field.required && random() < 0.8) args.push(`--${field.flag}`, valueFor(random, field));
  }
  const count = Math.floor(random() * 6);
  for (let i = 0; i < count && table.fields.length; i++) {
    const roll = random();
    if (roll < 0.6) {
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
        pick(random, ["--format=text", "--format=jsonl", "--debug", "--log", "-E", "--unknown"]),
      );
    }
  }
  return args;
}

/** The table's verdict against zod's on one raw input; what the table left to zod. */
function compare(
  table: CommandTable,
  definition: CommandSpec | Tool,
  raw: Record<string, unknown>,
  replay: string,
): "accepted" | "refused" | "schema" {
  const checked = checkInput(table, raw);
  if ("schema" in checked) return "schema";
  const parsed = definition.input.safeParse(raw);
  if (parsed.success) {
    assert.ok("input" in checked, `the table refuses what zod accepts: ${replay}`);
    assert.deepEqual(checked.input, parsed.data, replay);
    assert.deepEqual(Object.keys(checked.input), Object.keys(parsed.data), replay);
    return "accepted";
  }
  assert.ok("issues" in checked, `the table accepts what zod refuses: ${replay}`);
  const issues = (list: readonly SchemaIssue[]) =>
    list.map(({ path, message }) => ({ path: [...path], message }));
  assert.deepEqual(issues(checked.issues), issues(parsed.error.issues), replay);
  return "refused";
}

Deno.test("every command has its generated table, derived from its definition", () => {
  const names = COMMANDS.map(({ table }) => table.name);
  for (const tool of TOOLS) assert.ok(names.includes(tool.name), tool.name);
  for (const name of ["llm-symbols index", "llm-refactor insert", "llm-log", "llm-mcp"]) {
    assert.ok(names.includes(name), name);
  }
  for (const { definition, table } of COMMANDS) {
    assert.deepEqual(table, commandTable(definition), `${table.name}: run \`deno task schema\``);
    const tool = definition as Partial<Tool>;
    assert.deepEqual(
      [table.mcpName, table.kind, table.operationType, table.listKey, table.itemType],
      [tool.mcpName, tool.kind, tool.operationType, tool.listKey, tool.itemType],
    );
  }
});

Deno.test("each command's code maps positionals as its definition does", () => {
  for (const [name, code] of Object.entries(CODE)) {
    const definition = COMMANDS.find(({ table }) => table.name === name)?.definition as Tool;
    assert.ok(definition, name);
    assert.equal(code.positionals, definition.cli.positionals, `${name}: positionals`);
  }
  // `index` runs its indexer through a loader its caller names, and takes no positionals.
  assert.equal(SYMBOLS_SUBCOMMANDS.index.cli.positionals, undefined);
});

Deno.test("the table accepts and refuses exactly what zod does, on generated command lines", () => {
  const random = seededRandom(17);
  let refusals = 0;
  for (const { definition, table } of COMMANDS) {
    const tally = { accepted: 0, refused: 0, schema: 0 };
    for (let i = 0; i < 1500; i++) {
      const args = argVector(random, table);
      const replay = `${table.name} ${JSON.stringify(args)}`;
      let raw: Record<string, unknown>;
      try {
        raw = parseCommandLineBy(head(table, definition), table.fields, args).input();
      } catch (error) {
        // A flag or value refused before any rule (unknown flag, malformed number).
        assert.ok(error instanceof ToolError, replay);
        continue;
      }
      tally[compare(table, definition, raw, replay)]++;
    }
    const replay = `${table.name}: ${JSON.stringify(tally)}`;
    if (table.refined) {
      assert.equal(tally.schema, tally.accepted + tally.refused + tally.schema, replay);
      continue;
    }
    assert.ok(tally.accepted > 100, `too few accepted command lines: ${replay}`);
    refusals += tally.refused;
    const code = CODE[table.name];
    if (code && !code.schema) {
      assert.equal(tally.schema, 0, `a command line left to zod, which the code lacks: ${replay}`);
    }
  }
  assert.ok(refusals > 1000, `too few refused command lines: ${refusals}`);
});

/** A raw value of any type, as an MCP client may send. */
function anyValue(random: () => number, field: TableField): unknown {
  const roll = random();
  if (roll < 0.8) {
    const text = valueFor(random, field);
    if (field.kind === "number") return Number(text);
    if (field.kind === "boolean") return random() < 0.5;
    if (field.kind === "strings") return random() < 0.5 ? [text] : [text, valueFor(random, field)];
    return text;
  }
  return pick(random, [
    -1,
    0,
    3,
    1.5,
    Number.NaN,
    "10M",
    "",
    "x",
    true,
    null,
    [],
    ["x", 1],
    [{ file_path: "a", byte_start: 0, byte_end: 1, new_text: "x" }],
    { "a.txt": "sha256:00" },
    {},
  ]);
}

Deno.test("the table agrees with zod on raw inputs of every type (unions, JSON values)", () => {
  const random = seededRandom(29);
  for (const { definition, table } of COMMANDS) {
    const tally = { accepted: 0, refused: 0, schema: 0 };
    for (let n = 0; n < 800; n++) {
      const raw: Record<string, unknown> = {};
      for (const field of table.fields) {
        if (field.required && random() < 0.8) raw[field.field] = anyValue(random, field);
      }
      for (let k = Math.floor(random() * 3); k > 0 && table.fields.length; k--) {
        const field = pick(random, table.fields);
        raw[field.field] = anyValue(random, field);
      }
      tally[compare(table, definition, raw, `${table.name} ${JSON.stringify(raw)}`)]++;
    }
    const replay = `${table.name}: ${JSON.stringify(tally)}`;
    if (!table.refined) assert.ok(tally.accepted + tally.refused > 100, replay);
  }
});

Deno.test("the table states exclusive bounds, sizes, JSON arguments and patterns itself", () => {
  const table = (name: string) => COMMANDS.find(({ table }) => table.name === name)!.table;
  const check = (name: string, raw: Record<string, unknown>) => checkInput(table(name), raw);
  // `.positive()` and `.gt()`: the bound itself is refused, in zod's words.
  assert.deepEqual(check("llm-search", { threads: 0 }), {
    issues: [{ path: ["threads"], message: "Too small: expected number to be >0" }],
  });
  assert.ok("input" in check("llm-search", { threads: 1, timeout_ms: 1 }));
  assert.deepEqual(check("llm-transform", { count: 0 }), {
    issues: [{ path: ["count"], message: "Too small: expected number to be >0" }],
  });
  // A size and a JSON argument are strings the run reads (`parseSize`, the plan's schema).
  assert.equal(
    (check("llm-search", { max_filesize: "10M" }) as { input: Record<string, unknown> }).input
      .max_filesize,
    "10M",
  );
  const edits = '[{"file_path":"a.txt","byte_start":0,"byte_end":1,"new_text":"x"}]';
  assert.ok("input" in check("llm-transform", { edits }));
  assert.ok("input" in check("llm-write", { files: "[]" }));
  // A pattern, with its own message.
  assert.deepEqual(check("llm-refactor rename", { to: "b", symbol_id: "xyz" }), {
    issues: [{ path: ["symbol_id"], message: "expected 16 hex digits" }],
  });
  // A refinement is zod's: `llm-log --since` and `show` without an id.
  assert.equal(table("llm-log").refined, true);
  assert.ok("schema" in check("llm-log", {}));
});

Deno.test("llm-mcp's options: refused by the table with the schema's own words", () => {
  const table = COMMANDS.find(({ table }) => table.name === "llm-mcp")!.table;
  assert.throws(
    () => programOptions(table, ["--max-output-bytes", "10"]),
    /--max-output-bytes takes a whole number of bytes of at least \d+, got '10'/,
  );
  assert.throws(() => programOptions(table, ["--call-timeout-ms", "0"]), (error) => {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "MCP-ARG-001");
    assert.equal(
      error.message,
      "--call-timeout-ms takes a whole number of milliseconds of at least 1, got '0'",
    );
    return true;
  });
  const parsed = programOptions(table, ["--root", "/repo"]);
  assert.equal(parsed.kind === "options" && parsed.options.root, "/repo");
});

Deno.test("the query and edit entrypoints load no zod before they answer", async () => {
  // Nor the parser, for the queries: a command line is parsed by its table alone.
  for (const tool of ["search", "discover", "transform", "symbols", "validate"]) {
    const graph = await staticGraph(`tools/${tool}/main.ts`);
    assert.ok(graph.some((specifier) => specifier.endsWith("/core/cli_table.ts")), tool);
    const heavy = graph.filter((specifier) => /npm:\/?(zod|web-tree-sitter)@/.test(specifier));
    if (tool === "validate") {
      assert.ok(!heavy.some((specifier) => specifier.includes("zod@")), `${tool}: ${heavy}`);
    } else assert.deepEqual(heavy, [], `llm-${tool}'s static imports reach ${heavy}`);
  }
  // What Deno reads at start (literal dynamic imports included): no zod for search and
  // discover; for llm-symbols no npm package at all (each costs a check of node_modules), nor
  // the indexer's graph (the parser, the grammars).
  for (const tool of ["search", "discover"]) {
    const read = await staticGraph(`tools/${tool}/main.ts`, true);
    assert.deepEqual(read.filter((specifier) => specifier.includes("zod@")), [], tool);
  }
  const read = await staticGraph("tools/symbols/main.ts", true);
  assert.deepEqual(read.filter((specifier) => specifier.startsWith("npm:")), []);
  assert.ok(!read.some((specifier) => specifier.endsWith("/core/symbol_index/indexer.ts")));
  // The definitions do load zod, so the checks above can see it.
  const definitions = await staticGraph("tools/symbols/tool.ts");
  assert.ok(definitions.some((specifier) => specifier.includes("zod@")));
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
  const declared = TOOLS.filter((tool) => tool.compact && !tool.compact.generic);
  assert.equal(forms.length, declared.length, forms.join());
  for (const form of forms) {
    const graph = await staticGraph(form, true);
    const heavy = graph.filter((specifier) => specifier.startsWith("npm:"));
    assert.deepEqual(heavy, [], `${form} reaches ${heavy.join(", ")}`);
  }
});

const FIXTURE: Record<string, string> = {
  "c/util.h": "int helper(int x);\n",
  "c/util.c": '#include "util.h"\nint helper(int x) { return x + 1; }\n' +
    "int twice(int x) { return helper(helper(x)); }\n",
  "py/a.py": "def load():\n    return 1\n\ndef go():\n    return load()\n",
};

Deno.test("llm-symbols scoped to the root: every command line is answered; index names the package it loads", async () => {
  const root = await makeTree(FIXTURE);
  const packageDir = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
  const scoped = { cwd: root, permissions: [`--allow-read=${root}`] };
  const writing = [`--allow-read=${root}`, `--allow-write=${join(root, ".llm")}`];
  try {
    // Help and refusals of every subcommand, index's included, come from the tables.
    const help = await runEntry("tools/symbols/main.ts", ["index", "--help"], scoped);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^llm-symbols index \S+ — Build or refresh the symbol index/);
    const refused = await runEntry("tools/symbols/main.ts", ["index", "--threads", "x"], scoped);
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(JSON.parse(refused.stdout).error.code, "MAG-ARG-001");
    const negative = await runEntry("tools/symbols/main.ts", ["index", "--timeout-ms", "-1"], {
      cwd: root,
      permissions: writing,
    });
    assert.equal(negative.code, 2, negative.stderr);
    assert.match(negative.stderr, /MAG-ARG-002: invalid input: \$\.timeout_ms: Too small/);
    // Its run loads the indexer, named by a computed specifier so that no query reads the
    // parser's graph at start: read permission for the package lets it load (a run from JSR or
    // a binary needs none).
    const index = await runEntry("tools/symbols/main.ts", ["index"], {
      cwd: root,
      permissions: writing,
    });
    assert.equal(index.code, 4, index.stderr);
    const error = JSON.parse(index.stdout).error;
    assert.equal(error.code, "MAG-PERM-001");
    assert.match(error.message, /symbol_index\/indexer\.ts/);
    assert.equal(
      error.remediation,
      `Run again with --allow-read=${packageDir}/ added (a run from JSR or a compiled binary ` +
        "needs no more).",
    );
    // The queries need read permission for the root only.
    const found = await runEntry("tools/symbols/main.ts", ["find", "helper"], scoped);
    assert.equal(found.code, 3, found.stderr); // no index yet: MAG-IO-013
    assert.equal(JSON.parse(found.stdout).diagnostics[0].code, "MAG-IO-013");
    const granted = await runEntry("tools/symbols/main.ts", ["index"], {
      cwd: root,
      permissions: [`--allow-read=${root},${packageDir}`, `--allow-write=${join(root, ".llm")}`],
    });
    assert.equal(granted.code, 0, granted.stdout);
    const again = await runEntry("tools/symbols/main.ts", ["find", "helper"], scoped);
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("llm-symbols: an indexed query by its table, and the help of the program", async () => {
  const root = await makeTree(FIXTURE);
  try {
    await indexRoot({ root, threads: 0 });
    const text = await runEntry(
      "tools/symbols/main.ts",
      ["callers", "helper", "--format", "text"],
      {
        cwd: root,
      },
    );
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /c\/util\.c:3:\d+: call helper in twice/);
    const compact = await runEntry("tools/symbols/main.ts", [
      "find",
      "helper",
      "--format",
      "compact",
    ], {
      cwd: root,
    });
    assert.equal(compact.code, 0, compact.stderr);
    assert.equal(JSON.parse(compact.stdout).status, "ok");
    const program = await runEntry("tools/symbols/main.ts", ["--help"], { cwd: root });
    assert.equal(program.code, 0);
    for (const name of Object.keys(SYMBOLS_SUBCOMMANDS)) {
      assert.match(program.stdout, new RegExp(`\\n  ${name} +${SYMBOLS_SUBCOMMANDS[name].title}`));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the request fields of the transform's request.ts are its input schema's, less the run options", () => {
  const runOptions = new Set(["root", "dry_run", "validate", "allow_build_scripts"]);
  const fields = Object.keys(TransformInput.shape).filter((field) => !runOptions.has(field));
  assert.deepEqual([...REQUEST_FIELDS], fields);
});
