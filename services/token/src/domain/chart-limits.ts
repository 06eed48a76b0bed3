/** The indexer's cap on coins × points in one chart call. */
export const MAX_CHART_POINTS = 500;

/** Why a chart request asks for too many points, or undefined when it fits. */
export function chartPointsProblem(tokenCount: number, span: number): string | undefined {
  const points = tokenCount * span;
  if (points <= MAX_CHART_POINTS) return undefined;
  const maxSpan = Math.floor(MAX_CHART_POINTS / tokenCount);
  return (
    `tokens × span must be at most ${MAX_CHART_POINTS} (the price indexer's cap); ` +
    `${tokenCount} tokens × ${span} points = ${points}: ask for fewer tokens or a span of at most ${maxSpan}`
  );
}
