/**
 * The curl commands /developers offers to copy (issue 31, decision 097): upload a photo, order a
 * render and wait for it, download its picture, read the credits. Built here without React so that
 * tests/integration/api-curl.test.ts runs these very commands against a real server.
 */
import { API_BASE } from "../../../shared/api";

export const CURL_STEPS = ["upload", "render", "image", "credits"] as const;
export type CurlStep = (typeof CURL_STEPS)[number];

/** Where a command takes what an earlier answer gave. */
export const IMAGE_ID = "<imageId>";
export const RENDER_ID = "<renderId>";

/** Each step's command against `origin` (the page's own), with `key` standing for the API key. */
export function curlCommands(origin: string, key: string): Record<CurlStep, string> {
  const api = `${origin}${API_BASE}`;
  const auth = `-H "Authorization: Bearer ${key}"`;
  return {
    upload: `curl ${auth} -H "Content-Type: image/jpeg" --data-binary @room.jpg "${api}/uploads?roomType=living-room"`,
    render: `curl ${auth} -H "Content-Type: application/json" -d '{"imageId":"${IMAGE_ID}","style":"japandi"}' "${api}/renders?wait=30"`,
    image: `curl ${auth} -o render.jpg ${api}/renders/${RENDER_ID}/image`,
    credits: `curl ${auth} ${api}/credits`,
  };
}
