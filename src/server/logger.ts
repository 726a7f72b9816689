/** A small leveled logger writing one line per event; level from LOG_LEVEL. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function format(message: string, fields?: Record<string, unknown>): string {
  if (!fields || Object.keys(fields).length === 0) return message;
  const rendered = Object.entries(fields).map(([key, value]) => {
    if (value instanceof Error) return `${key}=${JSON.stringify(value.stack ?? value.message)}`;
    return `${key}=${JSON.stringify(value)}`;
  });
  return `${message} ${rendered.join(" ")}`;
}

export function createLogger(level: LogLevel): Logger {
  const enabled = (wanted: LogLevel) => order[wanted] >= order[level];
  const at =
    (wanted: Exclude<LogLevel, "silent">, write: (line: string) => void) => (message: string, fields?: Record<string, unknown>) => {
      if (enabled(wanted)) write(format(message, fields));
    };
  return {
    debug: at("debug", (line) => console.debug(line)),
    info: at("info", (line) => console.info(line)),
    warn: at("warn", (line) => console.warn(line)),
    error: at("error", (line) => console.error(line)),
  };
}
