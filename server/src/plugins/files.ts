/**
 * Data files of server plugins (seeds' `files`, templates' `data.file`): read by the host from
 * their file URLs, so that a plugin needs no file-system access of its own.
 */
import fsp from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ServerCsv, ServerSeedFiles } from '@decisio/sdk-plugin/server';

/**
 * Parses plain CSV: comma-separated, the first line the header, no quoted cells; a trailing
 * line break and `\r\n` line ends are accepted.
 * @throws Error naming the line when a row has another number of cells than the header.
 */
export function parsePlainCsv(text: string, source = 'CSV'): ServerCsv {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const columns = (lines[0] ?? '').split(',');
  if (!lines[0] || columns.some((c) => !c)) throw new Error(`${source}: the header line names no columns or an empty one`);
  const rows = lines.slice(1).map((line, i) => {
    const cells = line.split(',');
    if (cells.length !== columns.length) throw new Error(`${source}: line ${i + 2} has ${cells.length} cells, the header ${columns.length}`);
    return cells;
  });
  return { columns, rows };
}

/** Reads a plugin's data file. @throws Error for a URL that is not a `file:` URL. */
export async function readPluginFile(url: URL): Promise<Buffer> {
  if (url.protocol !== 'file:') throw new Error(`Plugin data files are file URLs, not ${url.protocol} (${url.href})`);
  return fsp.readFile(fileURLToPath(url));
}

/** The files of one seed, by the names it declared. */
export function seedFiles(pluginId: string, seedName: string, files: Record<string, URL> = {}): ServerSeedFiles {
  const url = (name: string): URL => {
    const u = files[name];
    if (!u) throw new Error(`Plugin "${pluginId}", seed "${seedName}": no file named "${name}" (declare it in files)`);
    return u;
  };
  const text = async (name: string) => (await readPluginFile(url(name))).toString('utf8');
  return {
    bytes: async (name) => new Uint8Array(await readPluginFile(url(name))),
    text,
    csv: async (name) => parsePlainCsv(await text(name), `${pluginId}/${name}`),
  };
}
