/** The four processes of the stack, their entry points and the ports the architecture gives them. */
export const DEPLOYABLES = {
  gateway: { entry: 'gateway/src/main.ts', port: 8080 },
  burger: { entry: 'services/burger/src/main.ts', port: 8081 },
  token: { entry: 'services/token/src/main.ts', port: 8082 },
  logs: { entry: 'services/logs/src/main.ts', port: 8083 },
} as const;

export type DeployableName = keyof typeof DEPLOYABLES;

export const DEPLOYABLE_NAMES = Object.keys(DEPLOYABLES) as DeployableName[];
