/**
 * /invite?token=… (issue 28): an invitation into a team, opened from its mail. The token travels in
 * the query, as the other mail links' do, so the access log (paths only) never holds it. It shows the team
 * and who invites; signed in with the invited address, "Join team"; signed out, sign in or sign up
 * with the address filled in, coming back here afterwards (returnTo); another account is told which
 * address the invitation is for. An expired, used, revoked or unknown link says so.
 */
import { MailX, Users } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation, useSearch } from "wouter";
import { STORAGE_KEYS } from "../../shared/constants";
import { Spinner } from "../components/Spinner";
import { buttonClass, cardClass } from "../components/ui/buttons";
import { useSession } from "../hooks/useSession";
import { useSignOut } from "../hooks/useSignOut";
import { AUTH_LINKS } from "../lib/authLinks";
import { friendlyError } from "../lib/friendlyError";
import { trpc } from "../trpc";

const STATE_MESSAGES = {
  expired: "serverMessages.teamInvitationExpired",
  used: "serverMessages.teamInvitationUsed",
  revoked: "serverMessages.teamInvitationRevoked",
} as const;

function Frame({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <section className="mx-auto w-full max-w-lg px-4 py-10 sm:py-16">
      <div className={`${cardClass} p-6 text-center sm:p-8`} data-testid={testId}>
        {children}
      </div>
    </section>
  );
}

export default function InvitePage() {
  const { t } = useTranslation();
  const search = useSearch();
  const token = new URLSearchParams(search).get("token") ?? "";
  const [location, navigate] = useLocation();
  // The page's whole address (wouter's location is the path alone), to come back to.
  const here = `${location}?${search}`;
  const { user, isLoading: sessionLoading } = useSession();
  const { signOut, isPending: signingOut } = useSignOut();
  const utils = trpc.useUtils();
  const invitation = trpc.teams.invitation.useQuery({ token }, { retry: false, enabled: token !== "" });
  const accept = trpc.teams.acceptInvitation.useMutation({
    onSuccess: (joined) => {
      toast.success(t("invitePage.joined", { team: joined.teamName }));
      // The user works in the team now: every query follows.
      void utils.invalidate();
      navigate(`/teams?team=${encodeURIComponent(joined.teamId)}`);
    },
    onError: (caught) => toast.error(friendlyError(caught, t)),
  });

  if ((token !== "" && invitation.isLoading) || sessionLoading) return <Spinner label={t("common.loading")} />;
  const view = invitation.data;
  if (!view || invitation.error) {
    return (
      <Frame testId="invite-invalid">
        <MailX className="mx-auto size-10 text-slate-400" aria-hidden="true" />
        <h1 className="mt-3 text-xl font-semibold">{t("invitePage.invalidTitle")}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          {invitation.error ? friendlyError(invitation.error, t) : t("invitePage.invalidText")}
        </p>
      </Frame>
    );
  }
  if (view.state !== "pending") {
    return (
      <Frame testId="invite-closed">
        <MailX className="mx-auto size-10 text-slate-400" aria-hidden="true" />
        <h1 className="mt-3 text-xl font-semibold [overflow-wrap:anywhere]">{t("invitePage.closedTitle", { team: view.teamName })}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400" data-state={view.state}>
          {t(STATE_MESSAGES[view.state])}
        </p>
      </Frame>
    );
  }

  const toAuth = (signUp: boolean) => {
    try {
      // Back here once signed in (the auth page reads it once; only a path of this site).
      sessionStorage.setItem(STORAGE_KEYS.returnTo, here);
    } catch {
      // Without storage the user comes back through the link in the mail.
    }
    const params = new URLSearchParams({ [AUTH_LINKS.emailParam]: view.email });
    if (signUp) params.set(AUTH_LINKS.tabParam, AUTH_LINKS.signUpTab);
    navigate(`/auth?${params.toString()}`);
  };
  const rightAccount = user !== null && user.email.toLowerCase() === view.email.toLowerCase();

  return (
    <Frame testId="invite-pending">
      <Users className="mx-auto size-10 text-brand-600 dark:text-brand-100" aria-hidden="true" />
      <h1 className="mt-3 text-2xl font-bold tracking-tight [overflow-wrap:anywhere]">{t("invitePage.title", { team: view.teamName })}</h1>
      <p className="mt-3 text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
        {t("invitePage.text", {
          inviter: view.inviterName || t("invitePage.someone"),
          team: view.teamName,
          role: t(`teamsPage.roles.${view.role}`),
        })}
      </p>
      <p className="mt-2 text-sm text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">
        {t("invitePage.forAddress", { email: view.email })}
      </p>

      <div className="mt-6 flex flex-col gap-2">
        {rightAccount ? (
          <button type="button" className={buttonClass.big} disabled={accept.isPending} onClick={() => accept.mutate({ token })}>
            {t("invitePage.join")}
          </button>
        ) : user ? (
          <>
            <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-900/30 dark:text-amber-100">
              {t("serverMessages.teamInvitationOtherAccount", { email: view.email })}
            </p>
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={signingOut}
              onClick={() => void signOut().then(() => navigate(location))}
            >
              {t("invitePage.signOut")}
            </button>
          </>
        ) : (
          <>
            <button type="button" className={buttonClass.primary} onClick={() => toAuth(false)}>
              {t("invitePage.signIn")}
            </button>
            <button type="button" className={buttonClass.secondary} onClick={() => toAuth(true)}>
              {t("invitePage.signUp")}
            </button>
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t("invitePage.accountHint", { email: view.email })}</p>
          </>
        )}
      </div>
    </Frame>
  );
}
