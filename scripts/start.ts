/** `npm start`: build the client if needed, then run the server (migrations apply at boot). */
import { buildClient, clientBuildIsStale, viteAvailable } from "./client-build";

process.env.NODE_ENV ??= "production";

if (clientBuildIsStale() && (await viteAvailable())) {
  console.info("Building the web client (first start or sources changed)...");
  await buildClient();
}

await import("../src/server/main");
