import type { Dataset } from './dataset';

/** Common names the dataset does not use, by the ISO3 code it does use. */
export const COUNTRY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  GBR: ['uk', 'united kingdom', 'great britain', 'england'],
  USA: ['us', 'usa', 'united states of america', 'america'],
  EUZ: ['eu', 'eurozone', 'euro zone', 'europe', 'european union'],
  ARE: ['uae', 'emirates'],
  KOR: ['korea', 'republic of korea'],
  CZE: ['czechia'],
  TUR: ['turkiye'],
  RUS: ['russian federation'],
};

/** Either the ISO3 code the query names, or up to three names it may have meant. */
export type LookupResult = { iso3: string } | { iso3?: undefined; suggestions: string[] };

/** Lower case, accents stripped, punctuation folded to single spaces: "Côte d'Ivoire" → "cote d ivoire". */
export function normalizeName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Edit distance, for suggestions. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Builds the lookup of every country the dataset has ever listed: by ISO3 code, by any name or
 * currency code it has carried (Venezuela: VEF and VES), and by the aliases above; ISO3 codes win
 * over names, names over aliases, aliases over currency codes.
 */
export function createCountryLookup(dataset: Dataset): (query: string) => LookupResult {
  const keys = new Map<string, string>();
  const names: { key: string; iso3: string }[] = [];
  const add = (key: string, iso3: string): void => {
    if (key && !keys.has(key)) keys.set(key, iso3);
  };
  const displayName = new Map<string, string>();
  for (const [iso3, rows] of dataset.historyByIso3) {
    add(iso3.toLowerCase(), iso3);
    displayName.set(iso3, rows[rows.length - 1]?.name ?? iso3);
  }
  for (const [iso3, rows] of dataset.historyByIso3) {
    for (const name of new Set(rows.map((r) => normalizeName(r.name)))) {
      add(name, iso3);
      names.push({ key: name, iso3 });
    }
  }
  for (const [iso3, aliases] of Object.entries(COUNTRY_ALIASES)) {
    if (!dataset.historyByIso3.has(iso3)) continue;
    for (const alias of aliases) {
      add(alias, iso3);
      names.push({ key: alias, iso3 });
    }
  }
  for (const [iso3, rows] of dataset.historyByIso3) {
    for (const row of rows) add(row.currency.toLowerCase(), iso3);
  }

  return (query) => {
    const wanted = normalizeName(query);
    const iso3 = keys.get(wanted);
    if (iso3) return { iso3 };
    // A name starting with or containing the query counts as close; otherwise allow a few typos,
    // more for longer queries and only one for a query of one to three letters.
    const tolerance = wanted.length <= 3 ? 1 : Math.max(2, Math.floor(wanted.length / 4));
    const scoreOf = (key: string): number => {
      if (wanted.length >= 3 && key.startsWith(wanted)) return 0;
      if (wanted.length >= 3 && key.includes(wanted)) return 1;
      return levenshtein(wanted, key);
    };
    const ranked = names
      .map(({ key, iso3: code }) => ({ name: displayName.get(code) ?? code, score: scoreOf(key) }))
      .filter((c) => c.score <= tolerance)
      .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name, 'en'));
    const suggestions = [...new Set(ranked.map((c) => c.name))].slice(0, 3);
    return { suggestions };
  };
}
