/**
 * Where webhooks may go (decision 095, SSRF): every address a URL's host resolves to is checked;
 * private, loopback, link-local, unique-local, multicast and unspecified addresses are refused, IPv4
 * written inside IPv6 as its IPv4 self; loopback only when the operator allows it, http only to it.
 */
import { describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { classifyAddress, resolveTarget, type Lookup } from "../../src/server/webhooks";

const names: Record<string, string[]> = {
  "hooks.example.com": ["93.184.216.34"],
  "mixed.example.com": ["93.184.216.34", "10.0.0.1"],
  "six.example.com": ["2606:2800:220:1:248:1893:25c8:1946"],
};
const lookup: Lookup = async (hostname) => {
  const found = names[hostname];
  if (!found) throw new Error("ENOTFOUND");
  return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};
const strict = { allowLoopback: false, lookup };

async function refusal(url: string, options = strict): Promise<string | null> {
  try {
    await resolveTarget(url, options);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("webhook targets", () => {
  it("refuses the addresses an attacker would aim at", async () => {
    for (const url of [
      "https://127.0.0.1/x",
      "https://127.9.9.9/x",
      "https://10.0.0.1/x",
      "https://172.16.5.4/x",
      "https://192.168.1.1/x",
      "https://100.64.0.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://0.0.0.0/x",
      "https://224.0.0.1/x",
      "https://255.255.255.255/x",
      "https://[::1]/x",
      "https://[::]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://[::ffff:7f00:1]/x",
      "https://[::ffff:10.0.0.1]/x",
      "https://[::ffff:169.254.169.254]/x",
      "https://[fe80::1]/x",
      "https://[fd12:3456::1]/x",
      "https://[ff02::1]/x",
      "https://mixed.example.com/x",
      // A name that resolves to loopback (the system's resolver: localhost).
      "https://localhost/x",
    ])
      expect(
        await refusal(url, {
          allowLoopback: false,
          lookup: url.includes("localhost") ? (host) => import("node:dns/promises").then((dns) => dns.lookup(host, { all: true })) : lookup,
        }),
        url,
      ).toBe(MESSAGES.webhookUrlRefused);
  });

  it("takes public https addresses, and asks for https elsewhere", async () => {
    expect(await resolveTarget("https://hooks.example.com/in?x=1", strict)).toMatchObject({ address: "93.184.216.34", family: 4 });
    expect(await resolveTarget("https://six.example.com/", strict)).toMatchObject({ family: 6 });
    expect(await resolveTarget("https://93.184.216.34:8443/", strict)).toMatchObject({ address: "93.184.216.34" });
    expect(await refusal("http://hooks.example.com/x")).toBe(MESSAGES.webhookUrlNotHttps);
    expect(await refusal("ftp://hooks.example.com/x")).toBe(MESSAGES.webhookUrlNotHttps);
    expect(await refusal("https://nowhere.example.com/x")).toBe(MESSAGES.webhookUrlUnresolved);
    expect(await refusal("not a url")).toBe(MESSAGES.webhookUrlInvalid);
  });

  it("lets loopback through, over http too, only when the operator allows it; never private networks", async () => {
    const allowing = { allowLoopback: true, lookup };
    expect(await resolveTarget("http://127.0.0.1:8080/x", allowing)).toMatchObject({ address: "127.0.0.1" });
    expect(await resolveTarget("http://[::1]:8080/x", allowing)).toMatchObject({ address: "::1", family: 6 });
    expect(await refusal("http://127.0.0.1:8080/x")).toBe(MESSAGES.webhookUrlRefused);
    expect(await refusal("https://10.0.0.1/x", allowing)).toBe(MESSAGES.webhookUrlRefused);
    expect(await refusal("https://[::ffff:192.168.0.1]/x", allowing)).toBe(MESSAGES.webhookUrlRefused);
    expect(await refusal("http://hooks.example.com/x", allowing)).toBe(MESSAGES.webhookUrlNotHttps);
  });

  it("classifies addresses, IPv4 inside IPv6 as IPv4", () => {
    expect(classifyAddress("8.8.8.8")).toBe("public");
    expect(classifyAddress("::ffff:8.8.8.8")).toBe("public");
    expect(classifyAddress("2001:4860:4860::8888")).toBe("public");
    expect(classifyAddress("::ffff:127.0.0.1")).toBe("loopback");
    expect(classifyAddress("0:0:0:0:0:0:0:1")).toBe("loopback");
    expect(classifyAddress("::127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::ffff:a9fe:a9fe")).toBe("refused");
    expect(classifyAddress("fc00::1")).toBe("refused");
    expect(classifyAddress("not an address")).toBe("refused");
  });
});
