// Answers of this service (its own code, over the price indexer's format at 2026-01-01T00:10Z, as
// its tests serve it): the reference pages show them as example answers (route docs' `example`),
// and test/http/route-examples.test.ts checks each against its route's schema.

/** GET /v1/price?tokens=ethereum:0xA0b8…eB48,coingecko:ethereum. */
export const PRICE_EXAMPLE = {
  "count": 2,
  "not_found": [],
  "below_confidence": [],
  "prices": [
    {
      "token": "ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      "chain": "ethereum",
      "address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      "symbol": "USDC",
      "price_usd": 1.000092066,
      "decimals": 6,
      "confidence": 0.99,
      "timestamp": 1767226200
    },
    {
      "token": "coingecko:ethereum",
      "chain": "coingecko",
      "address": "ethereum",
      "symbol": "ETH",
      "price_usd": 3409.21489,
      "decimals": null,
      "confidence": 0.99,
      "timestamp": 1767226200
    }
  ]
};

/** GET /v1/historical: the same tokens a day earlier. */
export const HISTORICAL_EXAMPLE = {
  "requested_timestamp": 1767139800,
  "count": 2,
  "not_found": [],
  "below_confidence": [],
  "prices": [
    {
      "token": "ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      "chain": "ethereum",
      "address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
      "symbol": "USDC",
      "price_usd": 1.000275433,
      "decimals": 6,
      "confidence": 0.99,
      "timestamp": 1767139200,
      "requested_timestamp": 1767139800
    },
    {
      "token": "coingecko:ethereum",
      "chain": "coingecko",
      "address": "ethereum",
      "symbol": "ETH",
      "price_usd": 3469.966358,
      "decimals": null,
      "confidence": 0.99,
      "timestamp": 1767139200,
      "requested_timestamp": 1767139800
    }
  ]
};

/** GET /v1/chart?tokens=coingecko:ethereum&span=3&period=1d. */
export const CHART_EXAMPLE = {
  "period": "1d",
  "period_seconds": 86400,
  "span": 3,
  "start": null,
  "end": null,
  "count": 1,
  "not_found": [],
  "below_confidence": [],
  "series": [
    {
      "token": "coingecko:ethereum",
      "chain": "coingecko",
      "address": "ethereum",
      "symbol": "ETH",
      "decimals": null,
      "confidence": 0.99,
      "points": [
        {
          "timestamp": 1767052800,
          "price_usd": 3469.966358
        },
        {
          "timestamp": 1767139200,
          "price_usd": 3469.966358
        },
        {
          "timestamp": 1767225600,
          "price_usd": 3409.800463
        }
      ]
    }
  ]
};

/** GET /v1/change?tokens=coingecko:ethereum&period=1d. */
export const CHANGE_EXAMPLE = {
  "period": "1d",
  "period_seconds": 86400,
  "start_timestamp": 1767139800,
  "end_timestamp": 1767226200,
  "window_seconds": 21600,
  "count": 1,
  "not_found": [],
  "below_confidence": [],
  "changes": [
    {
      "token": "coingecko:ethereum",
      "chain": "coingecko",
      "address": "ethereum",
      "symbol": "ETH",
      "confidence": 0.99,
      "start": {
        "timestamp": 1767139200,
        "price_usd": 3469.966358
      },
      "end": {
        "timestamp": 1767225600,
        "price_usd": 3409.800463
      },
      "change_percent": -1.7339042743537771
    }
  ]
};

/** GET /v1/meta on the starter plan. */
export const META_EXAMPLE = {
  "service": "token",
  "plan": "starter",
  "batch_limit": 12,
  "batch_limits": {
    "free": 3,
    "starter": 12,
    "pro": 60,
    "scale": 250
  },
  "max_chart_points": 500,
  "slug_prefixes": [
    "coingecko"
  ],
  "chain_count": 22,
  "chains": [
    "aptos",
    "arbitrum",
    "avax",
    "base",
    "bitcoin",
    "bsc",
    "celo",
    "era",
    "ethereum",
    "fantom",
    "linea",
    "mantle",
    "near",
    "optimism",
    "polygon",
    "scroll",
    "solana",
    "starknet",
    "sui",
    "ton",
    "tron",
    "xdai"
  ]
};
