/**
 * A search its time budget cut resumes where it stopped (issue 33, item 5): `resume_at` names the
 * first file the answer lacks, and the pages of a search resumed there until it finishes are,
 * together, the one search without a budget — nothing missed, nothing repeated — on the calling
 * thread and on workers, for every listing mode, however the budget happens to fall.
 */
import assert from "node:assert/strict";
import { search, type SearchOptions } from "../tools/search/engine.ts";
import type { SearchData } from "../schema/search.ts";
import { SLOW_PATTERN, slowText } from "./slow_search.ts";

/** `files` files whose lines hold `PM_RESUME` among filler, some of them twice. */
async function matchingTree(files: number, lines: number): Promise<string> {
  const root = await Deno.makeTempDir();
  for (let i = 0; i < files; i++) {
    const text = Array.from(
      { length: lines },
      (
        _,
        line,
      ) => (line % 7 === i % 7 ? "PM_RESUME x PM_RESUME\n" : "PM_RESUME " + "y".repeat(60) + "\n"),
    ).join("");
    await Deno.writeTextFile(`${root}/f${String(i).padStart(3, "0")}.txt`, text);
  }
  return root;
}

/** The listed items of a search's data, whatever its mode (a match by its span: ids are drawn anew). */
function items(data: SearchData): unknown[] {
  if (data.mode === "files") return data.files ?? [];
  if (data.mode === "counts") return data.counts ?? [];
  return data.matches.map((match) => match.span);
}

/**
 * The pages of `options` resumed until the search finishes, each under a budget of `budgetMs`
 * (doubled after a page that finished no file, as an agent given no next call would narrow).
 */
async function pagesOf(options: SearchOptions, budgetMs: number) {
  const listed: unknown[] = [];
  let resumeAt: string | undefined;
  let pages = 0;
  let cuts = 0;
  for (let budget = budgetMs; pages < 400; pages++) {
    const page = await search({ ...options, timeoutMs: budget, resumeAt });
    for (const item of items(page.data)) listed.push(item);
    if (!page.partial) return { listed, pages: pages + 1, cuts };
    cuts++;
    const warning = page.diagnostics.find((d) => d.code === "LMS-QRY-003");
    assert.ok(warning, JSON.stringify(page.diagnostics));
    if (page.data.resume_at === undefined) {
      assert.match(warning.message, /search narrower paths/);
      // Nothing finished: this page listed nothing, and the same start gets a larger budget.
      assert.equal(items(page.data).length, 0);
      budget *= 2;
      continue;
    }
    assert.match(warning.message, /resume_at/);
    assert.ok(resumeAt === undefined || page.data.resume_at > resumeAt, "each page gets further");
    resumeAt = page.data.resume_at;
  }
  throw new Error(`no end after ${pages} pages`);
}

for (const threads of [1, 2]) {
  for (const mode of ["matches", "files", "counts"] as const) {
    Deno.test(`resumed pages of a cut search are the whole search, ${mode}, ${threads} thread(s)`, async () => {
      // More than 400 files: with two threads the search takes workers.
      const root = await matchingTree(threads === 1 ? 60 : 420, 100);
      try {
        const options: SearchOptions = {
          patterns: ["PM_RESUME"],
          cwd: root,
          threads,
          mode,
          limit: 0,
        };
        const whole = await search(options);
        assert.equal(whole.partial, false);
        let cutsInAll = 0;
        for (const budget of [1, 3, 8]) {
          const { listed, cuts } = await pagesOf(options, budget);
          assert.deepEqual(listed, items(whole.data), `budget ${budget} ms, ${cuts} cut(s)`);
          cutsInAll += cuts;
        }
        // A millisecond's budget cuts a search of hundreds of files on any machine.
        assert.ok(cutsInAll > 0, "some page was cut");
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    });
  }
}

Deno.test("a search that finished no file names no resume point; one past it resumes at the slow file", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${root}/a.txt`, "aaab\n");
    // 4 MB of a line SLOW_PATTERN takes about a microsecond a byte on.
    await Deno.writeTextFile(`${root}/b.txt`, slowText(4));
    const past = await search({ patterns: [SLOW_PATTERN], cwd: root, timeoutMs: 300, threads: 1 });
    assert.equal(past.partial, true);
    assert.deepEqual(past.data.matches.map((match) => match.span.file_path), ["a.txt"]);
    assert.equal(past.data.resume_at, "b.txt");
    const stuck = await search({
      patterns: [SLOW_PATTERN],
      cwd: root,
      timeoutMs: 300,
      threads: 1,
      resumeAt: "b.txt",
    });
    assert.equal(stuck.partial, true);
    assert.equal(stuck.data.count, 0);
    assert.equal(stuck.data.resume_at, undefined);
    const warning = stuck.diagnostics.find((d) => d.code === "LMS-QRY-003");
    assert.match(warning?.message ?? "", /while matching b\.txt.*search narrower paths/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("resume_at: a file gone since the cut resumes at the next; several paths resume at the file itself", async () => {
  const root = await Deno.makeTempDir();
  try {
    for (const name of ["a/1.txt", "a/3.txt", "b/0.txt", "b/2.txt"]) {
      await Deno.mkdir(`${root}/${name.split("/")[0]}`, { recursive: true });
      await Deno.writeTextFile(`${root}/${name}`, "hit\n");
    }
    const files = async (resumeAt: string, paths?: string[]) =>
      (await search({ patterns: ["hit"], cwd: root, mode: "files", resumeAt, paths })).data.files;
    assert.deepEqual(await files("a/2.txt"), ["a/3.txt", "b/0.txt", "b/2.txt"]);
    assert.deepEqual(await files("b/0.txt", ["b", "a"]), [
      "b/0.txt",
      "b/2.txt",
      "a/1.txt",
      "a/3.txt",
    ]);
    assert.deepEqual(await files("a/1.txt", ["b", "a"]), ["a/1.txt", "a/3.txt"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
