/**
 * Admin · Teams (issue 28): every team on the server, found by its name or a member's address, with
 * its balance and members (name, address, role, monthly cap); an admin adjusts a team's credits with
 * a reason as they do a user's (a team ledger row, audited, in the team's activity log).
 */
import { Coins, Search, Users } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";
import type { TeamRole } from "../../../shared/teams";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { Spinner } from "../Spinner";
import { buttonClass } from "../ui/buttons";
import { AdjustCreditsDialog } from "./AdjustCreditsDialog";
import { Badge, EmptyNote, ErrorNote, Pager, Panel, useFormatters, type Tone } from "./common";

type AdminTeam = inferRouterOutputs<AppRouter>["admin"]["teams"]["teams"][number];

const PAGE_SIZE = 20;
const ROLE_TONES: Record<TeamRole, Tone> = { owner: "brand", admin: "green", member: "slate" };

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function RoleBadge({ role }: { role: TeamRole }) {
  const { t } = useTranslation();
  return <Badge tone={ROLE_TONES[role]}>{t(`admin.teams.roles.${role}`)}</Badge>;
}

function TeamCard({ team, onAdjust }: { team: AdminTeam; onAdjust(team: AdminTeam): void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const cap = (value: number | null) =>
    value === null ? t("admin.teams.noCap") : t("admin.teams.capValue", { count: value, formatted: format.number(value) });
  return (
    <li className="space-y-3 px-3 py-3 sm:px-4" data-testid="admin-team" data-name={team.name}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="font-medium [overflow-wrap:anywhere]">{team.name}</p>
          <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-500 dark:text-slate-400">
            <span className="font-semibold text-slate-700 dark:text-slate-200" data-testid="admin-team-credits">
              {t("admin.teams.balance", { count: team.credits, formatted: format.number(team.credits) })}
            </span>
            <span>{t("admin.teams.memberCount", { count: team.memberCount, formatted: format.number(team.memberCount) })}</span>
            <span>{t("admin.teams.created", { date: format.date(team.createdAt) })}</span>
          </p>
        </div>
        <button
          type="button"
          className={`${buttonClass.secondary} self-start px-3 py-1.5`}
          onClick={() => onAdjust(team)}
          aria-label={t("admin.teams.adjustFor", { name: team.name })}
        >
          <Coins className="size-4" aria-hidden="true" />
          {t("admin.users.adjustCredits")}
        </button>
      </div>

      {/* Desktop: a table; phone: one small card per member (no sideways scrolling). */}
      <table className="hidden w-full table-fixed text-sm sm:table" data-testid="admin-team-members">
        <caption className="sr-only">{t("admin.teams.membersOf", { name: team.name })}</caption>
        <thead className="text-left text-xs text-slate-500 dark:text-slate-400">
          <tr>
            <th scope="col" className="w-[28%] pb-1 pr-3 font-medium">
              {t("admin.teams.columns.name")}
            </th>
            <th scope="col" className="pb-1 pr-3 font-medium">
              {t("admin.teams.columns.email")}
            </th>
            <th scope="col" className="w-36 pb-1 pr-3 font-medium">
              {t("admin.teams.columns.role")}
            </th>
            <th scope="col" className="w-40 pb-1 font-medium">
              {t("admin.teams.columns.cap")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {team.members.map((member) => (
            <tr key={member.userId} data-testid="admin-team-member" data-email={member.email}>
              <td className="truncate py-1.5 pr-3">{member.name || "—"}</td>
              <td className="truncate py-1.5 pr-3 text-slate-600 dark:text-slate-300" title={member.email}>
                {member.email}
              </td>
              <td className="py-1.5 pr-3">
                <RoleBadge role={member.role} />
              </td>
              <td className="py-1.5 tabular-nums text-slate-600 dark:text-slate-300">{cap(member.monthlyCap)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-2 sm:hidden" aria-label={t("admin.teams.membersOf", { name: team.name })}>
        {team.members.map((member) => (
          <li
            key={member.userId}
            className="rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-800/60"
            data-testid="admin-team-member-card"
            data-email={member.email}
          >
            <div className="flex items-center justify-between gap-2">
              <p className="min-w-0 truncate font-medium">{member.name || "—"}</p>
              <RoleBadge role={member.role} />
            </div>
            <p className="break-all text-slate-600 dark:text-slate-300">{member.email}</p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {t("admin.teams.columns.cap")}: {cap(member.monthlyCap)}
            </p>
          </li>
        ))}
      </ul>
    </li>
  );
}

export function TeamsSection() {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const term = useDebounced(search.trim(), 300);
  const teams = trpc.admin.teams.useQuery(
    { search: term || undefined, limit: PAGE_SIZE, offset },
    { staleTime: 0, placeholderData: (previous) => previous },
  );
  const adjust = trpc.admin.adjustTeamCredits.useMutation();

  const [team, setTeam] = useState<AdminTeam | null>(null);

  useEffect(() => setOffset(0), [term]);

  const open = (next: AdminTeam) => setTeam(next);

  const list = teams.data?.teams ?? [];

  return (
    <Panel
      title={t("admin.teams.title")}
      description={teams.data ? t("admin.teams.count", { count: teams.data.total }) : undefined}
      testId="admin-teams"
      actions={
        <div className="relative w-full sm:w-72">
          <label htmlFor="team-search" className="sr-only">
            {t("admin.teams.search")}
          </label>
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <input
            id="team-search"
            type="search"
            className={`${inputClass} pl-9`}
            placeholder={t("admin.teams.searchPlaceholder")}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      }
    >
      {teams.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {teams.error ? <ErrorNote>{friendlyError(teams.error, t)}</ErrorNote> : null}
      {teams.data && list.length === 0 ? (
        <EmptyNote>
          <Users className="mx-auto mb-2 size-5" aria-hidden="true" />
          {term ? t("admin.teams.noMatch", { term }) : t("admin.teams.none")}
        </EmptyNote>
      ) : null}
      {list.length > 0 ? (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          data-testid="admin-team-list"
        >
          {list.map((item) => (
            <TeamCard key={item.id} team={item} onAdjust={open} />
          ))}
        </ul>
      ) : null}
      {teams.data ? <Pager offset={offset} limit={PAGE_SIZE} total={teams.data.total} onChange={setOffset} /> : null}

      <AdjustCreditsDialog
        open={team !== null}
        onOpenChange={(isOpen) => {
          if (!isOpen) setTeam(null);
        }}
        description={team ? t("admin.teams.adjustDescription", { name: team.name, credits: team.credits }) : undefined}
        balance={team?.credits ?? 0}
        idPrefix="team-credit"
        busy={adjust.isPending}
        onAdjust={async (amount, reason) => {
          if (!team) return;
          const result = await adjust.mutateAsync({ teamId: team.id, amount, reason });
          toast.success(t("admin.teams.creditsAdjusted", { name: team.name, credits: result.credits }));
          setTeam(null);
          await utils.admin.teams.invalidate();
        }}
      />
    </Panel>
  );
}
