/**
 * Putting a journaled file back the way it was, from the journal's backup.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { sha256 } from "../../schema/checksum.ts";
import type { JournalFile } from "../../schema/journal.ts";
import { removeFileIfPresent, syncDirectory, writeNewFile } from "./fs.ts";

/**
 * Restores the prior bytes of `file` from the backup in journal directory `dir`, atomically
 * (a temporary file renamed over it) and with its prior mode. A file the operation created is
 * removed. Throws when the backup does not have the checksum the manifest recorded.
 *
 * @example
 * ```ts
 * import { restoreFile } from "./restore.ts";
 * // await restoreFile(journal.dir, journal.manifest.files[0]);
 * ```
 */
export async function restoreFile(dir: string, file: JournalFile): Promise<void> {
  if (!file.backup) {
    await Deno.remove(file.path).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    return;
  }
  const bytes = await Deno.readFile(join(dir, file.backup));
  if (sha256(bytes) !== file.checksum_before) {
    throw new Error(`the journal's backup of ${file.file_path} is damaged; it was not restored`);
  }
  const temp = `${file.temp}.restore`;
  await removeFileIfPresent(temp);
  await writeNewFile(temp, bytes, file.mode);
  await Deno.rename(temp, file.path);
  await syncDirectory(dirname(file.path));
}
