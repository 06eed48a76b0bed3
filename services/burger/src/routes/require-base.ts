import { AppError } from '@tollgate/envelope';
import { allowedBases, resolveBase } from '../domain/base-currency';
import type { BaseCurrency } from '../domain/base-currency';
import { PUBLISHED_BASES } from '../domain/big-mac-row';
import type { Dataset } from '../domain/dataset';

function unknownBase(dataset: Dataset, input: string): AppError {
  return new AppError(
    'BAD_REQUEST',
    `base must be one of ${PUBLISHED_BASES.join(', ')}, or another currency code of the ${dataset.latestRelease} release; '${input}' is neither`,
    { details: { parameter: 'base', allowed: allowedBases(dataset) } },
  );
}

/** The base the query names, or 400 `BAD_REQUEST` listing the allowed ones. */
export function requireBase(dataset: Dataset, input: string): BaseCurrency {
  const base = resolveBase(dataset, input);
  if (base) return base;
  throw unknownBase(dataset, input);
}

/** The same check without building the valuation, for routes that look at other parameters first. */
export function assertKnownBase(dataset: Dataset, input: string): void {
  const code = input.toLowerCase();
  if ((PUBLISHED_BASES as readonly string[]).includes(code) || dataset.latestByCurrency.has(code)) return;
  throw unknownBase(dataset, input);
}
