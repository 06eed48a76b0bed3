/** The upstream dataset's name, as `source` fields report it. */
export const SOURCE = 'The Economist Big Mac index (github.com/TheEconomist/big-mac-data, CC BY 4.0)';

/**
 * `source` as every answer reports it: the dataset's name and, when the service reads a copy rather
 * than the live file (`BURGER_SOURCE_LABEL`, which the offline demo sets), what that copy is, so
 * that its latest release is never taken for the live one.
 */
export function describeSource(label?: string): string {
  return label ? `${SOURCE}; ${label}` : SOURCE;
}
