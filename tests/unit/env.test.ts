import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_DOCS, EnvError, envSchema, parseEnv } from "../../src/server/env";
import { parseStorageUrl } from "../../src/server/storage/location";

describe("environment", () => {
  it("runs on embedded defaults with no variable set", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.NODE_ENV).toBe("production");
    expect(env.DATA_DIR).toBe(path.resolve("./data"));
    expect(env.DATABASE_FILE).toBe(path.resolve("./data/app.db"));
    expect(env.TRUST_PROXY).toBe(false);
    expect(env.LOG_LEVEL).toBe("info");
    expect(env.ROLE).toBe("all");
    expect(env.RENDER_LEASE_MS).toBe(60_000);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ PORT: "", PUBLIC_URL: "" }).PORT).toBe(3000);
  });

  it("reads overrides", () => {
    const env = parseEnv({ PORT: "8080", DATA_DIR: "/tmp/x", TRUST_PROXY: "true", PUBLIC_URL: "https://studio.example.com" });
    expect(env).toMatchObject({ PORT: 8080, DATA_DIR: "/tmp/x", TRUST_PROXY: 1, PUBLIC_URL: "https://studio.example.com" });
  });

  it("reads TRUST_PROXY as Express's trust proxy: off, a number of hops, or the proxies' addresses (true means one hop)", () => {
    const trust = (value: string) => parseEnv({ TRUST_PROXY: value }).TRUST_PROXY;
    expect([trust("false"), trust("0"), trust("true"), trust("2")]).toEqual([false, false, 1, 2]);
    expect(trust("loopback, 10.0.0.0/8, 192.168.1.4, fd00::/8")).toEqual(["loopback", "10.0.0.0/8", "192.168.1.4", "fd00::/8"]);
  });

  it.each([
    ["PORT", "abc", "expected a port number between 0 and 65535"],
    ["PORT", "70000", "expected a port number between 0 and 65535"],
    ["PORT", "3.5", "expected a port number between 0 and 65535"],
    ["TRUST_PROXY", "maybe", "expected false, the number of proxies in front of the app"],
    ["TRUST_PROXY", "10.0.0.0/33", "expected false, the number of proxies in front of the app"],
    ["PUBLIC_URL", "studio.example.com", "expected the absolute http(s) URL"],
    ["PUBLIC_URL", "ftp://example.com", "expected the absolute http(s) URL"],
    ["LOG_LEVEL", "loud", "expected one of debug, info, warn, error, silent"],
    ["ROLE", "both", "expected one of web, worker, all"],
    ["RENDER_LEASE_MS", "500", "expected a number of milliseconds, 1000 to 3600000"],
    ["SUPPORT_EMAIL", "nobody", "expected an e-mail address"],
    ["NODE_ENV", "staging", "expected one of development, production, test"],
  ])("refuses %s=%s naming the variable and what it expects", (name, value, expectation) => {
    expect(() => parseEnv({ [name]: value })).toThrow(EnvError);
    try {
      parseEnv({ [name]: value });
    } catch (error) {
      expect((error as Error).message).toContain(`${name}: ${expectation}`);
      expect((error as Error).message).toContain(`(got "${value}")`);
    }
  });

  it("reads STORAGE_URL as s3://bucket with an optional prefix, and refuses anything else naming it", () => {
    expect(parseEnv({ STORAGE_URL: "s3://studio-files" })).toMatchObject({ STORAGE_URL: "s3://studio-files", S3_REGION: "us-east-1" });
    expect(parseStorageUrl("s3://studio-files")).toEqual({ bucket: "studio-files", prefix: "" });
    expect(parseStorageUrl("s3://studio.files/roomcanvas/prod/")).toEqual({ bucket: "studio.files", prefix: "roomcanvas/prod" });
    for (const bad of [
      "studio-files",
      "https://studio-files/x",
      "s3://",
      "s3://Studio",
      "s3://ab",
      "s3://a..b/x",
      "s3://files/../up",
      "s3://files/a//b",
      "s3://files/with space",
      "s3://files/.hidden",
    ]) {
      expect(parseStorageUrl(bad), bad).toBeNull();
      expect(() => parseEnv({ STORAGE_URL: bad }), bad).toThrow(/STORAGE_URL: expected s3:\/\/bucket or s3:\/\/bucket\/prefix/);
    }
  });

  it("refuses broken combinations of the object-storage variables at start, naming the variable to fix", () => {
    const s3 = { STORAGE_URL: "s3://studio-files/prod", S3_ENDPOINT: "http://minio:9000" };
    expect(parseEnv({ ...s3, S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret", S3_FORCE_PATH_STYLE: "false" })).toMatchObject({
      S3_ENDPOINT: "http://minio:9000",
      S3_FORCE_PATH_STYLE: false,
    });
    expect(() => parseEnv({ S3_ENDPOINT: "http://minio:9000" })).toThrow(/S3_ENDPOINT: set without STORAGE_URL/);
    expect(() => parseEnv({ S3_REGION: "eu-west-1" })).toThrow(/S3_REGION: set without STORAGE_URL/);
    expect(() => parseEnv({ ...s3, S3_ACCESS_KEY_ID: "id" })).toThrow(/S3_SECRET_ACCESS_KEY: expected the secret/);
    expect(() => parseEnv({ ...s3, S3_SECRET_ACCESS_KEY: "secret" })).toThrow(/S3_ACCESS_KEY_ID: expected the access key id/);
    expect(() => parseEnv({ ...s3, S3_ENDPOINT: "minio:9000" })).toThrow(/S3_ENDPOINT: expected the http\(s\) address/);
    expect(() => parseEnv({ ...s3, S3_FORCE_PATH_STYLE: "yes please" })).toThrow(/S3_FORCE_PATH_STYLE: expected true or false/);
    expect(parseEnv({ ...s3, BACKUP_DIR: "/backups" }).BACKUP_DIR).toBe("/backups");
  });

  it("lists every bad variable at once", () => {
    expect(() => parseEnv({ PORT: "x", LOG_LEVEL: "y" })).toThrow(/PORT: .*\n.*LOG_LEVEL: /);
  });

  it("documents every variable, here and in docs/configuration.md", () => {
    const names = Object.keys(envSchema.shape).sort();
    expect(Object.keys(ENV_DOCS).sort()).toEqual(names);
    const configuration = fs.readFileSync("docs/configuration.md", "utf8");
    for (const name of names) expect(configuration, `docs/configuration.md documents ${name}`).toContain(`\`${name}\``);
  });
});
