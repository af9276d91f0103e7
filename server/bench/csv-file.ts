import fs from 'node:fs';

/**
 * Writes a generated csv of about `bytes` bytes (6 columns: ints, floats, text) to `file`;
 * resolves with its row count. Deterministic (fixed seed), shared by the ingest and upload benches.
 */
export async function generateCsv(file: string, bytes: number): Promise<number> {
  const out = fs.createWriteStream(file);
  out.write('id,price,qty,city,score,note\n');
  const cities = ['Beijing', 'Shanghai', 'Shenzhen', 'Hangzhou', 'Chengdu', 'Wuhan'];
  let written = 0;
  let rows = 0;
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  while (written < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) {
      rows += 1;
      lines.push(`${rows},${(rnd() * 1000).toFixed(2)},${Math.floor(rnd() * 100)},${cities[rows % 6]},${rnd().toFixed(6)},item ${rows % 997}`);
    }
    const chunk = lines.join('\n') + '\n';
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise<void>((r) => out.end(r));
  return rows;
}
