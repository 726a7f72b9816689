import { inject } from "vitest";
import { startApp, type BootOptions, type StartedApp } from "../../src/server/boot";
import { makeTestEnv } from "./test-env";

export interface TestServer extends StartedApp {
  url: string;
}

/** The real app on a random loopback port, serving the client built by the global setup. */
export async function startTestServer(
  envOverrides: Record<string, string> = {},
  options: BootOptions & { fresh?: boolean } = {},
): Promise<TestServer> {
  const env = makeTestEnv(envOverrides, { fresh: options.fresh });
  const app = await startApp(env, { clientDir: inject("clientDir"), ...options });
  return { ...app, url: app.http.url };
}
