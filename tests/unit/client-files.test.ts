import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { HYDRATED_EVENT, STORAGE_KEYS } from "../../src/shared/constants";
import { APP_ROUTES, isAppPath } from "../../src/shared/routes";

describe("client files", () => {
  it("theme-init.js reads the same storage key as the theme provider", () => {
    const script = fs.readFileSync("src/client/public/theme-init.js", "utf8");
    expect(script).toContain(`"${STORAGE_KEYS.theme}"`);
  });

  it("boot.js waits for the event the app sends once it has hydrated the pre-rendered page", () => {
    const script = fs.readFileSync("src/client/inline/boot.js", "utf8");
    expect(script).toContain(`"${HYDRATED_EVENT}"`);
  });

  it("index.html has no inline script (the CSP allows scripts from 'self' and the pre-rendered page's two)", () => {
    const html = fs.readFileSync("src/client/index.html", "utf8");
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src=/);
      expect(body!.trim()).toBe("");
    }
  });
});

describe("route table", () => {
  it("has every route of spec section 2 with its access", () => {
    const byAccess = (access: string) => APP_ROUTES.filter((route) => route.access === access).map((route) => route.path);
    expect(byAccess("public")).toEqual([
      "/",
      "/auth",
      "/upload",
      "/batch-upload",
      "/style-select",
      "/render",
      "/pricing",
      "/features",
      "/gallery",
      "/ai-lab",
      "/test",
      "/performance",
      "/guide",
      "/user-guide",
      "/terms",
      "/privacy",
      "/review/:token",
      "/p/:handle",
      "/invite",
      "/s/:id",
    ]);
    expect(byAccess("protected")).toEqual([
      "/dashboard",
      "/enhanced-dashboard",
      "/social-hub",
      "/admin",
      "/teams",
      "/clients",
      "/profile",
      "/settings",
      "/community",
      "/marketplace",
      "/developers",
      "/styles",
      "/modification-studio",
    ]);
  });

  it("recognises app paths with or without a trailing slash, and nothing else", () => {
    expect(isAppPath("/")).toBe(true);
    expect(isAppPath("/pricing")).toBe(true);
    expect(isAppPath("/pricing/")).toBe(true);
    expect(isAppPath("/nope")).toBe(false);
    expect(isAppPath("/pricing/extra")).toBe(false);
  });

  it("recognises a review link's page by its pattern, one segment in place of the token", () => {
    expect(isAppPath("/review/abcdefghijklmnopqrstuvwx")).toBe(true);
    expect(isAppPath("/review/abcdefghijklmnopqrstuvwx/")).toBe(true);
    expect(isAppPath("/review")).toBe(false);
    expect(isAppPath("/review/a/b")).toBe(false);
    expect(isAppPath("/review/:token")).toBe(false);
  });
});
