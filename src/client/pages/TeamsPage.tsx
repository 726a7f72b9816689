/**
 * /teams (issue 28): the user's teams with their role, members and balance, creating a team, and
 * one team opened (?team=<id>): its members and what my role may do with them (roleMay, the table
 * the server enforces), pending invitations, the invite form, renaming, transferring ownership,
 * deleting the team (saying first what goes with it), leaving, and the activity log.
 */
import { ArrowLeft, Crown, History, Mail, RotateCw, Send, Shield, Trash2, User, UserMinus, Users } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link, useLocation, useSearch } from "wouter";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES, type Language } from "../../shared/constants";
import { emailSchema } from "../../shared/auth-schemas";
import { MEMBER_ROLES, type MemberRole } from "../../shared/team-members";
import { roleMay, teamNameSchema, type TeamRole } from "../../shared/teams";
import { inputClass } from "../components/auth/fields";
import { Spinner } from "../components/Spinner";
import { TeamCreditsPanel } from "../components/teams/TeamCreditsPanel";
import { ConfirmDialog } from "../components/ui/Dialog";
import { Pill } from "../components/ui/Pill";
import { buttonClass, cardClass, labelClass, linkClass, selectClass } from "../components/ui/buttons";
import { useSession } from "../hooks/useSession";
import { friendlyError } from "../lib/friendlyError";
import { formatNumber } from "../lib/numbers";
import { translateMessage } from "../lib/validationMessages";
import { currentLanguage } from "../i18n";
import { trpc } from "../trpc";

const ROLE_ICONS = { owner: Crown, admin: Shield, member: User } as const;
const ROLE_TONES = { owner: "amber", admin: "violet", member: "slate" } as const;

function RolePill({ role }: { role: TeamRole }) {
  const { t } = useTranslation();
  return (
    <Pill tone={ROLE_TONES[role]} icon={ROLE_ICONS[role]}>
      {t(`teamsPage.roles.${role}`)}
    </Pill>
  );
}

function Section({ title, icon: Icon, children, testId }: { title: string; icon: typeof Users; children: ReactNode; testId?: string }) {
  return (
    <section className={`${cardClass} p-4 sm:p-6`} data-testid={testId}>
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <Icon className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function useDates() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  return {
    date: (at: number) => new Intl.DateTimeFormat(language, { dateStyle: "medium" }).format(at),
    dateTime: (at: number) => new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(at),
  };
}

export default function TeamsPage() {
  const search = useSearch();
  const teamId = new URLSearchParams(search).get("team");
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10" data-testid="teams-page">
      {teamId ? <TeamView key={teamId} teamId={teamId} /> : <TeamList />}
    </div>
  );
}

function TeamList() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const mine = trpc.teams.mine.useQuery();
  const create = trpc.teams.create.useMutation();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = teamNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? "", t));
      return;
    }
    create.mutate(
      { name: parsed.data },
      {
        onSuccess: (team) => {
          toast.success(t("teamsPage.created", { name: team.name }));
          setName("");
          // The new team is the space the user works in now: every list follows.
          void utils.invalidate();
          navigate(`/teams?team=${encodeURIComponent(team.id)}`);
        },
        onError: (caught) => setError(friendlyError(caught, t)),
      },
    );
  };

  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("teamsPage.title")}</h1>
      <p className="mt-2 max-w-2xl text-slate-600 dark:text-slate-400">{t("teamsPage.intro")}</p>

      <div className="mt-8 grid gap-6 lg:grid-cols-[1fr_20rem]">
        <Section title={t("teamsPage.yourTeams")} icon={Users} testId="team-list">
          {mine.isLoading ? (
            <Spinner label={t("common.loading")} />
          ) : mine.error ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {friendlyError(mine.error, t)}
            </p>
          ) : mine.data && mine.data.teams.length > 0 ? (
            <ul className="divide-y divide-slate-200 dark:divide-slate-800">
              {mine.data.teams.map((team) => (
                <li key={team.id}>
                  <Link
                    href={`/teams?team=${encodeURIComponent(team.id)}`}
                    className="flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md px-2 py-3 hover:bg-slate-50 dark:hover:bg-slate-800/60"
                  >
                    <span className="min-w-0 flex-1 font-semibold [overflow-wrap:anywhere]">{team.name}</span>
                    <RolePill role={team.role} />
                    <span className="text-sm text-slate-600 dark:text-slate-400">
                      {t("teamsPage.memberCount", { count: team.members })}
                    </span>
                    <span className="text-sm text-slate-600 dark:text-slate-400">
                      {t("teamsPage.credits", { count: team.credits, formatted: formatNumber(currentLanguage(), team.credits) })}
                    </span>
                    {mine.data.current === team.id ? (
                      <Pill tone="emerald" icon={Users}>
                        {t("teamsPage.currentSpace")}
                      </Pill>
                    ) : null}
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">{t("teamsPage.noTeams")}</p>
          )}
        </Section>

        <Section title={t("teamsPage.createTitle")} icon={Users} testId="create-team">
          <form onSubmit={submit} noValidate className="space-y-3">
            <div>
              <label htmlFor="team-name" className={labelClass}>
                {t("teamsPage.nameLabel")}
              </label>
              <input
                id="team-name"
                className={inputClass}
                value={name}
                maxLength={120}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "team-name-error" : undefined}
                onChange={(event) => {
                  setName(event.target.value);
                  setError(undefined);
                }}
              />
              {error ? (
                <p id="team-name-error" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
                  {error}
                </p>
              ) : null}
            </div>
            <button type="submit" className={`${buttonClass.primary} w-full`} disabled={create.isPending}>
              {t("teamsPage.create")}
            </button>
            <p className="text-xs text-slate-500 dark:text-slate-400">{t("teamsPage.createHint")}</p>
          </form>
        </Section>
      </div>
    </>
  );
}

