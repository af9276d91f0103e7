import fs from 'node:fs';

/** Version of the server package (`server/package.json`). */
export const SERVER_VERSION: string = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
