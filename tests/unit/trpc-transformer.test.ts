/**
 * The server's output transformer (src/server/trpc/transformer.ts, decision 046) sends exactly what
 * superjson would: plain JSON as it is, anything superjson annotates (dates, undefined, Maps, BigInts,
 * odd numbers, repeated or circular objects, class instances) through superjson itself.
 */
import superjson from "superjson";
import { describe, expect, it } from "vitest";
import { isPlainJson, serializeOutput, transformer } from "../../src/server/trpc/transformer";

class Room {
  constructor(readonly name: string) {}
}

const shared = { id: "shared" };
const circular: Record<string, unknown> = { name: "loop" };
circular.self = circular;
const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [true, null] });

const plain: Array<[string, unknown]> = [
  ["a string", "room"],
  ["an empty string", ""],
  ["a number", 42.5],
  ["zero", 0],
  ["a boolean", false],
  ["null", null],
  ["an empty object", {}],
  ["an empty array", []],
  [
    "the profile page",
    {
      email: "ana@example.com",
      fullName: "Ana",
      credits: 20,
      memberSince: 1795408374053,
      emailConfirmed: false,
      hasPassword: true,
      renders: { total: 3, succeeded: 2, failed: 1 },
      favouriteStyles: [{ style: "modern", count: 2 }],
      projects: 0,
    },
  ],
  ["nested arrays and objects", { a: [[1, 2], [{ b: { c: ["d", null] } }]], e: "ü✓" }],
  ["an object without prototype", nullPrototype],
  ["equal but distinct objects", [{ a: 1 }, { a: 1 }]],
];

const special: Array<[string, unknown]> = [
  ["undefined", undefined],
  ["an undefined property", { a: undefined, b: 1 }],
  ["a date", { at: new Date(1_700_000_000_000) }],
  ["NaN", [Number.NaN]],
  ["Infinity", { n: Number.POSITIVE_INFINITY }],
  ["negative zero", { n: -0 }],
  ["a BigInt", { n: 10n }],
  ["a Map", new Map([["a", 1]])],
  ["a Set", { s: new Set([1, 2]) }],
  ["a regular expression", /room/g],
  ["an error", new Error("boom")],
  ["an array with a hole", [1, , 3]], // eslint-disable-line no-sparse-arrays
  ["the same object twice", { first: shared, second: shared }],
  ["a circular object", circular],
  ["a class instance", { room: new Room("attic") }],
  ["a URL", { url: new URL("https://example.com/a") }],
  ["a function property", { f: () => 1 }],
];

describe("the output transformer", () => {
  it.each(plain)("sends %s as superjson does, without its walk", (_, value) => {
    expect(isPlainJson(value)).toBe(true);
    expect(JSON.stringify(serializeOutput(value))).toBe(JSON.stringify(superjson.serialize(value)));
    expect(serializeOutput(value)).toEqual({ json: value });
  });

  it.each(special)("leaves %s to superjson", (_, value) => {
    expect(isPlainJson(value)).toBe(false);
    expect(JSON.stringify(serializeOutput(value))).toBe(JSON.stringify(superjson.serialize(value)));
  });

  it("refuses a __proto__ key as superjson does", () => {
    const polluted = JSON.parse('{"__proto__": {"admin": true}}') as unknown;
    expect(isPlainJson(polluted)).toBe(false);
    expect(() => serializeOutput(polluted)).toThrow(/prototype pollution/);
  });

  it("is read back by superjson unchanged", () => {
    for (const [, value] of [...plain, ...special.filter(([name]) => !name.includes("function"))]) {
      const sent = JSON.parse(JSON.stringify(transformer.output.serialize(value))) as Parameters<typeof superjson.deserialize>[0];
      expect(superjson.deserialize(sent)).toEqual(superjson.deserialize(JSON.parse(JSON.stringify(superjson.serialize(value)))));
    }
  });
});
