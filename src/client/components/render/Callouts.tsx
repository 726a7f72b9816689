/** Notes the render flow repeats: the engine in use, the visitor's free demo, sign-up and credits. */
import { Gift, MailWarning, Sparkles, UserPlus } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "wouter";

import { useResendConfirmation } from "../../hooks/useResendConfirmation";
import { useSession } from "../../hooks/useSession";
import { SIGN_UP_HREF } from "../../lib/authLinks";
import type { Allowance } from "../../lib/renderTypes";
import { buttonClass } from "../ui/buttons";
import { currentStudio } from "../../lib/studio";

// Their homes are apart (the landing page's first load needs them without the rest of these notes).
export { SIGN_UP_HREF };
export { EngineNote } from "./EngineNote";

/** A boxed message with an icon, a title, a text and actions. */
export function Callout({
  tone = "brand",
  icon,
  title,
  children,
  actions,
  testId,
}: {
  tone?: "brand" | "amber" | "red";
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  const tones = {
    brand: "border-brand-100 bg-brand-50 text-slate-800 dark:border-brand-700/40 dark:bg-brand-700/15 dark:text-slate-100",
    amber: "border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100",
    red: "border-red-200 bg-red-50 text-red-950 dark:border-red-900/60 dark:bg-red-950/30 dark:text-red-100",
  };
  return (
    <div className={`rounded-xl border p-4 ${tones[tone]}`} data-testid={testId}>
      <div className="flex items-start gap-3">
        {icon ? <span className="mt-0.5 shrink-0">{icon}</span> : null}
        <div className="min-w-0 flex-1">
          <p className="font-semibold">{title}</p>
          {children ? <div className="mt-1 text-sm opacity-90">{children}</div> : null}
          {actions ? <div className="mt-3 flex flex-wrap gap-2">{actions}</div> : null}
        </div>
      </div>
    </div>
  );
}

/**
 * True when the cost fits the balance only with the free credits an unconfirmed account keeps
 * until its address is confirmed (engines that bill each render); the server holds the same line.
 */
export function waitsForConfirmation(allowance: Allowance | undefined, cost: number): boolean {
  if (!allowance?.signedIn || allowance.credits === null) return false;
  return cost <= allowance.credits && cost > allowance.credits - allowance.freeCreditsLocked;
}

/**
 * An unconfirmed account on an engine that bills each render: its free credits wait for the
 * confirmed address (the server holds the same line), and the confirmation mail can be sent again.
 */
export function FreeCreditsLockedCallout({ count, engine }: { count: number; engine: Allowance["engine"] }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { resend, isPending } = useResendConfirmation();
  return (
    <Callout
      tone="amber"
      testId="free-credits-locked"
      icon={<MailWarning className="size-5" aria-hidden="true" />}
      title={t("serverMessages.freeCreditsNeedConfirmation")}
      actions={
        user ? (
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => void resend(user.email)}
            disabled={isPending}
            aria-busy={isPending || undefined}
          >
            {isPending ? t("verifyBanner.sending") : t("verifyBanner.resend")}
          </button>
        ) : null
      }
    >
      {t("flow.freeCreditsLocked", { count, engine: engine.label })}
    </Callout>
  );
}

/** Why a visitor has no free demo render now: used in this browser, or this address's demos for today. */
export type DemoRefusal = NonNullable<Allowance["demoRefusal"]>;

const REFUSAL_TEXTS: Record<DemoRefusal, { title: string; reason: string; short: string }> = {
  used: { title: "flow.demoUsedTitle", reason: "flow.demoUsedReason", short: "flow.demoUsedShort" },
  "address-limit": { title: "flow.demoAddressLimitTitle", reason: "flow.demoAddressLimitReason", short: "flow.demoAddressLimitShort" },
};

/** The line that says why the visitor's free demo is not theirs now (where a sign-up call to action is already shown). */
export function DemoRefusedLine({ refusal }: { refusal: DemoRefusal }) {
  const { t } = useTranslation();
  return (
    <p
      className="flex items-start gap-2 text-sm font-medium text-amber-900 dark:text-amber-100"
      data-testid="demo-refused"
      data-refusal={refusal}
    >
      <Gift className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {t(REFUSAL_TEXTS[refusal].title)}
    </p>
  );
}

/** The visitor's free demo is not theirs now: why, and the way on (sign up, or sign in). */
export function DemoRefusedCallout({ refusal }: { refusal: DemoRefusal }) {
  const { t } = useTranslation();
  const texts = REFUSAL_TEXTS[refusal];
  return (
    <div data-testid="demo-refused" data-refusal={refusal}>
      <SignUpCallout tone="amber" title={t(texts.title)} body={t(texts.reason, { credits: currentStudio().signUpCredits })} />
    </div>
  );
}

/** For a visitor: sign up (10 free credits, saved projects) or sign in. */
export function SignUpCallout({ title, body, tone = "brand" }: { title: string; body?: string; tone?: "brand" | "amber" }) {
  const { t } = useTranslation();
  return (
    <Callout
      tone={tone}
      testId="sign-up-callout"
      icon={<UserPlus className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />}
      title={title}
      actions={
        <>
          <Link href={SIGN_UP_HREF} className={buttonClass.primary}>
            {t("flow.signUp")}
          </Link>
          <Link href="/auth" className={buttonClass.secondary}>
            {t("nav.signIn")}
          </Link>
        </>
      }
    >
      {body ?? t("flow.signUpBenefits", { credits: currentStudio().signUpCredits })}
    </Callout>
  );
}

/** Where the user stands: credits left, or the visitor's free demo render. */
export function AllowanceNote({ allowance }: { allowance: Allowance }) {
  const { t } = useTranslation();
  if (allowance.signedIn) {
    return (
      <p className="inline-flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-testid="credits-left">
        <Sparkles className="size-4 text-accent-500" aria-hidden="true" />
        <span className="font-semibold">
          {/* In a team's space, renders are paid from the team's balance (decision 070). */}
          {t(allowance.teamId ? "teamSpace.creditsLeft" : "flow.creditsLeft", { count: allowance.credits ?? 0 })}
        </span>
        <Link href="/pricing" className="font-medium text-brand-600 hover:underline dark:text-brand-100">
          {t("flow.buyCredits")}
        </Link>
      </p>
    );
  }
  return (
    <p className="inline-flex items-center gap-2 text-sm font-semibold" data-testid="credits-left">
      <Gift className="size-4 text-accent-500" aria-hidden="true" />
      {allowance.demoAvailable ? t("flow.demoAvailable") : t(REFUSAL_TEXTS[allowance.demoRefusal ?? "used"].short)}
    </p>
  );
}
