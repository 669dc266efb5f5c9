/**
 * Prepares the benchmark corpora and peers, once: installs ripgrep, fd-find, fzf and
 * universal-ctags and Linux 6.1 sources from Debian when missing, and unpacks the sources into
 * `~/.cache/llm-search-bench/linux-6.1/` (see {@linkcode CACHE}). Run: `deno run -A bench/prepare.ts`.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Cache folder for corpora and peer tools. It lies outside the repository on purpose: inside
 * it, the repository's `.gitignore` (which lists the cache) would hide the corpus from every
 * tool that honours parent ignore files, ripgrep included.
 */
export const CACHE: string = join(
  Deno.env.get("LLM_SEARCH_BENCH_CACHE") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"),
  "llm-search-bench",
);

/** Unpacked Linux 6.1 tree. */
export const LINUX: string = join(CACHE, "linux-6.1");

const TARBALL = "/usr/src/linux-source-6.1.tar.xz";
const DEBIAN_PACKAGES = ["ripgrep", "fd-find", "fzf", "universal-ctags", "linux-source-6.1"];

async function run(command: string, args: string[], cwd?: string): Promise<void> {
  const status = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "inherit",
    stderr: "inherit",
  })
    .spawn().status;
  if (!status.success) throw new Error(`${command} ${args.join(" ")} failed (${status.code})`);
}

function has(command: string): boolean {
  return ["/usr/bin", "/usr/local/bin", "/bin"].some((dir) => existsSync(join(dir, command)));
}

/** Installs the peers and unpacks the Linux tree if they are not there yet. */
export async function prepare(): Promise<void> {
  const missing = !has("rg") || !has("fdfind") || !has("fzf") || !has("ctags") ||
    !existsSync(TARBALL);
  if (missing) {
    await run("apt-get", ["update", "-q"]);
    await run("apt-get", ["install", "-y", "-q", ...DEBIAN_PACKAGES]);
  }
  if (!existsSync(join(LINUX, "Makefile"))) {
    Deno.mkdirSync(CACHE, { recursive: true });
    await run("tar", ["-xJf", TARBALL, "-C", CACHE]);
    Deno.renameSync(join(CACHE, "linux-source-6.1"), LINUX);
  }
}

if (import.meta.main) {
  await prepare();
  console.error(`corpora ready: ${LINUX}`);
}
