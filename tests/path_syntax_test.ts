/**
 * `core/path_syntax.ts` against its oracle, node:path's POSIX functions (and node:url's
 * `fileURLToPath`), on thousands of generated paths: every segment shape that changes an answer
 * (empty, `.`, `..`, dotted names, doubled, leading and trailing separators).
 */
import assert from "node:assert/strict";
import { posix } from "node:path";
import { fileURLToPath } from "node:url";
import {
  basename,
  dirname,
  fromFileUrl,
  isAbsolute,
  join,
  normalize,
  relative,
  resolve,
  sep,
} from "../core/path_syntax.ts";
import { seededRandom } from "./helpers.ts";

const SEGMENTS = ["", ".", "..", "...", ".a", "a.", "a", "b", "a b", "ä", "%2F"];

function generatedPath(random: () => number): string {
  const count = Math.floor(random() * 6);
  const segments = Array.from(
    { length: count },
    () => SEGMENTS[Math.floor(random() * SEGMENTS.length)],
  );
  const lead = random() < 0.4 ? "/".repeat(1 + Math.floor(random() * 3)) : "";
  const trail = random() < 0.3 ? "/".repeat(1 + Math.floor(random() * 2)) : "";
  return lead + segments.join(random() < 0.8 ? "/" : "//") + trail;
}

function generatedPaths(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => generatedPath(random));
}

Deno.test("path syntax: normalize, dirname, basename and isAbsolute answer as node:path", () => {
  for (const path of generatedPaths(5, 4000)) {
    assert.equal(normalize(path), posix.normalize(path), `normalize(${JSON.stringify(path)})`);
    assert.equal(dirname(path), posix.dirname(path), `dirname(${JSON.stringify(path)})`);
    assert.equal(basename(path), posix.basename(path), `basename(${JSON.stringify(path)})`);
    assert.equal(isAbsolute(path), posix.isAbsolute(path), `isAbsolute(${JSON.stringify(path)})`);
  }
  assert.equal(sep, posix.sep);
});

Deno.test("path syntax: join, resolve and relative answer as node:path", () => {
  const paths = generatedPaths(11, 6000);
  for (let at = 0; at + 2 < paths.length; at += 3) {
    const [a, b, c] = paths.slice(at, at + 3);
    const shown = JSON.stringify([a, b, c]);
    assert.equal(join(a, b, c), posix.join(a, b, c), `join(${shown})`);
    assert.equal(join(a), posix.join(a), `join(${JSON.stringify(a)})`);
    assert.equal(resolve(a, b, c), posix.resolve(a, b, c), `resolve(${shown})`);
    assert.equal(relative(a, b), posix.relative(a, b), `relative(${shown})`);
  }
  assert.equal(join(), posix.join());
  assert.equal(resolve(), posix.resolve());
});

Deno.test("path syntax: fromFileUrl answers and refuses as node:url's fileURLToPath", () => {
  const urls = [
    ...generatedPaths(23, 500).map((path) =>
      new URL(`file://${path.startsWith("/") ? "" : "/"}${path}`)
    ),
    "file:///repo/a%20b/%C3%A4.ts",
    "file:///repo/a%2Fb",
    "file:///repo/a%2fb",
    "file://host/repo",
    "https://jsr.io/@llm/search/core/",
  ];
  for (const url of urls) {
    const shown = String(url);
    let expected: string | undefined;
    try {
      expected = fileURLToPath(url);
    } catch {
      expected = undefined;
    }
    if (expected === undefined) assert.throws(() => fromFileUrl(url), TypeError, shown);
    else assert.equal(fromFileUrl(url), expected, shown);
  }
});
