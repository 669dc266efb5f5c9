/**
 * ripgrep is the oracle of the matcher: generated patterns (the syntax ripgrep and JavaScript
 * share, with -i -S -w -F -U) over generated files (\r, \r\n, U+2028, U+2029, invalid UTF-8,
 * non-ASCII letters; never NUL) give the same match sets (file, byte start, byte end) as
 * `rg --json --encoding none`. Needs `rg` on PATH; the test is reported ignored without it.
 */
import assert from "node:assert/strict";
import { search } from "../tools/search/engine.ts";
import { ToolError } from "../schema/diagnostic.ts";
import {
  Random,
  randomFlags,
  randomPattern,
  randomTree,
  type SearchFlags,
} from "./search_regex_gen.ts";
import { hasCommand, runEntry } from "./helpers.ts";

const hasRg = hasCommand("rg");

const CASES = Number(Deno.env.get("RG_CASES") ?? 600);

type Flags = SearchFlags;

interface RgMessage {
  type: string;
  data: {
    path: { text: string };
    absolute_offset: number;
    submatches: { start: number; end: number }[];
  };
}

function rgArgs(flags: Flags, patterns: string[]): string[] {
  const args = ["--json", "--no-config", "--encoding", "none", "--no-ignore", "--hidden"];
  if (flags.ignoreCase) args.push("-i");
  else if (flags.smartCase) args.push("-S");
  if (flags.wordRegexp) args.push("-w");
  if (flags.fixedStrings) args.push("-F");
  if (flags.multiline) args.push("-U");
  for (const pattern of patterns) args.push("-e", pattern);
  return args;
}

