/**
 * What the Rust gates need to know besides running rustc and cargo: the toolchain the project
 * asks for (honoured by name only: a `path` toolchain is any program), whether the sources may
 * read files their diagnostics do not locate (`include_str!`), and which packages of a crate's
 * graph would run code of the project in `cargo check` (build scripts, proc macros).
 *
 * @module
 */
import { dirname, join } from "../path_syntax.ts";
import { isInside } from "../paths.ts";
import { parse as parseToml } from "smol-toml";
import type { CargoPackage } from "./parsers.ts";

/** A toolchain named as rustup names one (`stable`, `nightly-2024-05-01`, `1.79.0`): no path. */
const TOOLCHAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The channel a toolchain file names, or `undefined` when it names none by name. */
function channelOf(text: string): string | undefined {
  let channel: unknown;
  try {
    const toolchain = (parseToml(text) as { toolchain?: Record<string, unknown> }).toolchain;
    // A `path` toolchain is a folder of programs the project chose: never honoured.
    if (toolchain?.path !== undefined) return undefined;
    channel = toolchain?.channel;
  } catch {
    // The legacy `rust-toolchain` file may hold the bare channel name instead of TOML.
    channel = text.trim();
  }
  return typeof channel === "string" && TOOLCHAIN_NAME.test(channel) && !channel.includes("..")
    ? channel
    : undefined;
}

/** The text of `path`, or `undefined` when it is not a file the run may read. */
function readIfFile(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The toolchain the nearest `rust-toolchain.toml` (or legacy `rust-toolchain`) from `dir` up to
 * `root` names, when it names one by channel: the gates run rustup's proxies outside the
 * project, where they would not see the file, and pass this as `RUSTUP_TOOLCHAIN` instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { projectToolchain } from "./rust.ts";
 * assert.equal(projectToolchain("/", "/"), undefined); // no toolchain file there
 * ```
 */
export function projectToolchain(root: string, dir: string): string | undefined {
  for (let folder = dir; isInside(root, folder); folder = dirname(folder)) {
    for (const name of ["rust-toolchain", "rust-toolchain.toml"]) {
      const text = readIfFile(join(folder, name));
      if (text !== undefined) return channelOf(text);
    }
    if (folder === root) break;
  }
  return undefined;
}

/**
 * Whether Rust source text may make rustc read a file that its diagnostics do not locate: the
 * `include!`, `include_str!` and `include_bytes!` macros (their names cannot be spelled other
 * than as written, even through a `macro_rules!`), and a module's `#[path]`, which may name a
 * file that is not Rust. A crate without these reads only its module files, and what they say
 * is located in them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mayIncludeFiles } from "./rust.ts";
 * assert.equal(mayIncludeFiles('const K: &str = include_str!("/etc/hostname");'), true);
 * assert.equal(mayIncludeFiles("mod util;\nfn main() {}\n"), false);
 * ```
 */
export function mayIncludeFiles(text: string): boolean {
  return /include|#\s*!?\s*\[\s*path\b|cfg_attr\s*\([^\]]*\bpath\s*=/.test(text);
}

/** Most files and bytes of a folder's Rust sources read to tell whether they include files. */
const SCAN_MAX_FILES = 2_000;
const SCAN_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Whether any `.rs` file under `dir` may include files ({@linkcode mayIncludeFiles}); a link,
 * a folder the run may not read, or more than the scan reads counts as may.
 */
export function folderMayIncludeFiles(dir: string): boolean {
  let files = 0;
  let bytes = 0;
  const scan = (folder: string): boolean => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder)];
    } catch {
      return true;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isSymlink) return true;
      if (entry.isDirectory) {
        if (scan(path)) return true;
      } else if (entry.isFile && entry.name.endsWith(".rs")) {
        const text = readIfFile(path);
        if (text === undefined || ++files > SCAN_MAX_FILES) return true;
        bytes += text.length;
        if (bytes > SCAN_MAX_BYTES || mayIncludeFiles(text)) return true;
      }
    }
    return false;
  };
  return scan(dir);
}

/**
 * What of a crate's graph `cargo check` would run: each package's build script (built and run
 * before its crate compiles) and proc-macro crate (built and loaded into rustc), in words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { projectCode } from "./rust.ts";
 * assert.deepEqual(
 *   projectCode([{ name: "app", source: null, dir: "/w/app", kinds: ["bin", "custom-build"] }]),
 *   ["the build script of app"],
 * );
 * ```
 */
export function projectCode(packages: readonly CargoPackage[]): string[] {
  return packages.flatMap((found) => [
    ...(found.kinds.includes("custom-build") ? [`the build script of ${found.name}`] : []),
    ...(found.kinds.includes("proc-macro") ? [`the proc macro ${found.name}`] : []),
  ]);
}
