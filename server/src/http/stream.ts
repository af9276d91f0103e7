import { once } from 'node:events';
import fs from 'node:fs';

/**
 * Resolves with `stream` once a file stream has opened its file (other streams at once); rejects
 * when it cannot. A body stream that fails after it was handed to Koa ends the connection
 * without an answer (Koa pipes it into the response); one that fails here is answered with
 * the envelope like any other failure of the route.
 */
export async function opened<S extends NodeJS.ReadableStream>(stream: S): Promise<S> {
  if (stream instanceof fs.ReadStream && stream.pending) await once(stream, 'ready');
  return stream;
}
