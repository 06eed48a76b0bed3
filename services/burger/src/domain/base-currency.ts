import { PUBLISHED_BASES } from './big-mac-row';
import type { BigMacRow, PublishedBase } from './big-mac-row';
import type { Dataset } from './dataset';
import { computedValuation, publishedValuation } from './valuation';
import type { Valuation } from './valuation';

/** A resolved base currency and how to value any row against it. */
export interface BaseCurrency {
  /** Upper-case currency code, as responses show it. */
  code: string;
  /** The valuation of a row against this base in the row's own release; undefined if the base has no row there. */
  valuate(row: BigMacRow): Valuation | undefined;
}

function isPublished(code: string): code is PublishedBase {
  return (PUBLISHED_BASES as readonly string[]).includes(code);
}

/**
 * Resolves a base code (any case): one of the published bases, or any other currency of the latest
 * release, which is valued against that country's row of each release. Undefined when unknown.
 */
export function resolveBase(dataset: Dataset, input: string): BaseCurrency | undefined {
  const code = input.toLowerCase();
  if (isPublished(code)) return { code: code.toUpperCase(), valuate: (row) => publishedValuation(row, code) };
  const latestBaseRow = dataset.latestByCurrency.get(code);
  if (!latestBaseRow) return undefined;
  const baseRows = new Map((dataset.historyByIso3.get(latestBaseRow.iso3) ?? []).map((r) => [r.date, r]));
  return {
    code: code.toUpperCase(),
    valuate: (row) => {
      const baseRow = baseRows.get(row.date);
      return baseRow ? computedValuation(row, baseRow) : undefined;
    },
  };
}

/** Every base the loaded copy accepts, lower case: the published five first, then the latest release's others. */
export function allowedBases(dataset: Dataset): string[] {
  const others = [...dataset.latestByCurrency.keys()].filter((c) => !isPublished(c)).sort();
  return [...PUBLISHED_BASES, ...others];
}
