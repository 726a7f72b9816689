/**
 * The tRPC transformer: superjson both ways, with a shorter road out for answers that are plain JSON.
 *
 * superjson walks every answer to find what JSON cannot carry (dates, undefined, Maps, repeated
 * objects…) and copies it on the way; for an answer made only of strings, finite numbers, booleans,
 * null, arrays and plain objects it returns `{ json: <the same value> }`. That walk was about a tenth
 * of a session-checked query (decision 046). `isPlainJson` checks the same conditions without copying;
 * anything else (or anything superjson would refuse, such as a `__proto__` key) goes through superjson,
 * so the client receives exactly what superjson would have sent and deserialises it with superjson.
 */
import superjson from "superjson";

/** Keys superjson refuses (prototype pollution): left to superjson, which throws its own error. */
const REFUSED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** True when superjson would send `value` unchanged: JSON-safe primitives, arrays and plain objects, no object twice. */
export function isPlainJson(value: unknown, seen: Set<object> = new Set()): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      // superjson marks an object met twice (referential equality) or inside itself.
      if (seen.has(value)) return false;
      seen.add(value);
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        // Holes read as undefined, which superjson annotates.
        for (let index = 0; index < value.length; index++) if (!isPlainJson(value[index], seen)) return false;
        return true;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key of Object.keys(value)) {
        if (REFUSED_KEYS.has(key) || !isPlainJson((value as Record<string, unknown>)[key], seen)) return false;
      }
      return true;
    }
    default:
      // undefined, bigint, symbol, function: superjson's business.
      return false;
  }
}

/** superjson.serialize, without the walk when the value is plain JSON (same result). */
export function serializeOutput(value: unknown): ReturnType<typeof superjson.serialize> {
  return isPlainJson(value) ? { json: value as never } : superjson.serialize(value);
}

/** The server's transformer: superjson in, superjson out with the plain-JSON shortcut. */
export const transformer = {
  input: superjson,
  output: { serialize: serializeOutput, deserialize: (value: Parameters<typeof superjson.deserialize>[0]) => superjson.deserialize(value) },
};
