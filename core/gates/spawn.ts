/**
 * Starting a gate's program so that it runs the toolchain and nothing else (contract §11).
 *
 * - **Working folder**: outside the project (the root of its volume) unless the checker needs
 *   the project's own folder. The programs on PATH are often shims of a version manager that
 *   reads its choice from the working folder up: rustup's `rust-toolchain.toml` may name a
 *   toolchain by `path` (any program), asdf's `.tool-versions` a `path:` version, and cargo
 *   reads `.cargo/config.toml` (which names wrappers, `rustc`, flags, environment) from there.
 * - **Environment**: inherited, less the variables that make a program load other code, which
 *   are emptied. An explicit minimal environment is not possible: the runs that start compilers
 *   are not granted `--allow-env` (`--allow-run=gcc` is the documented set), so the variables a
 *   toolchain needs (HOME for rustup, go and Deno's cache; PATH for the shims' own lookups)
 *   cannot be read to be passed on, only overridden.
 *
 * @module
 */

/** What a program printed. */
export interface ProgramOutput {
  /** Exit code. */
  code: number;
  /** Standard output, decoded. */
  stdout: string;
  /** Standard error, decoded. */
  stderr: string;
}

/**
 * Emptied for every gate's program: bash sources `BASH_ENV` before running a script, and the
 * shims of pyenv, rbenv and asdf (a `python3` on PATH) are bash scripts.
 */
export const SHIM_ENV: Readonly<Record<string, string>> = { BASH_ENV: "" };

/**
 * The folder programs run in when the project's folder does not matter to them: the root of the
 * volume `path` is on (`/`, or `C:\` on Windows), which no project owns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { neutralFolder } from "./spawn.ts";
 * assert.equal(neutralFolder("/home/me/project"), "/");
 * assert.equal(neutralFolder("C:\\work\\project"), "C:\\");
 * ```
 */
export function neutralFolder(path: string): string {
  return /^[A-Za-z]:[\\/]/.exec(path)?.[0] ?? "/";
}

/** How to start a program. */
export interface ProgramRun {
  /** Its arguments. */
  args: string[];
  /** Its working folder. */
  cwd: string;
  /** Variables set (or emptied) over the inherited environment. */
  env: Record<string, string>;
  /** Bytes for its standard input; absent, it reads none. */
  stdin?: Uint8Array;
  /** Kills it. */
  signal?: AbortSignal;
}

// The programs' output, not a file's text: no position is derived from it by byte.
const decoder = new TextDecoder();

/**
 * Starts `program`, feeds its standard input when asked, and collects its output; a program that
 * cannot start rejects (`NotFound` when it is not there).
 */
export async function runProgram(program: string, run: ProgramRun): Promise<ProgramOutput> {
  const child = new Deno.Command(program, {
    args: run.args,
    cwd: run.cwd,
    env: { ...SHIM_ENV, ...run.env },
    stdin: run.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    ...(run.signal ? { signal: run.signal } : {}),
  }).spawn();
  if (run.stdin) {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(run.stdin);
      await writer.close();
    } catch (error) {
      // A compiler that stops reading early (it found enough) closes the pipe: not an error.
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    }
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}
