// Real answers of this service (the repository's copy of the index, release 2026-01-01), cut to a
// few rows: the reference pages show them as example answers (route docs' `example`), and
// test/http/route-examples.test.ts checks each against its route's schema.

/** GET /v1/index: the first 3 of 54 countries. */
export const INDEX_EXAMPLE = {
  "count": 3,
  "source": "The Economist Big Mac index (github.com/TheEconomist/big-mac-data, CC BY 4.0)",
  "release_date": "2026-01-01",
  "base_currency": "USD",
  "countries": [
    {
      "iso3": "CHE",
      "country": "Switzerland",
      "currency": "CHF",
      "local_price": 7.3,
      "dollar_price": 9.08412145345943,
      "raw_valuation_pct": 48.433,
      "dollar_exchange_rate": 0.8036,
      "adjusted_valuation_pct": 52.769
    },
    {
      "iso3": "URY",
      "country": "Uruguay",
      "currency": "UYU",
      "local_price": 339,
      "dollar_price": 8.7585583257977,
      "raw_valuation_pct": 43.114,
      "dollar_exchange_rate": 38.705,
      "adjusted_valuation_pct": 83.855
    },
    {
      "iso3": "NOR",
      "country": "Norway",
      "currency": "NOK",
      "local_price": 76,
      "dollar_price": 7.51548833368768,
      "raw_valuation_pct": 22.802,
      "dollar_exchange_rate": 10.11245,
      "adjusted_valuation_pct": 27.371
    }
  ]
};

/** GET /v1/country?country=Japan: the first and last of Japan's releases. */
export const COUNTRY_EXAMPLE = {
  "iso3": "JPN",
  "country": "Japan",
  "currency": "JPY",
  "base_currency": "USD",
  "latest": {
    "iso3": "JPN",
    "country": "Japan",
    "currency": "JPY",
    "local_price": 480,
    "dollar_price": 3.02753161562963,
    "raw_valuation_pct": -50.531,
    "dollar_exchange_rate": 158.545,
    "adjusted_valuation_pct": -46.506
  },
  "history": [
    {
      "date": "2000-04-01",
      "local_price": 294,
      "dollar_price": 2.77358490566038,
      "raw_valuation_pct": 23.821,
      "adjusted_valuation_pct": 26.422
    },
    {
      "date": "2026-01-01",
      "local_price": 480,
      "dollar_price": 3.02753161562963,
      "raw_valuation_pct": -50.531,
      "adjusted_valuation_pct": -46.506
    }
  ],
  "history_count": 43,
  "source": "The Economist Big Mac index (github.com/TheEconomist/big-mac-data, CC BY 4.0)"
};

/** GET /v1/extremes?limit=2. */
export const EXTREMES_EXAMPLE = {
  "source": "The Economist Big Mac index (github.com/TheEconomist/big-mac-data, CC BY 4.0)",
  "release_date": "2026-01-01",
  "base_currency": "USD",
  "most_overvalued": [
    {
      "iso3": "CHE",
      "country": "Switzerland",
      "currency": "CHF",
      "local_price": 7.3,
      "dollar_price": 9.08412145345943,
      "raw_valuation_pct": 48.433,
      "dollar_exchange_rate": 0.8036,
      "adjusted_valuation_pct": 52.769
    },
    {
      "iso3": "URY",
      "country": "Uruguay",
      "currency": "UYU",
      "local_price": 339,
      "dollar_price": 8.7585583257977,
      "raw_valuation_pct": 43.114,
      "dollar_exchange_rate": 38.705,
      "adjusted_valuation_pct": 83.855
    }
  ],
  "most_undervalued": [
    {
      "iso3": "TWN",
      "country": "Taiwan",
      "currency": "TWD",
      "local_price": 78,
      "dollar_price": 2.47089569969114,
      "raw_valuation_pct": -59.626,
      "dollar_exchange_rate": 31.5675,
      "adjusted_valuation_pct": -59.583
    },
    {
      "iso3": "IND",
      "country": "India",
      "currency": "INR",
      "local_price": 227,
      "dollar_price": 2.51398194805914,
      "raw_valuation_pct": -58.922,
      "dollar_exchange_rate": 90.295,
      "adjusted_valuation_pct": -44.805
    }
  ]
};

/** GET /v1/meta. */
export const META_EXAMPLE = {
  "note": "Valuations are in percent against the base currency: positive means the currency is over-valued, negative under-valued. base is one of usd, eur, gbp, jpy, cny (any case; these equal the published columns) or any other currency code of the latest release (computed as The Economist does). country accepts a name, an ISO3 code or a currency code, in any case and with or without accents, and common aliases such as UK, USA and Eurozone. GDP-adjusted figures are omitted where the dataset has none. This is a purchasing-power gauge, not a live exchange rate.",
  "source": "The Economist Big Mac index (github.com/TheEconomist/big-mac-data, CC BY 4.0)",
  "service": "burger",
  "countries": 54,
  "endpoints": {
    "GET /v1/index": "Latest release for every country",
    "GET /v1/country": "One country's history",
    "GET /v1/extremes": "Most over- and under-valued currencies of the latest release",
    "GET /v1/meta": "What this API serves and how fresh its copy is",
    "GET /healthz": "Liveness: the process answers",
    "GET /readyz": "Readiness: a copy of the dataset is loaded",
    "GET /v1/openapi.json": "This API as an OpenAPI 3.1 document"
  },
  "description": "Big Mac index: how over- or under-valued currencies are, measured by the price of a burger, with every release since 2000.",
  "latest_release": "2026-01-01",
  "upstream_status": "ok"
};
