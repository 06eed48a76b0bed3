import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBigMacCsv } from '../../src/data/parse-big-mac-csv';
import { buildDataset } from '../../src/domain/dataset';
import type { Dataset } from '../../src/domain/dataset';

/** The text of a fixture in test/fixtures. */
export function fixtureText(name: string): string {
  return readFileSync(join(__dirname, '..', 'fixtures', name), 'utf8');
}

/** The dataset of a fixture CSV. */
export function fixtureDataset(name = 'small-index.csv'): Dataset {
  return buildDataset(parseBigMacCsv(fixtureText(name)));
}
