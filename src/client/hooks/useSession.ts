import { useSharedQuery } from "../lib/queries";

/**
 * The signed-in user and their session's times as the server sees them (both null for a visitor),
 * and whether the first answer is still on its way. auth.session through lib/queries: read by the
 * first paint, so it needs neither tRPC's client nor React Query to be loaded.
 */
export function useSession() {
  // Refreshed after a minute at most (SHARED_STALE_MS); sign-in, sign-out and extensions update it at once (auth events).
  const query = useSharedQuery("auth.session");
  return {
    user: query.data?.user ?? null,
    session: query.data?.session ?? null,
    isLoading: query.isLoading,
  };
}
