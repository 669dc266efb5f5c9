/**
 * `deno task compile`: builds every tool into its own standalone executable in `dist/`, each
 * with exactly the permissions its definition declares baked in (`--allow-read` for the read
 * tools, `--allow-read --allow-write` for the mutating ones and for the MCP server, which
 * offers both) and the worker modules it starts embedded with `--include` (Deno never embeds a
 * worker script by itself).
 *
 * `deno compile` needs Deno's `denort` runtime: `DENORT_BIN`, a cached
 * `$DENO_DIR/dl/release/v<version>/denort-<target>.zip`, or a network to download it.
 *
 * Run: `deno task compile [--out DIR] [--dry-run] [NAME...]` (`--dry-run` prints the commands).
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ToolPermission } from "../core/tool.ts";
import {
  LLM_AST_SEARCH,
  LLM_CONTEXT,
  LLM_DISCOVER,
  LLM_LOG,
  LLM_MCP,
  LLM_REFACTOR,
  LLM_SEARCH,
  LLM_SYMBOLS,
  LLM_TRANSFORM,
  LLM_VALIDATE,
  LLM_WRITE,
} from "../schema/tool_names.ts";
import { logTool } from "../tools/log/tool.ts";
import { TOOLS } from "../tools/registry.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));

/** Worker modules, by the engine that starts them. */
const WORKERS = {
  search: "tools/search/worker.ts",
  astSearch: "tools/ast-search/worker.ts",
  mcpCall: "tools/mcp/call_worker.ts",
  symbolIndex: "core/symbol_index/worker.ts",
  /** The chunks' side build of a cold `index` (`core/symbol_index/chunk_side.ts`). */
  chunkSide: "core/symbol_index/chunk_side_worker.ts",
  /** The repository index's stat reader (`core/trigram/entry_stats.ts`). */
  stamps: "core/trigram/stat_worker.ts",
  /** The repository index's builder during `index` (`core/trigram/repository_build.ts`). */
  repository: "core/trigram/repository_worker.ts",
} as const;

/** How one executable is built. */
export interface CompileTarget {
  /** Executable name, e.g. `llm-search`. */
  name: string;
  /** Entrypoint module, relative to the repository. */
  entry: string;
  /** The `jsr:` specifier `deno install -g` takes for the same program. */
  specifier: string;
  /** Permissions baked into the executable. */
  permissions: readonly ToolPermission[];
  /**
   * Modules loaded at run time by a computed specifier, embedded with `--include`: the workers,
   * and `llm-symbols`' indexer and walker (its queries read neither at start).
   */
  include: readonly string[];
}

/** Every permission some tool needs: the MCP server offers every tool. */
function allPermissions(): ToolPermission[] {
  const all = new Set(TOOLS.flatMap((tool) => tool.permissions));
  return (["read", "write"] as const).filter((permission) => all.has(permission));
}

/** The permissions of the program `name`: its tool's, or all its subcommands' (`llm-symbols`). */
function toolPermissions(name: string): readonly ToolPermission[] {
  const tools = TOOLS.filter((candidate) =>
    candidate.name === name || candidate.name.startsWith(`${name} `)
  );
  if (tools.length === 0) throw new Error(`no tool named ${name} in tools/registry.ts`);
  const all = new Set(tools.flatMap((tool) => tool.permissions));
  return (["read", "write"] as const).filter((permission) => all.has(permission));
}

/**
 * The executables, one row each: a new tool adds its row, a new worker module goes in the
 * `include` of every program that starts it.
 */
