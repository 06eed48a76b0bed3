/** The upstream dataset's name, as `source` fields report it. */
export const SOURCE = 'The Economist Big Mac index (github.com/TheEconomist/big-mac-data, CC BY 4.0)';
