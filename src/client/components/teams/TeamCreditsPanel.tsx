/**
 * A team's credits on its page (issue 28, decision 070): the balance and my use this month to every
 * member; to the Owner and Admins also moving their own credits in, buying for the team, each
 * member's monthly cap and use, the use per member and month, and the ledger. The server sends the
 * Owner's and Admins' parts only to them (teams.credits); this shows what it sent.
 */
import { Coins, CreditCard, History } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation } from "wouter";
import { monthIndexStart } from "../../../shared/months";
import { CREDIT_MOVE_MAX, MONTHLY_CAP_MAX } from "../../../shared/teams";
import { currentLanguage } from "../../i18n";
import { friendlyError } from "../../lib/friendlyError";
import { formatNumber } from "../../lib/numbers";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { Spinner } from "../Spinner";
import { buttonClass, cardClass, labelClass } from "../ui/buttons";

const tableClass = "w-full min-w-[32rem] text-left text-sm";
const cellClass = "py-2 pr-4 align-top";
const headClass = "py-2 pr-4 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400";

/** A month index (src/shared/months.ts) as "November 2026" in the interface's language. */
function monthName(language: string, month: number): string {
  return new Intl.DateTimeFormat(language, { month: "long", year: "numeric", timeZone: "UTC" }).format(monthIndexStart(month));
}

