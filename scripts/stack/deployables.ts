/**
 * The four processes of the stack, their entry points, the ports the architecture gives them and
 * the variable that moves each port for `npm start` (two stacks, or something else on 8080).
 */
export const DEPLOYABLES = {
  gateway: { entry: 'gateway/src/main.ts', port: 8080, portVariable: 'GATEWAY_PORT' },
  burger: { entry: 'services/burger/src/main.ts', port: 8081, portVariable: 'BURGER_PORT' },
  token: { entry: 'services/token/src/main.ts', port: 8082, portVariable: 'TOKEN_PORT' },
  logs: { entry: 'services/logs/src/main.ts', port: 8083, portVariable: 'LOGS_PORT' },
} as const;

export type DeployableName = keyof typeof DEPLOYABLES;

export const DEPLOYABLE_NAMES = Object.keys(DEPLOYABLES) as DeployableName[];
