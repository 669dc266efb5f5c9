/**
 * Which compiler a gate starts, which version it is and where its own files are (gcc's system
 * include folders), each found once per process and kept while the files it rests on are
 * unchanged: the PATH folders searched (a program added to an earlier folder changes that
 * folder's mtime) and the program itself (an upgrade, or a link such as `/usr/bin/javac`
 * pointed at another JDK, changes what `stat` sees through the link).
 * Probing each call cost a gate milliseconds (a `stat` per PATH folder, each miss a thrown
 * error) and, for the version, a whole process (`python3 --version` through a pyenv shim
 * ≈ 300 ms, `javac -version` a JVM start) beside the compiler's own.
 *
 * @module
 */
import { basename, isAbsolute, join } from "../path_syntax.ts";
import { racyStamp } from "../racy_stamp.ts";

/**
 * The folder Deno puts first on its PATH when `node` is not on it, holding a `node` that runs
 * Deno itself: never a compiler of the gates (`node --check` would be `deno`'s).
 */
const DENO_NODE_SHIM = "node_compat_bin";

/** What a cached answer rests on: paths and the identity `stat` gave each of them. */
type Identities = [path: string, identity: string][];

/** A PATH resolution kept with the identities of the folders it searched. */
interface Resolution {
  found: string | null;
  identities: Identities;
}

/** An answer of a program about itself (asked or being asked), kept with its identity. */
interface KnownFact {
  answer: Promise<unknown>;
  identity: string;
}

const resolutions = new Map<string, Resolution>();
/** Answers by the kind of question and the program asked (`version\0/usr/bin/gcc`). */
const facts = new Map<string, KnownFact>();

/**
 * `dev:ino:mtime:ctime:size` of `path` (links followed; `ctime` moves on every write, even one
 * that restores the mtime), `absent` when it does not exist, or `undefined` when the run may not
 * look or the entry was modified too recently to be trusted.
 */
function identity(path: string): string | undefined {
  if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return undefined;
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return "absent";
    }
    throw error;
  }
  const [mtime, ctime] = [info.mtime?.getTime(), info.ctime?.getTime()];
  if (mtime === undefined || ctime === undefined) return undefined;
  // An entry changed this recently is not trusted to stay as seen: a change in the same tick
  // would go unnoticed (Deno gives `ctime` in whole seconds), so it is looked at again next time.
  if (racyStamp(Math.max(mtime, ctime), Date.now())) return undefined;
  return `${info.dev}:${info.ino}:${mtime}:${ctime}:${info.size}`;
}

/** Whether every identity still holds. */
function unchanged(identities: Identities): boolean {
  return identities.every(([path, known]) => identity(path) === known);
}

/**
 * Whether `path` is a file the run may see (one it may not read counts as none); errors other
 * than a missing entry are thrown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFile } from "./toolchain.ts";
 * assert.equal(isFile("/"), false);
 * ```
 */
export function isFile(path: string): boolean {
  if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return false;
  try {
    return Deno.statSync(path).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw error;
  }
}

/**
 * The absolute path of `program` on PATH (Deno's `node` shim left out), `null` when it is not
 * there, or `undefined` when the run may not read PATH or stat its folders (the child would
 * still resolve the name). Kept per PATH while the folders searched are unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookUp } from "./toolchain.ts";
 * assert.equal(lookUp("/bin/sh"), "/bin/sh"); // an absolute path is its own answer
 * ```
 */
export function lookUp(program: string): string | null | undefined {
  if (isAbsolute(program)) return program;
  if (Deno.permissions.querySync({ name: "env", variable: "PATH" }).state !== "granted") {
    return undefined;
  }
  const path = Deno.env.get("PATH") ?? "";
  const key = `${program}\0${path}`;
  const known = resolutions.get(key);
  if (known && unchanged(known.identities)) return known.found;
  const identities: Identities = [];
  let trusted = true;
  let found: string | null = null;
  for (const folder of path.split(":")) {
    if (folder === "" || basename(folder) === DENO_NODE_SHIM) continue;
    const candidate = join(folder, program);
    if (Deno.permissions.querySync({ name: "read", path: candidate }).state !== "granted") {
      return undefined;
    }
    const seen = identity(folder);
    if (seen === undefined) trusted = false;
    else identities.push([folder, seen]);
    if (seen !== "absent" && isFile(candidate)) {
      found = candidate;
      break;
    }
  }
  if (trusted) resolutions.set(key, { found, identities });
  else resolutions.delete(key);
  return found;
}

/**
 * The version line of the program at `path` (an absolute path, or a bare name when the run may
 * not look it up), asked with `probe` only when no answer is kept for the same program: the
 * same path whose `stat` (links followed) is unchanged. A bare name is asked once per process;
 * a path the run may not `stat`, or that changed a moment ago, is asked each time.
 *
 * @example Ask bash once
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolVersion } from "./toolchain.ts";
 * let asked = 0;
 * const probe = () => Promise.resolve(`GNU bash, version ${++asked}`);
 * assert.equal(await toolVersion("/bin/bash", probe), "GNU bash, version 1");
 * assert.equal(await toolVersion("/bin/bash", probe), "GNU bash, version 1"); // not asked again
 * ```
 */
export function toolVersion(
  path: string,
  probe: () => Promise<string | undefined>,
): Promise<string | undefined> {
  return toolFact("version", path, probe);
}

/**
 * What the program at `path` answers to the question `kind` (its version, its system include
 * folders), asked with `probe` only when no answer is kept for the same program, as
 * {@linkcode toolVersion} keeps its version.
 *
 * @example Ask gcc for its include folders once
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolFact } from "./toolchain.ts";
 * let asked = 0;
 * const probe = () => {
 *   asked++;
 *   return Promise.resolve(["/usr/include"]);
 * };
 * assert.deepEqual(await toolFact("include-dirs", "/usr/bin/gcc", probe), ["/usr/include"]);
 * await toolFact("include-dirs", "/usr/bin/gcc", probe);
 * assert.equal(asked, 1); // kept while /usr/bin/gcc is unchanged
 * ```
 */
export function toolFact<T>(kind: string, path: string, probe: () => Promise<T>): Promise<T> {
  const seen = isAbsolute(path) ? identity(path) : "unknown";
  if (seen === undefined) return probe();
  const key = `${kind}\0${path}`;
  const known = facts.get(key);
  if (known && known.identity === seen) return known.answer as Promise<T>;
  const answer = probe();
  facts.set(key, { answer, identity: seen });
  return answer;
}
