/** The server's entry point: parse the environment, start, and stop gracefully on SIGTERM/SIGINT. */
import { startApp } from "./boot";
import { EnvError, parseEnv } from "./env";
import { createLogger } from "./logger";
import { PRODUCT_NAME } from "../shared/constants";

async function main(): Promise<void> {
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = createLogger(env.LOG_LEVEL, { format: env.LOG_FORMAT });
  const app = await startApp(env, { log });
  const where = { role: env.ROLE, instance: app.services.render.instanceId, dataDir: env.DATA_DIR };
  if (env.ROLE === "worker")
    log.info(`${PRODUCT_NAME} ${app.deps.version} render worker is running; health check at ${app.http.url}/healthz`, where);
  else log.info(`${PRODUCT_NAME} ${app.deps.version} is running at ${app.http.url}`, where);

  const shutdown = (signal: NodeJS.Signals) => {
    log.info(`${signal} received: finishing in-flight requests, then closing`);
    app.stop().then(
      () => {
        log.info("stopped cleanly");
        process.exit(0);
      },
      (error: unknown) => {
        log.error("error while stopping", { error });
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  console.error("Failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
