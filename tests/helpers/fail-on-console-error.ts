/**
 * A test fails when anything calls console.error unexpectedly: errors that are only logged are
 * how bugs hide. A test that expects one calls expectConsoleError(pattern) first.
 */
import { afterEach, beforeEach, expect, vi } from "vitest";

let expected: RegExp[] = [];
let unexpected: string[] = [];

export function expectConsoleError(pattern: RegExp): void {
  expected.push(pattern);
}

beforeEach(() => {
  expected = [];
  unexpected = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    const line = args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(" ");
    if (!expected.some((pattern) => pattern.test(line))) unexpected.push(line);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  expect(unexpected, "unexpected console.error output").toEqual([]);
});
