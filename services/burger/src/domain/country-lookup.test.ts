import { fixtureDataset } from '../../test/support/fixtures';
import { createCountryLookup, levenshtein, normalizeName } from './country-lookup';

const lookup = createCountryLookup(fixtureDataset());

describe('normalizeName', () => {
  it.each([
    ['Perú', 'peru'],
    ['  United   Kingdom ', 'united kingdom'],
    ["Côte d'Ivoire", 'cote d ivoire'],
    ['TÜRKİYE', 'turkiye'],
    ['Euro-area', 'euro area'],
  ])('when the text is %p, then it normalizes to %p', (text, normalized) => {
    expect(normalizeName(text)).toBe(normalized);
  });
});

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['japan', 'japan', 0],
    ['japn', 'japan', 1],
    ['swizerland', 'switzerland', 1],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
  ])('when comparing %p and %p, then the distance is %p', (a, b, distance) => {
    expect(levenshtein(a, b)).toBe(distance);
  });
});

describe('country lookup', () => {
  it.each([
    ['Switzerland', 'CHE'],
    ['switzerland', 'CHE'],
    ['CHE', 'CHE'],
    ['che', 'CHE'],
    ['CHF', 'CHE'],
    ['Perú', 'PER'],
    ['PERU', 'PER'],
    ['pen', 'PER'],
    ['UK', 'GBR'],
    ['United Kingdom', 'GBR'],
    ['Britain', 'GBR'],
    ['gbp', 'GBR'],
    ['USA', 'USA'],
    ['United States', 'USA'],
    ['us', 'USA'],
    ['EU', 'EUZ'],
    ['Eurozone', 'EUZ'],
    ['Euro area', 'EUZ'],
    ['EUR', 'EUZ'],
    ['UAE', 'ARE'],
    ['United Arab Emirates', 'ARE'],
    ['VEF', 'VEN'],
    ['VES', 'VEN'],
    ['Czechia', 'CZE'],
    ['Sri Lanka', 'LKA'],
  ])('when the query is %p, then it finds %s', (query, iso3) => {
    expect(lookup(query)).toEqual({ iso3 });
  });

  it.each([
    ['Swizerland', ['Switzerland']],
    ['Untied States', ['United States']],
    ['united', ['Britain', 'United Arab Emirates', 'United States']],
    ['Atlantis', []],
    ['x', []],
  ])('when the query %p matches nothing, then up to three suggestions come back: %j', (query, suggestions) => {
    expect(lookup(query)).toEqual({ suggestions });
  });

  it('when aliases name a country the dataset lacks, then they match nothing', () => {
    expect(lookup('Russian Federation')).toEqual({ suggestions: [] });
  });
});
