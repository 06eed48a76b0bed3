import pino from 'pino';

/** The logging surface the shared middleware needs; a pino logger satisfies it. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  service: string;
  level?: string;
  /** Where JSON lines go; standard output by default. */
  destination?: pino.DestinationStream;
}

/** A JSON-lines pino logger tagged with the service name. */
export function createLogger(options: CreateLoggerOptions): pino.Logger {
  return pino(
    { level: options.level ?? 'info', base: { service: options.service }, timestamp: pino.stdTimeFunctions.isoTime },
    options.destination ?? pino.destination({ sync: false }),
  );
}
