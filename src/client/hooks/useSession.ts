import { trpc } from "../trpc";

/**
 * The signed-in user and their session's times as the server sees them (both null for a visitor),
 * and whether the first answer is still on its way.
 */
export function useSession() {
  // Refreshed after a minute at most; sign-in, sign-out and extensions update it at once (auth events).
  const query = trpc.auth.session.useQuery(undefined, { staleTime: 60_000 });
  return {
    user: query.data?.user ?? null,
    session: query.data?.session ?? null,
    isLoading: query.isLoading,
  };
}
