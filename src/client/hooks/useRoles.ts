import { useSession } from "./useSession";
import { trpc } from "../trpc";

/**
 * The signed-in user's roles (spec section 4): admin when the list contains "admin"; a failed
 * fetch counts as no roles (the server refuses admin calls anyway). Nothing is asked for a visitor,
 * and nothing until a screen needs the answer (`enabled`): the bar asks when its panel opens.
 */
export function useRoles({ enabled = true }: { enabled?: boolean } = {}) {
  const { user, isLoading: sessionLoading } = useSession();
  const query = trpc.account.roles.useQuery(undefined, { enabled: enabled && !!user, retry: false, staleTime: 60_000 });
  const roles: string[] = query.isError ? [] : (query.data ?? []);
  return {
    roles,
    isAdmin: roles.includes("admin"),
    isLoading: sessionLoading || (enabled && !!user && query.isLoading),
  };
}
