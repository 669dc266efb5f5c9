/**
 * Worker of the indexing command that writes the search's repository index
 * (`.llm/trigram.idx`) while the calling thread makes the symbol index's lookup indexes: both
 * are single-threaded and come after the parse, so on two cores they take the time of the
 * longer instead of the sum.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { writeRepositoryIndex } from "./refresh.ts";
import type { RepositoryReply, RepositoryTask } from "./repository_build.ts";

self.onmessage = (event: MessageEvent<RepositoryTask>) => {
  const { root, walk } = event.data;
  let reply: RepositoryReply;
  try {
    reply = { outcome: writeRepositoryIndex(root, walk) };
  } catch (error) {
    reply = {
      error: {
        notCapable: error instanceof Deno.errors.NotCapable,
        message: error instanceof Error ? error.message : String(error),
      },
    };
  }
  self.postMessage(reply);
};