/** rg's match set (sorted `file start end` keys), or `"error"` when rg refused the pattern. */
function rgMatches(root: string, flags: Flags, patterns: string[]): string[] | "error" {
  const output = new Deno.Command("rg", {
    args: [...rgArgs(flags, patterns), "."],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  if (output.code === 2) return "error";
  const keys: string[] = [];
  for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
    if (!line) continue;
    const message = JSON.parse(line) as RgMessage;
    if (message.type !== "match") continue;
    const file = message.data.path.text.replace(/^\.\//, "");
    for (const sub of message.data.submatches) {
      const start = message.data.absolute_offset + sub.start;
      keys.push(`${file} ${start} ${message.data.absolute_offset + sub.end}`);
    }
  }
  return keys.sort();
}

async function ourMatches(root: string, flags: Flags, patterns: string[]) {
  try {
    const result = await search({ ...flags, patterns, cwd: root, limit: 0, threads: 1 });
    return result.data.matches.map((match) =>
      `${match.span.file_path} ${match.span.byte_start} ${match.span.byte_end}`
    ).sort();
  } catch (error) {
    if (error instanceof ToolError) return "error";
    throw error;
  }
}

function nonEmpty(keys: string[]): string[] {
  return keys.filter((key) => {
    const [, start, end] = key.split(" ");
    return start !== end;
  });
}

/** Whether each non-empty match of `theirs` overlaps one of `ours` in the same file. */
function covered(ours: string[], theirs: string[]): boolean {
  const spans = ours.map((key) => key.split(" ")).map(([file, start, end]) => ({
    file,
    start: Number(start),
    end: Number(end),
  }));
  return nonEmpty(theirs).every((key) => {
    const [file, start, end] = key.split(" ");
    return spans.some((span) =>
      span.file === file && span.start < Number(end) && span.end > Number(start)
    );
  });
}

/**
 * Where ripgrep 13 is known to differ from upstream ripgrep, which we follow:
 * - `-w`: ripgrep 13 wraps the pattern in `(?:^|\W)(…)(?:\W|$)`, which consumes the separator
 *   (the next match cannot share it) and shifts matches that begin with a non-word character;
 *   ripgrep 14 uses `\b{start-half}…\b{end-half}`, our `(?<!\w)…(?!\w)`. Checked: every
 *   non-empty ripgrep 13 match overlaps one of ours.
 * - `\b`/`\B`: ripgrep 13's regex (before regex 1.9) loses the character before the start of a
 *   search resumed after a match, so in ` b(c)abc` `\b[^b]` finds `(` and `c` but not `)` and
 *   `a`. Checked the same way.
 * - empty matches: ripgrep 13's printer reports them inconsistently next to line ends; the
 *   non-empty matches must agree exactly.
 */
function upstreamDifference(
  flags: Flags,
  patterns: string[],
  ours: string[],
  theirs: string[],
): boolean {
  if (patterns.some((pattern) => /\\[bB]/.test(pattern))) return true;
  if (flags.wordRegexp) return covered(ours, theirs);
  return JSON.stringify(nonEmpty(ours)) === JSON.stringify(nonEmpty(theirs));
}

Deno.test({
  name: "ripgrep differential: generated patterns and files give rg's match sets (needs rg)",
  ignore: !hasRg,
  fn: async () => {
    const random = new Random(13);
    const roots = [await randomTree(random, 6, true), await randomTree(random, 6, false)];
    const failures: string[] = [];
    let agreed = 0;
    let upstream = 0;
    try {
      for (let i = 0; i < CASES; i++) {
        const nonAscii = random.chance(0.5);
        const root = roots[nonAscii ? 0 : 1];
        const flags = randomFlags(random, 0.25);
        const dialect = { javascriptOnly: false, nonAscii, newline: !!flags.multiline };
        const patterns = Array.from(
          { length: random.chance(0.2) ? 2 : 1 },
          () => randomPattern(random, dialect),
        );
        const theirs = rgMatches(root, flags, patterns);
        const ours = await ourMatches(root, flags, patterns);
        if (JSON.stringify(ours) === JSON.stringify(theirs)) agreed++;
        else if (
          theirs !== "error" && ours !== "error" &&
          upstreamDifference(flags, patterns, ours, theirs)
        ) {
          upstream++;
        } else {
          failures.push(
            `case ${i}: ${JSON.stringify({ patterns, flags, nonAscii })}\n  rg:   ${
              JSON.stringify(theirs).slice(0, 300)
            }\n  ours: ${JSON.stringify(ours).slice(0, 300)}`,
          );
        }
      }
    } finally {
      for (const root of roots) await Deno.remove(root, { recursive: true });
    }
    assert.deepEqual(failures.slice(0, 8), [], `${failures.length} of ${CASES} differ`);
    assert.ok(
      agreed > CASES * 0.7,
      `only ${agreed} agreed exactly (${upstream} upstream-ripgrep cases)`,
    );
  },
});

Deno.test({
  name: "a pattern beginning with - given through -e/--regexp matches as rg's (needs rg)",
  ignore: !hasRg,
  fn: async () => {
    const root = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(`${root}/a.txt`, "x -foo y\n--bar\n-\n");
      for (const args of [["-e", "-foo"], ["--regexp", "--bar"], ["--regexp=-"], ["-e", "-\\w+"]]) {
        const rg = new Deno.Command("rg", {
          args: ["--json", "--no-config", "--encoding", "none", ...args, "a.txt"],
          cwd: root,
          stdout: "piped",
        }).outputSync();
        const theirs = new TextDecoder().decode(rg.stdout).split("\n").filter(Boolean)
          .map((line) => JSON.parse(line) as RgMessage).filter((m) => m.type === "match")
          .flatMap((m) => m.data.submatches.map((s) => m.data.absolute_offset + s.start));
        const result = await runEntry("tools/search/main.ts", [...args, "a.txt"], { cwd: root });
        assert.equal(result.code, 0, result.stderr);
        const envelope = JSON.parse(result.stdout) as {
          data: { matches: { span: { byte_start: number } }[] };
        };
        assert.deepEqual(
          envelope.data.matches.map((m) => m.span.byte_start),
          theirs,
          args.join(" "),
        );
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
