// Answers of this service against a real EVM node (anvil, chain id 1, an ERC-20 deployed and sent
// by its development accounts, as test/integration/logs-anvil.test.ts does): the reference pages
// show them as example answers (route docs' `example`), and test/http/route-examples.test.ts checks
// each against its route's schema.

/** GET /v1/logs?chain=ethereum&address=…&event=Transfer&limit=2. */
export const LOGS_EXAMPLE = {
  "chain": {
    "slug": "ethereum",
    "id": 1,
    "name": "Ethereum"
  },
  "from_block": 0,
  "to_block": 3,
  "count": 2,
  "logs": [
    {
      "block_number": 1,
      "block_hash": "0x051db3d84599c0957c9a24be47304af12a69751c47a6d91f3f4e8a194fa23a42",
      "block_timestamp": 1795899967,
      "transaction_hash": "0xdcb8b70fd61b2f5d5f51b3c4bdf1463292894ede6055bf95b7628a96daa735b3",
      "transaction_index": 0,
      "log_index": 0,
      "address": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      "topics": [
        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "0x0000000000000000000000000000000000000000000000000000000000000000",
        "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
      ],
      "data": "0x00000000000000000000000000000000000000000000d3c21bcecceda1000000",
      "decoded": {
        "event": "Transfer",
        "signature": "Transfer(address,address,uint256)",
        "args": {
          "from": "0x0000000000000000000000000000000000000000",
          "to": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
          "value": "1000000000000000000000000"
        }
      }
    },
    {
      "block_number": 2,
      "block_hash": "0x109f31b23061f452ed59da763b3001102caa1f60eb8faaa6616ed89f414b49c0",
      "block_timestamp": 1795899967,
      "transaction_hash": "0x4ce791d20430b0a01e47fa57ff9fe025fcf970efcf6184905777f314aa525267",
      "transaction_index": 0,
      "log_index": 0,
      "address": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      "topics": [
        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
        "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8"
      ],
      "data": "0x000000000000000000000000000000000000000000000000000000000016e360",
      "decoded": {
        "event": "Transfer",
        "signature": "Transfer(address,address,uint256)",
        "args": {
          "from": "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
          "to": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
          "value": "1500000"
        }
      }
    }
  ],
  "cursor": "WzEsIkg5TjVTRmlKMDFTakh1ZjEiLDIsMCwzLDJd"
};

/** GET /v1/transfers?chain=ethereum&token=…&limit=2: a next page follows (cursor). */
export const TRANSFERS_EXAMPLE = {
  "chain": {
    "slug": "ethereum",
    "id": 1,
    "name": "Ethereum"
  },
  "from_block": 0,
  "to_block": 3,
  "count": 2,
  "transfers": [
    {
      "token": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      "from": "0x0000000000000000000000000000000000000000",
      "to": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
      "value": "1000000000000000000000000",
      "block_number": 1,
      "block_hash": "0x051db3d84599c0957c9a24be47304af12a69751c47a6d91f3f4e8a194fa23a42",
      "block_timestamp": 1795899967,
      "transaction_hash": "0xdcb8b70fd61b2f5d5f51b3c4bdf1463292894ede6055bf95b7628a96daa735b3",
      "log_index": 0
    },
    {
      "token": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      "from": "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
      "to": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
      "value": "1500000",
      "block_number": 2,
      "block_hash": "0x109f31b23061f452ed59da763b3001102caa1f60eb8faaa6616ed89f414b49c0",
      "block_timestamp": 1795899967,
      "transaction_hash": "0x4ce791d20430b0a01e47fa57ff9fe025fcf970efcf6184905777f314aa525267",
      "log_index": 0
    }
  ],
  "cursor": "WzEsInZMZDFZdmktSkNpWkNKdWwiLDIsMCwzLDJd"
};

