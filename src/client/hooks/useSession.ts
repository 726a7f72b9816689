import { trpc } from "../trpc";

/** The signed-in user as the server sees it (null for a visitor), and whether it is still loading. */
export function useSession() {
  const query = trpc.session.current.useQuery(undefined, { staleTime: 60_000 });
  return { user: query.data?.user ?? null, isLoading: query.isLoading };
}
