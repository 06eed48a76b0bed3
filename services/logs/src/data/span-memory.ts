/** The largest `eth_getLogs` span each chain's RPC has accepted, learned from its rejections. */
export interface SpanMemory {
  get(chain: string): number | undefined;
  /** Records a smaller limit; a larger one never replaces what was learned. */
  lower(chain: string, span: number): void;
}

/** An in-process {@link SpanMemory}; a restart learns again from the first rejection. */
export function createSpanMemory(initial: Record<string, number> = {}): SpanMemory {
  const spans = new Map<string, number>(Object.entries(initial));
  return {
    get: (chain) => spans.get(chain),
    lower: (chain, span) => {
      const known = spans.get(chain);
      if (known === undefined || span < known) spans.set(chain, span);
    },
  };
}
