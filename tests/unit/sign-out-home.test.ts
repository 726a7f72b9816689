import { describe, expect, it } from "vitest";
import { beginSignOutHome, endSignOutHome, signingOutHome, visitorShown } from "../../src/client/lib/signOutHome";

describe("the way home after a sign-out (lib/signOutHome)", () => {
  it("waits for the visitor's view, and holds protected pages back until the app is home", async () => {
    expect(signingOutHome()).toBe(false);
    let shown = false;
    const waiting = beginSignOutHome().then(() => (shown = true));
    expect(signingOutHome()).toBe(true);
    await Promise.resolve();
    expect(shown).toBe(false);
    visitorShown();
    await waiting;
    expect(shown).toBe(true);
    // Still on the way until the app has navigated home.
    expect(signingOutHome()).toBe(true);
    endSignOutHome();
    expect(signingOutHome()).toBe(false);
  });
});
