/**
 * Shared parts of the `llm-refactor` tests: the fixture projects copied to a temporary root,
 * the CLI run with scoped permissions, snapshots of a tree's bytes, and each language's real
 * compiler command that checks (and runs) a fixture after an operation.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { MutationEnvelope, RefactorOutput, RefactorResult } from "../schema/mod.ts";
import { REFACTOR_SUBCOMMANDS } from "../tools/refactor/tool.ts";
import { assertValidEnvelope, hasCommand, parseJson, REPO, runEntry } from "./helpers.ts";

/** The entrypoint under test. */
export const ENTRY = "tools/refactor/main.ts";

/** Folder of the fixture projects. */
export const FIXTURES: string = join(REPO, "tests", "fixtures", "refactor");

/** Compilers the gates may start in these tests. */
const COMPILERS = ["gcc", "g++", "python3", "node", "javac", "rustc", "go", Deno.execPath()];

/** The permissions a user gives: the root read and written, the compilers run. */
export function scoped(root: string): string[] {
  return [`--allow-read=${root}`, `--allow-write=${root}`, `--allow-run=${COMPILERS.join(",")}`];
}

/** A copy of fixture `name` in a fresh temporary root (its real path). */
export async function copyFixture(name: string): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-refactor-test-" }));
  const copy = async (from: string, to: string) => {
    for await (const entry of Deno.readDir(from)) {
      if (entry.isDirectory) {
        await Deno.mkdir(join(to, entry.name));
        await copy(join(from, entry.name), join(to, entry.name));
      } else await Deno.copyFile(join(from, entry.name), join(to, entry.name));
    }
  };
  await copy(join(FIXTURES, name), root);
  return root;
}

/** Runs `test` on a copy of fixture `name`, removed afterwards. */
export async function withFixture(name: string, test: (root: string) => Promise<void>) {
  const root = await copyFixture(name);
  try {
    await test(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Asserts that every file of `before` (a snapshot) holds the same bytes in `root` again. */
export async function assertBytesOf(root: string, before: Record<string, string>): Promise<void> {
  const after = await snapshot(root);
  for (const [file, bytes] of Object.entries(before)) assert.equal(after[file], bytes, file);
}

/** Every file of a tree but the state folder, path → bytes as text (latin1, byte-exact). */
export async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (dir: string, prefix: string) => {
    for await (const entry of Deno.readDir(dir)) {
      // The state folder, and a commit's temporary files (renamed away at any moment).
      if (entry.name === ".llm" || entry.name.startsWith(".llm-tmp.")) continue;
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(join(dir, entry.name), path);
      else {
        const bytes = await Deno.readFile(join(dir, entry.name));
        files[path] = Array.from(bytes, (byte) => String.fromCharCode(byte)).join("");
      }
    }
  };
  await walk(root, "");
  return files;
}

/** One CLI run. */
export interface Run {
  /** Exit code. */
  code: number;
  /** Standard error. */
  stderr: string;
  /** The envelope, checked against the output schema. */
  envelope: MutationEnvelope<RefactorOutput>;
}

/** Runs `llm-refactor ARGS` in `root` with the scoped permissions. */
export async function refactorCli(
  root: string,
  args: string[],
  options: { stdin?: string; permissions?: string[] } = {},
): Promise<Run> {
  const result = await runEntry(ENTRY, args, {
    cwd: root,
    permissions: options.permissions ?? scoped(root),
    // The Go gate's build cache, in the state folder (neither copied nor snapshotted).
    env: { GOCACHE: join(root, ".llm", "go-cache"), GOPATH: join(root, ".llm", "go-path") },
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
  });
  const envelope = parseJson(result);
  const tool = REFACTOR_SUBCOMMANDS[args[0]];
  assert.ok(tool.output.safeParse(envelope).success, JSON.stringify(envelope));
  return {
    code: result.code,
    stderr: result.stderr,
    envelope: envelope as unknown as MutationEnvelope<RefactorOutput>,
  };
}

/** The edit result of a run. */
export function editResult(run: Run): RefactorResult {
  const result = run.envelope.result;
  assert.ok(result && "operation" in result, JSON.stringify(run.envelope));
  return result;
}

export { assertValidEnvelope };

/** How a fixture is checked by its real compiler after an operation. */
export interface FixtureCheck {
  /** The program that must be on PATH. */
  compiler: string;
  /** Commands run in the root, in order; each must succeed. */
  commands: string[][];
  /** The arguments that show the compiler is there (`--version` when absent). */
  probe?: string[];
  /** Variables pointed at a fresh temporary folder (caches the compiler would write elsewhere). */
  scratchEnv?: string[];
}

/** Each fixture's compile (and run) check. */
export const CHECKS: Record<string, FixtureCheck> = {
  c: {
    compiler: "gcc",
    commands: [["gcc", "-Wall", "-Werror", "-o", "prog", "main.c", "util.c", "other.c"], [
      "./prog",
    ]],
  },
  cpp: {
    compiler: "g++",
    commands: [["g++", "-Wall", "-Werror", "-o", "prog", "main.cpp", "shapes.cpp"], ["./prog"]],
  },
  python: { compiler: "python3", commands: [["python3", "main.py"]] },
  javascript: { compiler: "node", commands: [["node", "main.mjs"]] },
  typescript: {
    compiler: "deno",
    commands: [["deno", "check", "main.ts"], ["deno", "run", "main.ts"]],
  },
  java: {
    compiler: "javac",
    commands: [["javac", "-d", "classes", "Main.java", "Util.java", "Box.java"], [
      "java",
      "-cp",
      "classes",
      "Main",
    ]],
  },
  rust: { compiler: "rustc", commands: [["rustc", "-o", "prog", "main.rs"], ["./prog"]] },
  go: {
    compiler: "go",
    commands: [["go", "build", "-o", "prog", "."], ["./prog"]],
    probe: ["version"],
    scratchEnv: ["GOCACHE", "GOPATH"],
  },
};

/** Whether the fixture's compiler is installed. */
export function hasCompiler(language: string): boolean {
  const { compiler, probe } = CHECKS[language];
  return compiler === "deno" || hasCommand(compiler, probe);
}

/** Runs the fixture's compile (and run) commands in `root`; fails the test when one fails. */
export async function assertCompiles(language: string, root: string): Promise<void> {
  const check = CHECKS[language];
  const scratch = await Deno.makeTempDir({ prefix: "llm-refactor-compiler-" });
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of check.scratchEnv ?? []) env[name] = join(scratch, name.toLowerCase());
  try {
    for (const [program, ...args] of check.commands) {
      const output = await new Deno.Command(program, {
        args,
        cwd: root,
        stdout: "piped",
        stderr: "piped",
        env,
      }).output();
      const decoder = new TextDecoder();
      assert.ok(
        output.success,
        `${program} ${args.join(" ")} failed in ${language}:\n${decoder.decode(output.stderr)}` +
          decoder.decode(output.stdout),
      );
    }
  } finally {
    // Go marks its module cache read-only; chmod lets the removal through.
    await new Deno.Command("chmod", { args: ["-R", "u+w", scratch] }).output();
    await Deno.remove(scratch, { recursive: true });
  }
}
