/**
 * `npm start`: build the client and the server bundle if they are missing or stale, then run the
 * bundle (migrations apply at boot). Plain JavaScript on purpose: a TypeScript loader at every
 * start cost about a second (decision 045).
 */
import { available, buildClient, buildServer, clientBuildIsStale, SERVER_BUNDLE, serverBuildIsStale } from "./build.mjs";
import { pathToFileURL } from "node:url";

process.env.NODE_ENV ??= "production";
// Stack traces name the TypeScript sources, through the bundle's source map.
process.setSourceMapsEnabled(true);

if (clientBuildIsStale() && (await available("vite"))) {
  console.info("Building the web client (first start or sources changed)...");
  await buildClient();
}
if (serverBuildIsStale() && (await available("esbuild"))) await buildServer();

await import(pathToFileURL(SERVER_BUNDLE).href);
