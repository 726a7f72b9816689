/** A measured duration as users read it (issue 27): to a tenth under 10 s, in the language's own decimal sign; a download named after the studio. */
import { describe, expect, it } from "vitest";
import { formatSeconds } from "../../src/client/lib/format";
import { fileNamePrefix } from "../../src/shared/studio";

describe("formatSeconds", () => {
  it("shows a tenth of a second under 10 s, never 0 for something that took time", () => {
    expect(formatSeconds(600, "en")).toBe("0.6");
    expect(formatSeconds(1_640, "en")).toBe("1.6");
    expect(formatSeconds(20, "en")).toBe("0.1");
    expect(formatSeconds(0, "en")).toBe("0.0");
    expect(formatSeconds(12_400, "en")).toBe("12");
  });

  it("writes the decimal sign as Spanish and French do", () => {
    expect(formatSeconds(600, "es")).toBe("0,6");
    expect(formatSeconds(1_640, "fr")).toBe("1,6");
  });
});

describe("fileNamePrefix", () => {
  it("writes the studio's name as a file name's start: lower case, accents dropped, dashes between words", () => {
    expect(fileNamePrefix("Casa Nová Studio")).toBe("casa-nova-studio");
    expect(fileNamePrefix("  L'Atelier & Co.  ")).toBe("l-atelier-co");
    expect(fileNamePrefix("RoomCanvas")).toBe("roomcanvas");
    expect(fileNamePrefix("日本")).toBe("roomcanvas");
  });
});
