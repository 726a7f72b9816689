import path from "node:path";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const root = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = `http://127.0.0.1:${process.env.DEV_API_PORT ?? "3001"}`;

export default defineConfig({
  root: path.join(root, "src/client"),
  publicDir: path.join(root, "src/client/public"),
  plugins: [react(), tailwindcss()],
  build: {
    outDir: path.join(root, "dist/client"),
    emptyOutDir: true,
    // No inline scripts or module-preload polyfill: the CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // Which files each module needs: scripts/prerender.ts lists the landing page's for its first load.
    manifest: true,
    // Source maps only when asked (SOURCEMAP=1 npm run build), e.g. to read a performance profile.
    sourcemap: !!process.env.SOURCEMAP,
    rolldownOptions: {
      output: {
        // Few files for the landing page's first load (each request costs the main thread too, issue 15):
        // everything the entry imports statically in one chunk, and the landing page with what it adds in another.
        codeSplitting: {
          groups: [
            { name: "app", tags: ["$initial"], priority: 20 },
            { name: "landing", test: /\/src\/client\/pages\/Landing\.tsx$/, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/trpc": apiTarget,
      "/healthz": apiTarget,
      // Uploads, pictures and webhooks are plain HTTP routes of the API server.
      "/api": apiTarget,
      "/files": apiTarget,
      "/webhooks": apiTarget,
    },
  },
});
