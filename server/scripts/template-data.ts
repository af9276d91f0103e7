/**
 * Writes the data files of the electric and coupon template plugins again from the learning
 * engine's reference tasks (`server/src/modules/templates/reference-data.ts`): the same seed
 * gives the same bytes. Run: `npx tsx server/scripts/template-data.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_DATA_DEFS, templateCsv } from '../src/modules/templates/reference-data';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
for (const def of REFERENCE_DATA_DEFS) {
  const file = path.join(root, 'plugins', `template-${def.id}`, 'data', `${def.id}.csv`);
  fs.writeFileSync(file, templateCsv(def));
  console.log(`wrote ${path.relative(root, file)}`);
}
