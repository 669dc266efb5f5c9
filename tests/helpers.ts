/**
 * Test plumbing: run a tool entrypoint as a real subprocess with the exact permission flags a
 * user would give, make temporary trees, and validate envelopes against both the zod schema and
 * the generated JSON Schema file (with ajv, an independent validator).
 *
 * @module
 */
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Tool } from "../core/tool.ts";
import { schemaStem } from "../scripts/schema.ts";

/** Absolute path of the repository. */
export const REPO: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** Output of a subprocess run. */
export interface RunResult {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/** How to run an entrypoint. */
export interface RunOptions {
  /** Deno permission flags; default `["--allow-read"]`. */
  permissions?: string[];
  /** Working directory; default the repository. */
  cwd?: string;
  /** Text (or exact bytes) to feed on standard input. */
  stdin?: string | Uint8Array;
  /** Environment variables to set (e.g. a PATH without some program). */
  env?: Record<string, string>;
}

/**
 * Starts `deno run --no-prompt <permissions> <entry> <args>` with the repository's config, as a
 * user of the published package would, without waiting for it; `options.stdin` is written and
 * closed in the background.
 */
export function spawnEntry(
  entry: string,
  args: string[],
  options: RunOptions = {},
): Deno.ChildProcess {
  // A PATH set for the child may not hold deno: the running one is started by its path then.
  const child = new Deno.Command(options.env ? Deno.execPath() : "deno", {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      `--config=${join(REPO, "deno.json")}`,
      ...(options.permissions ?? ["--allow-read"]),
      join(REPO, entry),
      ...args,
    ],
    cwd: options.cwd ?? REPO,
    env: options.env,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    const bytes = typeof options.stdin === "string"
      ? new TextEncoder().encode(options.stdin)
      : options.stdin;
    writer.write(bytes).then(() => writer.close());
  }
  return child;
}

/**
 * Runs `deno run --no-prompt <permissions> <entry> <args>` with the repository's config, as a
 * user of the published package would, and collects its output.
 */
export async function runEntry(
  entry: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const child = spawnEntry(entry, args, options);
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Parses a run's stdout as exactly one JSON document. */
export function parseJson(result: RunResult): Record<string, unknown> {
  const text = result.stdout.trim();
  assert.ok(text.length > 0, `no stdout; stderr: ${result.stderr}`);
  assert.ok(!text.includes("\n"), "stdout holds more than one line of JSON");
  return JSON.parse(text);
}

/** Makes a temporary directory with the given files (path → text or bytes). */
export async function makeTree(files: Record<string, string | Uint8Array>): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-search-test-" }));
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await Deno.mkdir(dirname(full), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(full, content);
    else await Deno.writeFile(full, content);
  }
  return root;
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Asserts that `envelope` satisfies the tool's zod output schema and its generated JSON Schema
 * file `schema/json/<tool>.output.json`.
 */
export function assertValidEnvelope(tool: Tool, envelope: unknown): void {
  const parsed = tool.output.safeParse(envelope);
  assert.ok(parsed.success, `zod: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`);
  let validate = validators.get(tool.name);
  if (!validate) {
    const file = join(REPO, "schema", "json", `${schemaStem(tool.name)}.output.json`);
    validate = ajv.compile(JSON.parse(Deno.readTextFileSync(file)));
    validators.set(tool.name, validate);
  }
  assert.ok(validate(envelope), `JSON Schema: ${JSON.stringify(validate.errors)}`);
}

/** Removes per-run fields (ids, timestamps) so two runs can be compared byte for byte. */
export function withoutRunFields(text: string): string {
  return text
    .replace(/"(execution_id|match_id)":"[^"]*"/g, '"$1":""')
    .replace(/"timestamp":"[^"]*"/g, '"timestamp":""');
}

/** A small seeded generator (mulberry32), so a generated case can be replayed by its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Whether `name --version` (or `name ...probe`) runs: tests that need a peer binary are
 * ignored, visibly, without it. `go` knows only `go version`.
 */
export function hasCommand(name: string, probe: string[] = ["--version"]): boolean {
  try {
    return new Deno.Command(name, { args: probe, stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string }; isDynamic?: boolean }[];
}

/**
 * The modules `entry` (a path in the repository) loads before it runs: its static imports,
 * transitively, and (`dynamic`) its literal dynamic imports too, whose graphs Deno reads and
 * parses at start; by `deno info --json`.
 */
export async function staticGraph(entry: string, dynamic = false): Promise<string[]> {
  const output = await new Deno.Command("deno", {
    args: ["info", "--json", join(REPO, entry)],
    cwd: REPO,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const modules = new Map(info.modules.map((module) => [module.specifier, module]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (target && (dynamic || !dependency.isDynamic)) visit(target);
    }
  };
  info.roots.forEach(visit);
  return [...seen];
}

/** The variable that names the one test a child `deno test` of {@linkcode testInOwnProcess} runs. */
const OWN_PROCESS = "LLM_SEARCH_TEST_OWN_PROCESS";

/**
 * Declares a test that changes what the whole process shares (an environment variable such as
 * PATH): `deno test --parallel` runs test modules as threads of one process, so such a change
 * would reach the other modules' subprocesses and caches. The test runs in a child `deno test`
 * of `module` (pass `import.meta.url`) filtered to it; there `fn` runs as a plain test.
 */
export function testInOwnProcess(
  module: string,
  options: { name: string; ignore?: boolean; fn: () => Promise<void> },
): void {
  const { name, ignore = false, fn } = options;
  if (Deno.env.get(OWN_PROCESS) === name) {
    Deno.test({ name, ignore, fn });
    return;
  }
  Deno.test({
    name: `${name} (in its own process)`,
    ignore,
    fn: async () => {
      const output = await new Deno.Command("deno", {
        args: [
          "test",
          "--quiet",
          "-A",
          `--config=${join(REPO, "deno.json")}`,
          "--filter",
          name,
          fileURLToPath(module),
        ],
        env: { [OWN_PROCESS]: name, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const said = new TextDecoder().decode(output.stdout) +
        new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 0, said);
      assert.match(said, /\| 1 passed \|/, said);
    },
  });
}