/** GET /v1/chains for a key on the starter plan. */
export const CHAINS_EXAMPLE = {
  "plan": "starter",
  "access": "plan",
  "chains": [
    {
      "slug": "ethereum",
      "id": 1,
      "name": "Ethereum",
      "included": true,
      "plan_required": "free"
    },
    {
      "slug": "base",
      "id": 8453,
      "name": "Base",
      "included": true,
      "plan_required": "free"
    },
    {
      "slug": "arbitrum",
      "id": 42161,
      "name": "Arbitrum One",
      "included": true,
      "plan_required": "free"
    },
    {
      "slug": "optimism",
      "id": 10,
      "name": "OP Mainnet",
      "included": true,
      "plan_required": "free"
    },
    {
      "slug": "bnb",
      "id": 56,
      "name": "BNB Smart Chain",
      "included": true,
      "plan_required": "free"
    },
    {
      "slug": "polygon",
      "id": 137,
      "name": "Polygon",
      "included": true,
      "plan_required": "free"
    },
    {
      "slug": "avalanche",
      "id": 43114,
      "name": "Avalanche",
      "included": false,
      "plan_required": "pro"
    },
    {
      "slug": "gnosis",
      "id": 100,
      "name": "Gnosis",
      "included": false,
      "plan_required": "pro"
    },
    {
      "slug": "linea",
      "id": 59144,
      "name": "Linea Mainnet",
      "included": false,
      "plan_required": "pro"
    },
    {
      "slug": "scroll",
      "id": 534352,
      "name": "Scroll",
      "included": false,
      "plan_required": "pro"
    },
    {
      "slug": "zksync",
      "id": 324,
      "name": "ZKsync Era",
      "included": false,
      "plan_required": "pro"
    },
    {
      "slug": "fantom",
      "id": 250,
      "name": "Fantom",
      "included": false,
      "plan_required": "pro"
    },
    {
      "slug": "sonic",
      "id": 146,
      "name": "Sonic",
      "included": false,
      "plan_required": "pro"
    },
    {
      "slug": "celo",
      "id": 42220,
      "name": "Celo",
      "included": false,
      "plan_required": "pro"
    }
  ]
};