export function TeamCreditsPanel({ teamId }: { teamId: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const number = (value: number) => formatNumber(currentLanguage(), value);
  const credits = trpc.teams.credits.useQuery({ teamId });
  const headingIds = useId();
  if (credits.isLoading) return <Spinner label={t("common.loading")} />;
  if (!credits.data) {
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {credits.error ? friendlyError(credits.error, t) : null}
      </p>
    );
  }
  const data = credits.data;
  const names = new Map((data.members ?? []).map((member) => [member.userId, member.name || member.email]));
  const nameOf = (userId: string | null) => (userId ? (names.get(userId) ?? t("teamCredits.formerMember")) : t("teamCredits.formerMember"));

  return (
    <section className={`${cardClass} p-4 sm:p-6`} data-testid="team-credits">
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <Coins className="size-5 text-brand-600 dark:text-brand-100" aria-hidden="true" />
        {t("teamCredits.title")}
      </h2>
      <p className="mt-3 text-3xl font-bold tabular-nums" data-testid="team-balance">
        {t("teamCredits.balance", { count: data.balance, formatted: number(data.balance) })}
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="team-my-use">
        {data.mine.cap === null
          ? t("teamCredits.myUse", { count: data.mine.used, formatted: number(data.mine.used) })
          : t("teamCredits.myUseOfCap", { count: data.mine.used, formatted: number(data.mine.used), cap: number(data.mine.cap) })}
      </p>

      {data.members ? (
        <>
          <MoveCredits teamId={teamId} />
          <BuyForTeam teamId={teamId} />

          <h3 className="mt-6 font-semibold">{t("teamCredits.capsTitle")}</h3>
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("teamCredits.capsHint")}</p>
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
            {data.members.map((member) => (
              <MemberCap key={member.userId} teamId={teamId} member={member} number={number} />
            ))}
          </ul>

          <h3 id={`${headingIds}-use`} className="mt-6 font-semibold">
            {t("teamCredits.useTitle")}
          </h3>
          {data.use && data.use.length > 0 ? (
            // Wider than a phone: it scrolls sideways, and a keyboard reaches it to scroll it.
            <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-labelledby={`${headingIds}-use`}>
              <table className={tableClass} data-testid="team-use">
                <thead>
                  <tr>
                    <th className={headClass}>{t("teamCredits.month")}</th>
                    <th className={headClass}>{t("teamCredits.member")}</th>
                    <th className={headClass}>{t("teamCredits.renders")}</th>
                    <th className={headClass}>{t("teamCredits.edits")}</th>
                    <th className={headClass}>{t("teamCredits.creditsUsed")}</th>
                    <th className={headClass}>{t("teamCredits.refunded")}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                  {data.use.map((row) => (
                    <tr key={`${row.userId ?? ""}:${row.month}`}>
                      <td className={`${cellClass} whitespace-nowrap`}>{monthName(language, row.month)}</td>
                      <td className={`${cellClass} [overflow-wrap:anywhere]`}>{nameOf(row.userId)}</td>
                      <td className={`${cellClass} tabular-nums`}>{number(row.renders)}</td>
                      <td className={`${cellClass} tabular-nums`}>{number(row.edits)}</td>
                      <td className={`${cellClass} tabular-nums`}>{number(row.charged - row.refunded)}</td>
                      <td className={`${cellClass} tabular-nums`}>{number(row.refunds)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t("teamCredits.noUse")}</p>
          )}

          <h3 id={`${headingIds}-ledger`} className="mt-6 flex items-center gap-2 font-semibold">
            <History className="size-4" aria-hidden="true" />
            {t("teamCredits.ledgerTitle")}
          </h3>
          {data.ledger && data.ledger.length > 0 ? (
            <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-labelledby={`${headingIds}-ledger`}>
              <table className={tableClass} data-testid="team-ledger">
                <thead>
                  <tr>
                    <th className={headClass}>{t("teamCredits.when")}</th>
                    <th className={headClass}>{t("teamCredits.what")}</th>
                    <th className={headClass}>{t("teamCredits.member")}</th>
                    <th className={`${headClass} text-right`}>{t("teamCredits.amount")}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                  {data.ledger.map((row) => (
                    <tr key={row.id}>
                      <td className={`${cellClass} whitespace-nowrap`}>
                        {new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(row.at)}
                      </td>
                      <td className={cellClass}>{t(`teamCredits.kinds.${row.kind}`)}</td>
                      <td className={`${cellClass} [overflow-wrap:anywhere]`}>{row.userId ? nameOf(row.userId) : "—"}</td>
                      <td
                        className={`${cellClass} text-right font-semibold tabular-nums ${row.amount > 0 ? "text-emerald-700 dark:text-emerald-400" : ""}`}
                      >
                        {row.amount > 0 ? `+${number(row.amount)}` : `−${number(-row.amount)}`}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t("teamCredits.noLedger")}</p>
          )}
        </>
      ) : null}
    </section>
  );
}

function MoveCredits({ teamId }: { teamId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const utils = trpc.useUtils();
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const move = trpc.teams.moveCredits.useMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = Number(amount);
    if (!Number.isInteger(value) || value < 1 || value > CREDIT_MOVE_MAX) {
      setError(t("teamCredits.moveInvalid"));
      return;
    }
    setError(null);
    try {
      const moved = await move.mutateAsync({ teamId, amount: value });
      toast.success(t("teamCredits.moved", { count: value, personal: moved.personal }));
      setAmount("");
      await Promise.all([utils.teams.invalidate(), utils.render.allowance.invalidate(), utils.account.invalidate()]);
    } catch (caught) {
      setError(friendlyError(caught, t));
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="mt-5 flex flex-wrap items-end gap-3" data-testid="move-credits">
      <div className="w-40">
        <label htmlFor={id} className={labelClass}>
          {t("teamCredits.moveLabel")}
        </label>
        <input
          id={id}
          inputMode="numeric"
          className={inputClass}
          value={amount}
          onChange={(event) => setAmount(event.target.value.replace(/\D/g, ""))}
          aria-invalid={error !== null}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      <button type="submit" className={buttonClass.secondary} disabled={move.isPending}>
        {t("teamCredits.move")}
      </button>
      {error ? (
        <p id={`${id}-error`} role="alert" className="w-full text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** Buying goes to the team while it is the space the buyer works in: switch, then the packages. */
function BuyForTeam({ teamId }: { teamId: string }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const mine = trpc.teams.mine.useQuery();
  const switchSpace = trpc.teams.switchSpace.useMutation();
  const buy = async () => {
    try {
      if (mine.data?.current !== teamId) await switchSpace.mutateAsync({ teamId });
      await utils.invalidate();
      navigate("/pricing");
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };
  return (
    <div className="mt-3">
      <button type="button" className={buttonClass.secondary} onClick={() => void buy()} disabled={switchSpace.isPending}>
        <CreditCard className="size-4" aria-hidden="true" />
        {t("teamCredits.buy")}
      </button>
      <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t("teamCredits.buyHint")}</p>
    </div>
  );
}

function MemberCap({
  teamId,
  member,
  number,
}: {
  teamId: string;
  member: { userId: string; name: string; email: string; monthlyCap: number | null; usedThisMonth: number };
  number(value: number): string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const utils = trpc.useUtils();
  const [cap, setCap] = useState(member.monthlyCap === null ? "" : String(member.monthlyCap));
  const setMonthlyCap = trpc.teams.setMonthlyCap.useMutation();
  const who = member.name || member.email;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const value = cap === "" ? null : Number(cap);
    if (value !== null && (!Number.isInteger(value) || value > MONTHLY_CAP_MAX)) {
      toast.error(t("teamCredits.capInvalid"));
      return;
    }
    try {
      await setMonthlyCap.mutateAsync({ teamId, userId: member.userId, cap: value });
      toast.success(
        value === null ? t("teamCredits.capRemoved", { name: who }) : t("teamCredits.capSaved", { name: who, cap: number(value) }),
      );
      await utils.teams.invalidate();
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center" data-testid="member-cap">
      <div className="min-w-0 flex-1">
        <p className="font-medium [overflow-wrap:anywhere]">{who}</p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("teamCredits.usedThisMonth", { count: member.usedThisMonth, formatted: number(member.usedThisMonth) })}
        </p>
      </div>
      <form onSubmit={(event) => void save(event)} noValidate className="flex items-end gap-2">
        <div className="w-32">
          <label htmlFor={id} className="sr-only">
            {t("teamCredits.capOf", { name: who })}
          </label>
          <input
            id={id}
            inputMode="numeric"
            placeholder={t("teamCredits.noCap")}
            className={inputClass}
            value={cap}
            onChange={(event) => setCap(event.target.value.replace(/\D/g, ""))}
          />
        </div>
        <button type="submit" className={buttonClass.secondary} disabled={setMonthlyCap.isPending}>
          {t("teamCredits.saveCap")}
        </button>
      </form>
    </li>
  );
}
