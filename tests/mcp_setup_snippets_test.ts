/**
 * The client set-up snippets of README.md ("Adding it to a client") work as written: every fenced
 * JSON block and every `claude mcp add … -- <command>` line there is started exactly as it
 * says, with two substitutions only — the checkout's `tools/mcp/main.ts` for the published
 * package `jsr:@llm/search/mcp` (JSR is not reachable from CI), and a fixture copy for the
 * example project — from an unrelated working directory, with no `deno` on `PATH` (the snippets
 * fetch it with `npx -y deno@…`). Each server answers `initialize`, `tools/list` and a `search`
 * through the official SDK client, and logs to the project's shared execution log `.llm/log`,
 * which the README's `llm-log show` line reads back.
 */
import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO } from "./helpers.ts";
import { listAllTools } from "./mcp_helpers.ts";

const SECTION = "### Adding it to a client";
const PACKAGE = "jsr:@llm/search/mcp";
/** The published entrypoints the section names, and the checkout's modules standing in for them. */
const ENTRYPOINTS: Record<string, string> = {
  [PACKAGE]: join(REPO, "tools", "mcp", "main.ts"),
  "jsr:@llm/search/log": join(REPO, "tools", "log", "main.ts"),
};
/** The example project of the snippets, and VS Code's variable for it. */
const PROJECT_PLACEHOLDERS = ["/home/me/src/app", "${workspaceFolder}"];
const FIXTURE = join(REPO, "tests", "fixtures", "mcp_clients", "repo");