export function compileTargets(): CompileTarget[] {
  const tool = (name: string, dir: string, include: readonly string[] = []): CompileTarget => ({
    name,
    entry: `tools/${dir}/main.ts`,
    specifier: `jsr:@llm/search/${dir}`,
    permissions: toolPermissions(name),
    include,
  });
  return [
    tool(LLM_SEARCH, "search", [WORKERS.search, WORKERS.stamps]),
    tool(LLM_AST_SEARCH, "ast-search", [WORKERS.astSearch]),
    tool(LLM_DISCOVER, "discover", [WORKERS.stamps]),
    tool(LLM_TRANSFORM, "transform"),
    tool(LLM_WRITE, "write"),
    tool(LLM_SYMBOLS, "symbols", [
      WORKERS.symbolIndex,
      WORKERS.chunkSide,
      WORKERS.stamps,
      WORKERS.repository,
      // Loaded by computed specifiers, so that no query reads their graphs at start.
      "core/symbol_index/indexer.ts",
      "core/symbol_index/candidates.ts",
    ]),
    tool(LLM_REFACTOR, "refactor", [
      WORKERS.symbolIndex,
      WORKERS.chunkSide,
      WORKERS.stamps,
      WORKERS.repository,
    ]),
    tool(LLM_VALIDATE, "validate"),
    tool(LLM_CONTEXT, "context", [
      WORKERS.symbolIndex,
      WORKERS.chunkSide,
      WORKERS.stamps,
      WORKERS.repository,
    ]),
    {
      name: LLM_MCP,
      entry: "tools/mcp/main.ts",
      specifier: "jsr:@llm/search/mcp",
      permissions: allPermissions(),
      include: [
        WORKERS.search,
        WORKERS.astSearch,
        WORKERS.mcpCall,
        WORKERS.symbolIndex,
        WORKERS.chunkSide,
        WORKERS.stamps,
        WORKERS.repository,
        // Loaded by computed specifiers in calls: the host's live index and its builds.
        "core/symbol_index/live.ts",
        "core/symbol_index/indexer.ts",
        "core/symbol_index/candidates.ts",
      ],
    },
    {
      name: LLM_LOG,
      entry: "tools/log/main.ts",
      specifier: "jsr:@llm/search/log",
      permissions: logTool.permissions,
      include: [],
    },
  ];
}

/** The Deno permission flags of `permissions`, in a fixed order. */
export function permissionFlags(permissions: readonly ToolPermission[]): string[] {
  return (["read", "write"] as const).filter((permission) => permissions.includes(permission))
    .map((permission) => `--allow-${permission}`);
}

/** The arguments of `deno compile` for `target`, writing into `outDir`. */
export function compileArgs(target: CompileTarget, outDir: string): string[] {
  return [
    "compile",
    ...permissionFlags(target.permissions),
    ...target.include.flatMap((module) => ["--include", join(REPO, module)]),
    "--output",
    join(outDir, target.name),
    join(REPO, target.entry),
  ];
}

/**
 * Whether `deno compile` can find its `denort` runtime without a network: `DENORT_BIN` names
 * a file, or the zip of this Deno version and target is in the cache.
 */
export function denortAvailable(): boolean {
  const explicit = Deno.env.get("DENORT_BIN");
  if (explicit) return isFile(explicit);
  const home = Deno.env.get("HOME") ?? "";
  const denoDir = Deno.env.get("DENO_DIR") ?? join(home, ".cache", "deno");
  const zip = `denort-${Deno.build.target}.zip`;
  return isFile(join(denoDir, "dl", "release", `v${Deno.version.deno}`, zip));
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: "string" }, "dry-run": { type: "boolean" } },
    allowPositionals: true,
  });
  const outDir = values.out ?? join(REPO, "dist");
  const targets = compileTargets().filter((target) =>
    positionals.length === 0 || positionals.includes(target.name)
  );
  for (const target of targets) {
    const compile = compileArgs(target, outDir);
    console.error(`deno ${compile.join(" ")}`);
    if (values["dry-run"]) continue;
    const { code } = await new Deno.Command(Deno.execPath(), { args: compile }).output();
    if (code !== 0) {
      console.error(`compile: ${target.name} failed (exit ${code})`);
      return code;
    }
  }
  if (!values["dry-run"]) console.error(`compile: ${targets.length} executable(s) in ${outDir}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
