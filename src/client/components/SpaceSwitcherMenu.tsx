/** The space switcher's menu (SpaceSwitcher loads it): Personal and the user's teams, then "Manage teams". */
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQueryClient } from "@tanstack/react-query";
import { Check, ChevronDown, Settings2, User, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation } from "wouter";
import { useSession } from "../hooks/useSession";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

const itemClass =
  "flex cursor-pointer items-center justify-between gap-3 rounded px-3 py-2 text-sm outline-none focus-visible:ring-2 " +
  "focus-visible:ring-inset focus-visible:ring-brand-500 data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800";

export default function SpaceSwitcherMenu({ wide }: { wide: boolean }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { user } = useSession();
  // Signed in only: while signing out, a refetch would be refused (401) and logged by the browser.
  const mine = trpc.teams.mine.useQuery(undefined, { enabled: user !== null });
  const switchSpace = trpc.teams.switchSpace.useMutation({
    onSuccess: () => void queryClient.invalidateQueries(),
    onError: (caught) => toast.error(friendlyError(caught, t)),
  });
  if (!mine.data || user === null) return null;
  const { teams, current } = mine.data;
  const currentTeam = teams.find((team) => team.id === current);
  const label = currentTeam?.name ?? t("spaceSwitcher.personal");
  const choose = (teamId: string | null) => {
    if (teamId === (currentTeam?.id ?? null)) return;
    const name = teams.find((team) => team.id === teamId)?.name ?? t("spaceSwitcher.personal");
    switchSpace.mutate({ teamId }, { onSuccess: () => toast.success(t("spaceSwitcher.switched", { name })) });
  };
  const Icon = currentTeam ? Users : User;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          data-testid="space-switcher"
          aria-label={t("spaceSwitcher.label", { name: label })}
          title={wide ? undefined : label}
          disabled={switchSpace.isPending}
          className={
            wide
              ? "inline-flex w-full items-center justify-between gap-1.5 rounded-md border border-slate-300 px-2.5 py-2 text-sm font-medium " +
                "text-slate-700 hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
              : // In the bar, an icon (its name in the tooltip and for screen readers) where the bar has no room for the name.
                "inline-flex h-9 min-w-9 items-center justify-center gap-1.5 rounded-md px-2 text-sm font-medium text-slate-700 " +
                "hover:bg-slate-100 disabled:opacity-60 dark:text-slate-200 dark:hover:bg-slate-800"
          }
        >
          <Icon className="size-4 shrink-0" aria-hidden="true" />
          <span className={wide ? "min-w-0 flex-1 truncate text-left" : "sr-only 2xl:not-sr-only 2xl:max-w-[10rem] 2xl:truncate"}>
            {label}
          </span>
          {wide ? <ChevronDown className="size-4 shrink-0" aria-hidden="true" /> : null}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align={wide ? "start" : "end"}
          sideOffset={6}
          className={`z-50 min-w-56 max-w-[calc(100vw-2rem)] ${wide ? "w-[var(--radix-dropdown-menu-trigger-width)]" : ""} rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900`}
        >
          <DropdownMenu.Label className="px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
            {t("spaceSwitcher.workIn")}
          </DropdownMenu.Label>
          <DropdownMenu.Item className={itemClass} onSelect={() => choose(null)} data-testid="space-personal">
            <span className="flex items-center gap-2">
              <User className="size-4" aria-hidden="true" />
              {t("spaceSwitcher.personal")}
            </span>
            {currentTeam ? null : <Check className="size-4 text-brand-600" aria-hidden="true" />}
          </DropdownMenu.Item>
          {teams.map((team) => (
            <DropdownMenu.Item key={team.id} className={itemClass} onSelect={() => choose(team.id)} data-testid="space-team">
              <span className="flex min-w-0 items-center gap-2">
                <Users className="size-4 shrink-0" aria-hidden="true" />
                <span className="truncate">{team.name}</span>
              </span>
              {team.id === currentTeam?.id ? <Check className="size-4 shrink-0 text-brand-600" aria-hidden="true" /> : null}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-700" />
          <DropdownMenu.Item className={itemClass} onSelect={() => navigate("/teams")}>
            <span className="flex items-center gap-2">
              <Settings2 className="size-4" aria-hidden="true" />
              {t("spaceSwitcher.manage")}
            </span>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