/** One way of starting the server that README.md gives. */
interface Snippet {
  /** Where it comes from, e.g. `json block 2: mcpServers.llm-search`. */
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The text of the "Adding it to a client" subsection. */
function section(readme: string): string {
  const start = readme.indexOf(SECTION);
  assert.ok(start >= 0, `README.md has "${SECTION}"`);
  const end = readme.indexOf("\n#", start + SECTION.length);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The server entries of the section's fenced JSON blocks (`mcpServers` or VS Code's `servers`). */
function jsonSnippets(text: string): Snippet[] {
  const blocks = [...text.matchAll(/^```json\n([\s\S]*?)^```$/gm)];
  return blocks.flatMap((match, index) => {
    const block = match[1];
    const client = [...text.slice(0, match.index).matchAll(/\*\*([^*]+)\*\*/g)].at(-1)?.[1];
    const config = JSON.parse(block) as Record<string, Record<string, Omit<Snippet, "label">>>;
    const servers = config.mcpServers ?? config.servers;
    assert.ok(servers, `json block ${index + 1} has mcpServers or servers`);
    return Object.entries(servers).map(([name, server]) => ({
      label: `${client ?? "json"} (block ${index + 1}): ${name}`,
      command: server.command,
      args: server.args,
      ...(server.env ? { env: server.env } : {}),
    }));
  });
}

/** The command after ` -- ` of every `claude mcp add` line, split into words by bash itself. */
async function claudeSnippets(text: string): Promise<Snippet[]> {
  const lines = text.split("\n").filter((line) => line.startsWith("claude mcp add "));
  const snippets: Snippet[] = [];
  for (const line of lines) {
    const command = line.slice(line.indexOf(" -- ") + 4);
    const words = await new Deno.Command("bash", {
      args: ["-c", `printf '%s\\0' ${command}`],
      stdout: "piped",
    }).output();
    const [program, ...args] = new TextDecoder().decode(words.stdout).split("\0").slice(0, -1);
    snippets.push({ label: line.slice(0, line.indexOf(" -- ")), command: program, args });
  }
  return snippets;
}

/** A `PATH` with node and npx but no deno, so the snippets cannot lean on an installed Deno. */
async function pathWithoutDeno(): Promise<string> {
  const bin = await Deno.makeTempDir({ prefix: "llm-mcp-nodeonly-" });
  for (const program of ["node", "npx", "npm", "sh"]) {
    const found = new TextDecoder().decode(
      (await new Deno.Command("bash", { args: ["-c", `command -v ${program}`], stdout: "piped" })
        .output()).stdout,
    ).trim();
    await Deno.symlink(await Deno.realPath(found), join(bin, program));
  }
  return bin;
}

/** True when `npx -y deno@2.9.6` can be fetched (npm reachable or cached). */
async function canFetchDeno(): Promise<boolean> {
  try {
    const { success } = await new Deno.Command("npx", {
      args: ["-y", "deno@2.9.6", "--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

const hasNpxDeno = await canFetchDeno();

/** `value` with a package replaced by the checkout's entrypoint and the project by `root`. */
function substitute(value: string, root: string): string {
  if (value in ENTRYPOINTS) return ENTRYPOINTS[value];
  return PROJECT_PLACEHOLDERS.reduce(
    (text, placeholder) => text.replaceAll(placeholder, root),
    value,
  );
}

/** Starts `snippet` for `root` from `cwd`, then initialize, tools/list and one search. */
async function exercise(snippet: Snippet, root: string, cwd: string, path: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: substitute(snippet.command, root),
    args: snippet.args.map((arg) => substitute(arg, root)),
    env: { HOME: Deno.env.get("HOME") ?? "/root", PATH: path, ...snippet.env },
    cwd,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "llm-mcp-snippet-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.name, "llm-mcp", stderr);
    const listed = await listAllTools(client);
    const tools = listed.map((tool) => tool.name);
    assert.ok(tools.includes("search") && tools.includes("ast_search"), tools.join());
    const writesProject = snippet.args.some((arg) =>
      substitute(arg, root) === `--allow-write=${root}`
    );
    assert.equal(
      tools.includes("transform"),
      writesProject,
      "transform offered iff -W covers the root",
    );
    const answer = await client.callTool({
      name: "search",
      arguments: { patterns: ["greet_count"] },
    });
    const envelope = answer.structuredContent as { status: string };
    assert.ok(!answer.isError, JSON.stringify(envelope));
    assert.equal(envelope.status, "ok");
    const text = JSON.stringify(envelope);
    for (const file of ["src/greet.c", "include/greet.h"]) assert.ok(text.includes(file), file);
  } catch (error) {
    throw new Error(`${snippet.label}: ${error}\nserver stderr:\n${stderr}`);
  } finally {
    await client.close();
  }
}

/** The README's `… log show ID …` command line (inline code). */
function logShowLine(text: string): string {
  const line = text.match(/`(npx -y deno@2\.9\.6 run [^`]*\/log show ID [^`]*)`/)?.[1];
  assert.ok(line, "the section shows how to print a past call");
  return line;
}

/** Runs the README's `log show` line for `id` and checks it prints that call. */
async function checkLogShow(
  line: string,
  root: string,
  id: string,
  cwd: string,
  path: string,
): Promise<void> {
  const words = line.split(" ").map((word) => word === "ID" ? id : substitute(word, root));
  const [command, ...args] = words;
  const output = await new Deno.Command(command, {
    args,
    cwd,
    env: { HOME: Deno.env.get("HOME") ?? "/root", PATH: path },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `log show: ${stderr}`);
  const shown = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.equal(shown.data.execution.execution_id, id, "log show prints the logged call");
}

/**
 * Checks that `snippet` runs Deno through npx, then starts it for a fresh copy of the fixture
 * and checks the answers and the log under `.llm/log`.
 */
async function checkSnippet(
  snippet: Snippet,
  cwd: string,
  path: string,
  logShow?: string,
): Promise<void> {
  assert.equal(snippet.command, "npx", "runs Deno through npx, not an installed deno");
  assert.deepEqual(snippet.args.slice(0, 2), ["-y", "deno@2.9.6"], "pins Deno");
  assert.ok(snippet.args.includes(PACKAGE), `names ${PACKAGE}`);
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "llm-mcp-app-" }));
  try {
    await cp(FIXTURE, root, { recursive: true });
    await exercise(snippet, root, cwd, path);
    const log = join(root, ".llm", "log", "executions.jsonl");
    const record = JSON.parse((await Deno.readTextFile(log)).split("\n")[0]);
    assert.equal(record.tool, "search", "logged under .llm/log");
    if (logShow) await checkLogShow(logShow, root, record.execution_id, cwd, path);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test({
  name:
    "mcp set-up: README's client snippets start a working server as written (needs npx deno@2.9.6)",
  ignore: !hasNpxDeno,
  async fn(t) {
    const text = section(await Deno.readTextFile(join(REPO, "README.md")));
    const snippets = [...await claudeSnippets(text), ...jsonSnippets(text)];
    assert.ok(snippets.length >= 5, `found ${snippets.length} snippets`);
    const path = await pathWithoutDeno();
    const cwd = await Deno.makeTempDir({ prefix: "llm-mcp-cwd-" });
    try {
      // All snippets start side by side (each pays npx's and Deno's start-up); then one step
      // per snippet reports its own outcome.
      const outcomes = await Promise.allSettled(
        snippets.map((snippet, index) =>
          checkSnippet(snippet, cwd, path, index === 0 ? logShowLine(text) : undefined)
        ),
      );
      for (const [index, outcome] of outcomes.entries()) {
        await t.step(snippets[index].label, () => {
          if (outcome.status === "rejected") throw outcome.reason;
        });
      }
    } finally {
      await Deno.remove(path, { recursive: true });
      await Deno.remove(cwd, { recursive: true });
    }
  },
});
