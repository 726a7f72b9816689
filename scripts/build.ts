/** `npm run build`: the client with Vite, and the landing page pre-rendered into it (scripts/prerender.ts). */
import { buildClient } from "./client-build";

await buildClient();
