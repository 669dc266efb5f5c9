/**
 * fzf is the oracle of which paths a query matches: over generated trees and queries in fzf's
 * extended syntax (fuzzy, 'exact, ^prefix, suffix$, ^equal$, !negation, a | b, smart case),
 * `llm-discover` with no limit lists exactly the paths `fzf --filter` keeps from the same list.
 * Ignored, visibly, where fzf is not installed.
 */
import assert from "node:assert/strict";
import { discover } from "../tools/discover/main.ts";
import { hasCommand, makeTree } from "./helpers.ts";

/** Pieces of names: shared letters in both cases, so that fuzzy terms find many alignments. */
const PIECES = ["sched", "core", "s", "c", "Kc", "con", "fig", "usb", "ser", "a", "B", "d"];
const JOINS = ["", "_", "-", ".", ""];
const EXTENSIONS = [".c", ".h", ".ts", "", ".md"];
const TREES = 3;
const PATHS_PER_TREE = 200;
const QUERIES_PER_TREE = 80;

/** A seeded generator (the same cases on every run). */
class Random {
  #seed: number;
  constructor(seed: number) {
    this.#seed = seed;
  }
  int(below: number): number {
    this.#seed = (this.#seed * 1103515245 + 12345) % 2147483648;
    return this.#seed % below;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

function name(random: Random): string {
  const parts = Array.from({ length: 1 + random.int(3) }, () => random.pick(PIECES));
  return parts.map((part, at) => (at === 0 ? "" : random.pick(JOINS)) + part).join("");
}

function randomPath(random: Random): string {
  const folders = Array.from({ length: random.int(3) }, () => name(random));
  return [...folders, name(random) + random.pick(EXTENSIONS)].join("/");
}

/** A text of 1–4 characters cut from a generated path, lower-cased most of the time. */
function cut(random: Random, paths: string[]): string {
  const path = random.pick(paths);
  const start = random.int(path.length);
  const text = path.slice(start, start + 1 + random.int(4)).replaceAll(/[\s|!'^$]/g, "") || "c";
  return random.int(4) === 0 ? text : text.toLowerCase();
}

function term(random: Random, paths: string[]): string {
  const text = cut(random, paths);
  switch (random.int(7)) {
    case 0:
      return `'${text}`;
    case 1:
      return `^${text}`;
    case 2:
      return `${text}$`;
    case 3:
      return `!${text}`;
    case 4:
      return `${term(random, paths)} | ${text}`;
    default:
      return text;
  }
}

function query(random: Random, paths: string[]): string {
  return Array.from({ length: 1 + random.int(3) }, () => term(random, paths)).join(" ");
}

async function fzfFilter(query: string, paths: string[]): Promise<string[]> {
  const child = new Deno.Command("fzf", {
    args: ["--filter", query],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(paths.join("\n") + "\n"));
  await writer.close();
  const output = await child.output();
  return new TextDecoder().decode(output.stdout).split("\n").filter(Boolean);
}

Deno.test({
  name: "llm-discover keeps exactly the paths fzf --filter keeps (generated trees and queries)" +
    (hasCommand("fzf") ? "" : " (needs fzf)"),
  ignore: !hasCommand("fzf"),
  async fn() {
    let compared = 0;
    let nonEmpty = 0;
    for (let tree = 0; tree < TREES; tree++) {
      const random = new Random(4100 + tree);
      const paths = [...new Set(Array.from({ length: PATHS_PER_TREE }, () => randomPath(random)))]
        // A name that is also a folder of another path cannot be both in one tree.
        .filter((path, _, all) => !all.some((other) => other.startsWith(path + "/")));
      const root = await makeTree(Object.fromEntries(paths.map((path) => [path, ""])));
      try {
        for (let n = 0; n < QUERIES_PER_TREE; n++) {
          const text = query(random, paths);
          const ours = await discover({ query: text, cwd: root, limit: 0, useIndex: false });
          const found = ours.data.results.map((result) => result.path).sort();
          const theirs = (await fzfFilter(text, paths)).sort();
          assert.deepEqual(found, theirs, `query ${JSON.stringify(text)}, tree ${tree}`);
          compared++;
          if (theirs.length > 0) nonEmpty++;
        }
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    }
    assert.ok(nonEmpty > compared / 2, `only ${nonEmpty} of ${compared} queries matched anything`);
  },
});
