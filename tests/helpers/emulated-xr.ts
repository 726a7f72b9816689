/**
 * An emulated AR phone for browser tests (decision 092): Meta's IWER and its synthetic environment module
 * (npm devDependencies, bundled here by esbuild once per test process: nothing is fetched at run time),
 * installed in a page before the app loads. See emulated-xr/phone.ts for the device and the room.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import type { EmulatedArOptions } from "./emulated-xr/room";

export { ROOM, type EmulatedArOptions } from "./emulated-xr/room";

/** Headless Chromium draws WebGL (the session's layer, the room's) only on SwiftShader, and only when told it may. */
export const WEBGL_CHROMIUM_ARGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"];

let bundle: Promise<string> | null = null;

function phoneScript(): Promise<string> {
  bundle ??= import("esbuild").then(async ({ build }) => {
    const result = await build({
      entryPoints: [path.resolve("tests/helpers/emulated-xr/phone.ts")],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      write: false,
      minify: true,
      logLevel: "silent",
    });
    return result.outputFiles[0]!.text;
  });
  return bundle;
}

/** Installs the emulated phone in every document the page loads from now on. */
export async function installEmulatedArPhone(page: Page, options: EmulatedArOptions = { hitTest: true, room: true }): Promise<void> {
  await page.addInitScript({ content: `window.__emulatedArOptions = ${JSON.stringify(options)};\n${await phoneScript()}` });
}
