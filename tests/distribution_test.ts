/**
 * Distribution: every tool compiles to its own executable with exactly the permissions its
 * definition declares and the worker modules it starts, the README's `deno install -g` lines
 * grant the same flags, and (where Deno's `denort` runtime is at hand) the executables build
 * and answer.
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  compileArgs,
  compileTargets,
  denortAvailable,
  permissionFlags,
} from "../scripts/compile.ts";
import { TOOLS } from "../tools/registry.ts";
import { makeTree, REPO, staticGraph } from "./helpers.ts";

/** The program a tool belongs to: `llm-symbols` for its subcommand `llm-symbols find`. */
function programOf(toolName: string): string {
  return toolName.split(" ")[0];
}

Deno.test("every tool has an executable with its own permissions; the MCP server has them all", () => {
  const targets = compileTargets();
  assert.deepEqual(
    targets.map((target) => target.name).sort(),
    [...new Set(TOOLS.map((tool) => programOf(tool.name))), "llm-mcp", "llm-log"].sort(),
  );
  for (const tool of TOOLS) {
    const target = targets.find((candidate) => candidate.name === programOf(tool.name))!;
    for (const permission of tool.permissions) {
      assert.ok(target.permissions.includes(permission), `${tool.name}: ${permission}`);
    }
  }
  const flags = Object.fromEntries(
    targets.map((target) => [target.name, permissionFlags(target.permissions).join(" ")]),
  );
  assert.deepEqual(flags, {
    "llm-search": "--allow-read",
    "llm-ast-search": "--allow-read",
    "llm-discover": "--allow-read",
    "llm-transform": "--allow-read --allow-write",
    "llm-write": "--allow-read --allow-write",
    "llm-symbols": "--allow-read --allow-write",
    "llm-refactor": "--allow-read --allow-write",
    "llm-validate": "--allow-read",
    "llm-context": "--allow-read",
    "llm-mcp": "--allow-read --allow-write",
    "llm-log": "--allow-read",
  });
});

/** A worker started from a module: `new URL("./x.ts", import.meta.url)` in a module that starts one. */
const WORKER_URL = /new URL\("(\.{1,2}\/[^"]+\.ts)", import\.meta\.url\)/g;

/**
 * The worker modules (relative to the repository) that the modules `entry` and `include` load
 * can start: every module URL named beside `new Worker(` in a module of their graphs, literal
 * dynamic imports included, and the graphs of those workers in turn.
 */
async function workersStartedBy(entry: string, include: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  const pending = [entry, ...include];
  const visited = new Set<string>();
  while (pending.length > 0) {
    const root = pending.pop()!;
    if (visited.has(root)) continue;
    visited.add(root);
    for (const specifier of await staticGraph(root, true)) {
      if (!specifier.startsWith("file://")) continue;
      const path = fileURLToPath(specifier);
      const source = Deno.readTextFileSync(path);
      if (!source.includes("new Worker(")) continue;
      for (const [, url] of source.matchAll(WORKER_URL)) {
        const worker = relative(REPO, join(dirname(path), url));
        found.add(worker);
        pending.push(worker);
      }
    }
  }
  return [...found].sort();
}

Deno.test("each executable embeds every worker module its graph can start, and they exist", async () => {
  for (const target of compileTargets()) {
    const started = await workersStartedBy(target.entry, target.include);
    const missing = started.filter((worker) => !target.include.includes(worker));
    assert.deepEqual(missing, [], `${target.name} starts workers it does not embed`);
    assert.ok(Deno.statSync(join(REPO, target.entry)).isFile, target.entry);
    for (const module of target.include) assert.ok(Deno.statSync(join(REPO, module)).isFile);
    const args = compileArgs(target, "/out");
    assert.equal(args.at(-1), join(REPO, target.entry));
    assert.equal(args[args.indexOf("--output") + 1], join("/out", target.name));
  }
  // The derivation finds the workers the engines are known to start.
  const search = compileTargets().find((target) => target.name === "llm-search")!;
  assert.deepEqual(await workersStartedBy(search.entry, []), [
    "core/trigram/stat_worker.ts",
    "tools/search/worker.ts",
  ]);
});

Deno.test("the README's deno install lines grant each program the executable's flags", () => {
  const readme = Deno.readTextFileSync(join(REPO, "README.md"));
  const lines = [...readme.matchAll(/^deno install -g (.*) -n (\S+) (\S+)$/gm)];
  const installs = Object.fromEntries(
    lines.map(([, flags, name, specifier]) => [name, `${flags} ${specifier}`]),
  );
  const expected = Object.fromEntries(
    compileTargets().map((target) => [
      target.name,
      `${permissionFlags(target.permissions).join(" ")} ${target.specifier}`,
    ]),
  );
  assert.deepEqual(installs, expected);
});

Deno.test("deno task compile --dry-run prints one deno compile per executable", async () => {
  const output = await new Deno.Command("deno", {
    args: ["task", "--quiet", "compile", "--dry-run"],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const commands = stderr.split("\n").filter((line) => line.startsWith("deno compile "));
  assert.equal(commands.length, compileTargets().length);
  const mcp = commands.find((line) => line.includes(join("dist", "llm-mcp")))!;
  assert.match(mcp, /--allow-read --allow-write --include \S+search\/worker\.ts/);
});

Deno.test({
  name: "the executables build and answer with their baked permissions (needs denort)",
  ignore: !denortAvailable(),
  fn: async () => {
    const out = await Deno.makeTempDir();
    const tree = await makeTree({ "a.txt": "hello world\n", "src/walker.ts": "export {};\n" });
    try {
      const build = await new Deno.Command("deno", {
        args: ["run", "-A", join(REPO, "scripts", "compile.ts"), "--out", out],
        cwd: REPO,
        stderr: "piped",
      }).output();
      assert.equal(build.code, 0, new TextDecoder().decode(build.stderr));
      const run = async (name: string, args: string[]) => {
        const output = await new Deno.Command(join(out, name), {
          args,
          cwd: tree,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).output();
        return { code: output.code, stdout: new TextDecoder().decode(output.stdout) };
      };
      const search = await run("llm-search", ["hello", "."]);
      assert.equal(search.code, 0);
      assert.equal(JSON.parse(search.stdout).data.match_count, 1);
      const discover = await run("llm-discover", ["walker"]);
      assert.equal(JSON.parse(discover.stdout).data.results[0].path, "src/walker.ts");
      const ast = await run("llm-ast-search", ["--kind", "function", "."]);
      assert.equal(ast.code, 0);
      const transform = await run("llm-transform", [
        "--file",
        "a.txt",
        "--old",
        "world",
        "--new",
        "you",
      ]);
      assert.equal(transform.code, 0, transform.stdout);
      assert.equal(Deno.readTextFileSync(join(tree, "a.txt")), "hello you\n");
      const mcp = await run("llm-mcp", ["--version"]);
      assert.match(mcp.stdout, /^llm-mcp /);
    } finally {
      await Deno.remove(out, { recursive: true });
      await Deno.remove(tree, { recursive: true });
    }
  },
});