/** GET /v1/meta. */
export const META_EXAMPLE = {
  "service": "logs",
  "max_block_range": 100000,
  "default_limit": 100,
  "max_limit": 1000,
  "cache_ttl_ms": 30000,
  "plans": [
    {
      "plan": "free",
      "topic_filtering": false,
      "chains": [
        "ethereum",
        "base",
        "arbitrum",
        "optimism",
        "bnb",
        "polygon"
      ]
    },
    {
      "plan": "starter",
      "topic_filtering": true,
      "chains": [
        "ethereum",
        "base",
        "arbitrum",
        "optimism",
        "bnb",
        "polygon"
      ]
    },
    {
      "plan": "pro",
      "topic_filtering": true,
      "chains": [
        "ethereum",
        "base",
        "arbitrum",
        "optimism",
        "bnb",
        "polygon",
        "avalanche",
        "gnosis",
        "linea",
        "scroll",
        "zksync",
        "fantom",
        "sonic",
        "celo"
      ]
    },
    {
      "plan": "business",
      "topic_filtering": true,
      "chains": [
        "ethereum",
        "base",
        "arbitrum",
        "optimism",
        "bnb",
        "polygon",
        "avalanche",
        "gnosis",
        "linea",
        "scroll",
        "zksync",
        "fantom",
        "sonic",
        "celo"
      ]
    }
  ],
  "events": [
    {
      "name": "Transfer",
      "standard": "ERC-20",
      "declaration": "Transfer(address indexed from, address indexed to, uint256 value)",
      "signature": "Transfer(address,address,uint256)",
      "topic0": "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
    },
    {
      "name": "Transfer",
      "standard": "ERC-721",
      "declaration": "Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
      "signature": "Transfer(address,address,uint256)",
      "topic0": "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
    },
    {
      "name": "Approval",
      "standard": "ERC-20",
      "declaration": "Approval(address indexed owner, address indexed spender, uint256 value)",
      "signature": "Approval(address,address,uint256)",
      "topic0": "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925"
    },
    {
      "name": "Approval",
      "standard": "ERC-721",
      "declaration": "Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
      "signature": "Approval(address,address,uint256)",
      "topic0": "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925"
    },
    {
      "name": "ApprovalForAll",
      "standard": "ERC-721/1155",
      "declaration": "ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
      "signature": "ApprovalForAll(address,address,bool)",
      "topic0": "0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31"
    },
    {
      "name": "TransferSingle",
      "standard": "ERC-1155",
      "declaration": "TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
      "signature": "TransferSingle(address,address,address,uint256,uint256)",
      "topic0": "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62"
    },
    {
      "name": "TransferBatch",
      "standard": "ERC-1155",
      "declaration": "TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
      "signature": "TransferBatch(address,address,address,uint256[],uint256[])",
      "topic0": "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb"
    },
    {
      "name": "Deposit",
      "standard": "WETH",
      "declaration": "Deposit(address indexed dst, uint256 wad)",
      "signature": "Deposit(address,uint256)",
      "topic0": "0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c"
    },
    {
      "name": "Withdrawal",
      "standard": "WETH",
      "declaration": "Withdrawal(address indexed src, uint256 wad)",
      "signature": "Withdrawal(address,uint256)",
      "topic0": "0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65"
    },
    {
      "name": "Swap",
      "standard": "Uniswap V2",
      "declaration": "Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
      "signature": "Swap(address,uint256,uint256,uint256,uint256,address)",
      "topic0": "0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822"
    },
    {
      "name": "Sync",
      "standard": "Uniswap V2",
      "declaration": "Sync(uint112 reserve0, uint112 reserve1)",
      "signature": "Sync(uint112,uint112)",
      "topic0": "0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1"
    },
    {
      "name": "Mint",
      "standard": "Uniswap V2",
      "declaration": "Mint(address indexed sender, uint256 amount0, uint256 amount1)",
      "signature": "Mint(address,uint256,uint256)",
      "topic0": "0x4c209b5fc8ad50758f13e2e1088ba56a560dff690a1c6fef26394f4c03821c4f"
    },
    {
      "name": "Burn",
      "standard": "Uniswap V2",
      "declaration": "Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
      "signature": "Burn(address,uint256,uint256,address)",
      "topic0": "0xdccd412f0b1252819cb1fd330b93224ca42612892bb3f4f789976e6d81936496"
    },
    {
      "name": "PairCreated",
      "standard": "Uniswap V2",
      "declaration": "PairCreated(address indexed token0, address indexed token1, address pair, uint256)",
      "signature": "PairCreated(address,address,address,uint256)",
      "topic0": "0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9"
    },
    {
      "name": "Swap",
      "standard": "Uniswap V3",
      "declaration": "Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
      "signature": "Swap(address,address,int256,int256,uint160,uint128,int24)",
      "topic0": "0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67"
    },
    {
      "name": "PoolCreated",
      "standard": "Uniswap V3",
      "declaration": "PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
      "signature": "PoolCreated(address,address,uint24,int24,address)",
      "topic0": "0x783cca1c0412dd0d695e784568c96da2e9c22ff989357a2e8b1d9b2b4e6b7118"
    },
    {
      "name": "OwnershipTransferred",
      "standard": "Ownable",
      "declaration": "OwnershipTransferred(address indexed previousOwner, address indexed newOwner)",
      "signature": "OwnershipTransferred(address,address)",
      "topic0": "0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0"
    },
    {
      "name": "Upgraded",
      "standard": "ERC-1967",
      "declaration": "Upgraded(address indexed implementation)",
      "signature": "Upgraded(address)",
      "topic0": "0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b"
    }
  ]
};