type Confirm =
  | { kind: "remove"; userId: string; name: string }
  | { kind: "transfer"; userId: string; name: string }
  | { kind: "delete" }
  | { kind: "leave" }
  | null;

function TeamView({ teamId }: { teamId: string }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const { date } = useDates();
  const details = trpc.teams.details.useQuery({ teamId });
  const [confirm, setConfirm] = useState<Confirm>(null);

  const refresh = () => void utils.teams.invalidate();
  const fail = (caught: unknown) => toast.error(friendlyError(caught, t));
  const changeRole = trpc.teams.changeRole.useMutation({ onSuccess: refresh, onError: fail });
  const transfer = trpc.teams.transferOwnership.useMutation({ onError: fail });
  const remove = trpc.teams.removeMember.useMutation({ onError: fail });
  const leave = trpc.teams.leave.useMutation({ onError: fail });
  const destroy = trpc.teams.delete.useMutation({ onError: fail });

  if (details.isLoading) return <Spinner label={t("common.loading")} />;
  if (details.error || !details.data) {
    return (
      <div className={`${cardClass} p-6`} data-testid="team-missing">
        <h1 className="text-xl font-semibold">{t("teamsPage.missingTitle")}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">{details.error ? friendlyError(details.error, t) : null}</p>
        <Link href="/teams" className={`${linkClass} mt-4 inline-block`}>
          {t("teamsPage.allTeams")}
        </Link>
      </div>
    );
  }
  const team = details.data;
  const my = team.myRole;
  const mayManage = roleMay(my, "manageMembers");
  const owns = roleMay(my, "ownTeam");
  const gone = () => {
    // Out of the team: every query (the space, the lists) is read again.
    void utils.invalidate();
    navigate("/teams", { replace: true });
  };

  const confirmed = () => {
    if (!confirm) return;
    const done = () => setConfirm(null);
    if (confirm.kind === "remove") {
      remove.mutate(
        { teamId, userId: confirm.userId },
        { onSuccess: () => (toast.success(t("teamsPage.removed", { name: confirm.name })), refresh(), done()) },
      );
    } else if (confirm.kind === "transfer") {
      transfer.mutate(
        { teamId, userId: confirm.userId },
        { onSuccess: () => (toast.success(t("teamsPage.transferred", { name: confirm.name })), refresh(), done()) },
      );
    } else if (confirm.kind === "delete") {
      destroy.mutate({ teamId }, { onSuccess: () => (toast.success(t("teamsPage.deleted", { name: team.name })), done(), gone()) });
    } else {
      leave.mutate({ teamId }, { onSuccess: () => (toast.success(t("teamsPage.left", { name: team.name })), done(), gone()) });
    }
  };

  return (
    <>
      <Link
        href="/teams"
        className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        {t("teamsPage.allTeams")}
      </Link>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-bold tracking-tight [overflow-wrap:anywhere] sm:text-3xl" data-testid="team-name">
          {team.name}
        </h1>
        <RolePill role={my} />
      </div>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        {t("teamsPage.memberCount", { count: team.members.length })} ·{" "}
        {t("teamsPage.credits", { count: team.credits, formatted: formatNumber(currentLanguage(), team.credits) })}
      </p>

      {/* One column as wide as the page (minmax(0, 1fr)): a wide table scrolls in its card instead of widening the page on a phone. */}
      <div className="mt-6 grid grid-cols-1 gap-6">
        <Section title={t("teamsPage.members")} icon={Users} testId="team-members">
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {team.members.map((member) => {
              const me = member.userId === user?.id;
              const mayRemove = mayManage && !me && member.role !== "owner" && (member.role === "member" || owns);
              return (
                <li key={member.userId} className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center" data-testid="team-member">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium [overflow-wrap:anywhere]">
                      {member.name || member.email}
                      {me ? (
                        <span className="ml-2 text-sm font-normal text-slate-500 dark:text-slate-400">{t("teamsPage.you")}</span>
                      ) : null}
                    </p>
                    <p className="text-sm text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">{member.email}</p>
                    <p className="text-xs text-slate-500 dark:text-slate-400">{t("teamsPage.joined", { date: date(member.joinedAt) })}</p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    {owns && member.role !== "owner" ? (
                      <select
                        aria-label={t("teamsPage.roleOf", { name: member.name || member.email })}
                        className={selectClass.replace("w-full", "w-auto")}
                        value={member.role}
                        disabled={changeRole.isPending}
                        onChange={(event) => changeRole.mutate({ teamId, userId: member.userId, role: event.target.value as MemberRole })}
                      >
                        {MEMBER_ROLES.map((role) => (
                          <option key={role} value={role}>
                            {t(`teamsPage.roles.${role}`)}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <RolePill role={member.role} />
                    )}
                    {owns && member.role === "admin" ? (
                      <button
                        type="button"
                        className={buttonClass.secondary}
                        onClick={() => setConfirm({ kind: "transfer", userId: member.userId, name: member.name || member.email })}
                      >
                        <Crown className="size-4" aria-hidden="true" />
                        {t("teamsPage.makeOwner")}
                      </button>
                    ) : null}
                    {mayRemove ? (
                      <button
                        type="button"
                        className={buttonClass.dangerOutline}
                        onClick={() => setConfirm({ kind: "remove", userId: member.userId, name: member.name || member.email })}
                      >
                        <UserMinus className="size-4" aria-hidden="true" />
                        {t("teamsPage.remove")}
                      </button>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
          {owns ? <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">{t("teamsPage.rolesHint")}</p> : null}
        </Section>

        <TeamCreditsPanel teamId={teamId} />
        {mayManage ? <Invitations teamId={teamId} invitations={team.invitations} /> : null}
        {roleMay(my, "readActivity") ? <ActivityLog teamId={teamId} /> : null}
        {owns ? <Rename teamId={teamId} name={team.name} onDelete={() => setConfirm({ kind: "delete" })} /> : null}

        <section className={`${cardClass} p-4 sm:p-6`} data-testid="leave-team">
          <h2 className="text-lg font-semibold">{t("teamsPage.leaveTitle")}</h2>
          {my === "owner" ? (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t("serverMessages.teamOwnerMustTransfer")}</p>
          ) : (
            <>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t("teamsPage.leaveHint")}</p>
              <button type="button" className={`${buttonClass.dangerOutline} mt-4`} onClick={() => setConfirm({ kind: "leave" })}>
                {t("teamsPage.leave")}
              </button>
            </>
          )}
        </section>
      </div>

      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => (open ? undefined : setConfirm(null))}
        title={
          confirm?.kind === "remove"
            ? t("teamsPage.removeTitle", { name: confirm.name })
            : confirm?.kind === "transfer"
              ? t("teamsPage.transferTitle", { name: confirm.name })
              : confirm?.kind === "delete"
                ? t("teamsPage.deleteTitle", { name: team.name })
                : t("teamsPage.leaveConfirmTitle", { name: team.name })
        }
        description={
          confirm?.kind === "remove"
            ? t("teamsPage.removeText", { name: confirm.name })
            : confirm?.kind === "transfer"
              ? t("teamsPage.transferText", { name: confirm.name })
              : confirm?.kind === "delete"
                ? t("teamsPage.deleteText", {
                    name: team.name,
                    count: team.credits,
                    formatted: formatNumber(currentLanguage(), team.credits),
                  })
                : t("teamsPage.leaveText", { name: team.name })
        }
        confirmLabel={
          confirm?.kind === "remove"
            ? t("teamsPage.remove")
            : confirm?.kind === "transfer"
              ? t("teamsPage.transferConfirm")
              : confirm?.kind === "delete"
                ? t("teamsPage.deleteConfirm")
                : t("teamsPage.leave")
        }
        busy={remove.isPending || transfer.isPending || destroy.isPending || leave.isPending}
        onConfirm={confirmed}
      />
    </>
  );
}

interface Invitation {
  id: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  sentAt: number;
  sendCount: number;
  expiresAt: number;
  expired: boolean;
}

function Invitations({ teamId, invitations }: { teamId: string; invitations: Invitation[] }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const { date } = useDates();
  const refresh = () => void utils.teams.invalidate();
  const fail = (caught: unknown) => toast.error(friendlyError(caught, t));
  const invite = trpc.teams.invite.useMutation();
  const resend = trpc.teams.resendInvitation.useMutation({
    onSuccess: (sent) => (toast.success(t("teamsPage.resent", { email: sent.email })), refresh()),
    onError: fail,
  });
  const revoke = trpc.teams.revokeInvitation.useMutation({
    onSuccess: () => (toast.success(t("teamsPage.revoked")), refresh()),
    onError: fail,
  });
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("member");
  const [language, setLanguage] = useState<Language>(currentLanguage());
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? "", t));
      return;
    }
    invite.mutate(
      { teamId, email: parsed.data, role, language },
      {
        onSuccess: (sent) => {
          toast.success(t("teamsPage.invited", { email: sent.email }));
          setEmail("");
          refresh();
        },
        onError: (caught) => setError(friendlyError(caught, t)),
      },
    );
  };

  return (
    <Section title={t("teamsPage.invitations")} icon={Mail} testId="team-invitations">
      {invitations.length > 0 ? (
        <ul className="mb-6 divide-y divide-slate-200 dark:divide-slate-800">
          {invitations.map((invitation) => (
            <li key={invitation.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center" data-testid="team-invitation">
              <div className="min-w-0 flex-1">
                <p className="font-medium [overflow-wrap:anywhere]">{invitation.email}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {t(`teamsPage.roles.${invitation.role}`)} ·{" "}
                  {invitation.expired
                    ? t("teamsPage.invitationExpired")
                    : t("teamsPage.invitationPending", { date: date(invitation.expiresAt) })}
                  {invitation.invitedBy ? ` · ${t("teamsPage.invitedBy", { name: invitation.invitedBy })}` : ""}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={buttonClass.secondary}
                  disabled={resend.isPending}
                  onClick={() => resend.mutate({ teamId, invitationId: invitation.id })}
                >
                  <RotateCw className="size-4" aria-hidden="true" />
                  {t("teamsPage.resend")}
                </button>
                <button
                  type="button"
                  className={buttonClass.dangerOutline}
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate({ teamId, invitationId: invitation.id })}
                >
                  {t("teamsPage.revoke")}
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-6 text-sm text-slate-600 dark:text-slate-400">{t("teamsPage.noInvitations")}</p>
      )}

      <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-[1fr_10rem_10rem_auto] sm:items-end" data-testid="invite-form">
        <div>
          <label htmlFor="invite-email" className={labelClass}>
            {t("teamsPage.inviteEmail")}
          </label>
          <input
            id="invite-email"
            type="email"
            autoComplete="off"
            className={inputClass}
            value={email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "invite-error" : undefined}
            onChange={(event) => {
              setEmail(event.target.value);
              setError(undefined);
            }}
          />
        </div>
        <div>
          <label htmlFor="invite-role" className={labelClass}>
            {t("teamsPage.inviteRole")}
          </label>
          <select id="invite-role" className={selectClass} value={role} onChange={(event) => setRole(event.target.value as MemberRole)}>
            {MEMBER_ROLES.map((option) => (
              <option key={option} value={option}>
                {t(`teamsPage.roles.${option}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="invite-language" className={labelClass}>
            {t("teamsPage.inviteLanguage")}
          </label>
          <select
            id="invite-language"
            className={selectClass}
            value={language}
            onChange={(event) => setLanguage(event.target.value as Language)}
          >
            {SUPPORTED_LANGUAGES.map((option) => (
              <option key={option} value={option} lang={option}>
                {LANGUAGE_NAMES[option]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass.primary} disabled={invite.isPending}>
          <Send className="size-4" aria-hidden="true" />
          {t("teamsPage.invite")}
        </button>
      </form>
      {error ? (
        <p id="invite-error" role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">{t("teamsPage.inviteHint")}</p>
    </Section>
  );
}

function ActivityLog({ teamId }: { teamId: string }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const log = trpc.teams.activity.useQuery({ teamId });
  const describe = (entry: { actorName: string; action: string; details: Record<string, string | number | null> }) => {
    const details = entry.details;
    const role = (value: unknown) => (typeof value === "string" && value in ROLE_ICONS ? t(`teamsPage.roles.${value}`) : "");
    // Variants said in their own words: a cap removed, a client's approval or request for changes.
    const key =
      entry.action === "capSet" && details.cap === null
        ? "capRemoved"
        : entry.action === "reviewDecision"
          ? details.state === "approved"
            ? "reviewApproved"
            : "reviewChanges"
          : entry.action;
    return t(`teamsPage.actions.${key}`, {
      actor: entry.actorName || t("teamsPage.someone"),
      email: details.email ?? "",
      member: details.member ?? "",
      name: details.name ?? "",
      credits: typeof details.credits === "number" ? formatNumber(currentLanguage(), details.credits) : "",
      cap: typeof details.cap === "number" ? formatNumber(currentLanguage(), details.cap) : "",
      project: details.project ?? "",
      client: details.client ?? "",
      from: entry.action === "roleChanged" ? role(details.from) : (details.from ?? ""),
      to: role(details.to),
      role: role(details.role),
      defaultValue: `${entry.actorName}: ${entry.action}`,
    });
  };
  return (
    <Section title={t("teamsPage.activity")} icon={History} testId="team-activity">
      {log.isLoading ? (
        <Spinner label={t("common.loading")} />
      ) : log.error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {friendlyError(log.error, t)}
        </p>
      ) : (
        <ol className="space-y-2">
          {(log.data ?? []).map((entry) => (
            <li key={entry.id} className="flex flex-col gap-0.5 text-sm sm:flex-row sm:gap-4">
              <time
                dateTime={new Date(entry.at).toISOString()}
                className="shrink-0 text-slate-500 tabular-nums sm:w-44 dark:text-slate-400"
              >
                {dateTime(entry.at)}
              </time>
              <span className="[overflow-wrap:anywhere]">{describe(entry)}</span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function Rename({ teamId, name, onDelete }: { teamId: string; name: string; onDelete(): void }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const rename = trpc.teams.rename.useMutation();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = teamNameSchema.safeParse(value);
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? "", t));
      return;
    }
    rename.mutate(
      { teamId, name: parsed.data },
      {
        onSuccess: () => {
          toast.success(t("teamsPage.renamed", { name: parsed.data }));
          void utils.teams.invalidate();
        },
        onError: (caught) => setError(friendlyError(caught, t)),
      },
    );
  };
  return (
    <Section title={t("teamsPage.settings")} icon={Shield} testId="team-settings">
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="rename-team" className={labelClass}>
            {t("teamsPage.nameLabel")}
          </label>
          <input
            id="rename-team"
            className={inputClass}
            value={value}
            maxLength={120}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "rename-error" : undefined}
            onChange={(event) => {
              setValue(event.target.value);
              setError(undefined);
            }}
          />
        </div>
        <button type="submit" className={buttonClass.secondary} disabled={rename.isPending}>
          {t("teamsPage.rename")}
        </button>
      </form>
      {error ? (
        <p id="rename-error" role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <div className="mt-6 rounded-lg border border-red-200 p-4 dark:border-red-900/60">
        <h3 className="font-semibold text-red-700 dark:text-red-300">{t("teamsPage.deleteTitleShort")}</h3>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("teamsPage.deleteHint")}</p>
        <button type="button" className={`${buttonClass.danger} mt-3`} onClick={onDelete}>
          <Trash2 className="size-4" aria-hidden="true" />
          {t("teamsPage.deleteConfirm")}
        </button>
      </div>
    </Section>
  );
}
