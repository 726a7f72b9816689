/** One render engine built from the configuration: RENDER_PROVIDER's (the offline Preview engine unless told otherwise). */
import type { Env } from "../../env";
import { comfyUiOptionsFromEnv, createComfyUiProvider } from "./comfyui";
import { localProvider } from "./local";
import { createOpenAiProvider } from "./openai";
import type { RenderProvider } from "./provider";
import { createReplicateProvider } from "./replicate";
import type { PredictionWaiters } from "./replicate-webhook";

/** The Replicate webhook URL, when this server is reachable from outside and has the signing secret. */
export function replicateWebhookUrl(env: Env): string | undefined {
  if (!env.PUBLIC_URL || !env.REPLICATE_WEBHOOK_SECRET) return undefined;
  return new URL("/webhooks/replicate", env.PUBLIC_URL).toString();
}

export function createRenderProvider(env: Env, waiters: PredictionWaiters): RenderProvider {
  switch (env.RENDER_PROVIDER) {
    case "replicate":
      return createReplicateProvider({
        token: env.REPLICATE_API_TOKEN!,
        model: env.REPLICATE_MODEL,
        baseUrl: env.REPLICATE_API_URL,
        webhookUrl: replicateWebhookUrl(env),
        waiters,
      });
    case "openai":
      return createOpenAiProvider({ apiKey: env.OPENAI_API_KEY!, model: env.OPENAI_MODEL, baseUrl: env.OPENAI_API_URL });
    case "comfyui":
      return createComfyUiProvider(comfyUiOptionsFromEnv(env));
    case "local":
      return localProvider;
  }
}
