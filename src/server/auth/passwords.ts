/** Password hashing: argon2id at OWASP's figure (19 MiB, 2 iterations, parallelism 1). */
import { hash, verify, type Options } from "@node-rs/argon2";

// algorithm 2 is Argon2id (the package exports it as a const enum, which isolatedModules cannot read).
const OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password. With no stored hash (unknown user, or a Google-only account) it still
 * verifies against a dummy hash, so the answer takes the same time whether the account exists.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword("dummy password that never matches");
    await verify(await dummyHash, password);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
