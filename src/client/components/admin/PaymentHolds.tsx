/**
 * Admin · payments held for review (issue 14): a paid Stripe Checkout whose amount or currency
 * was not its package's grants nothing until an admin credits it anyway or dismisses it (and
 * refunds it in Stripe's dashboard). Shown above every tab of /admin while any hold is open;
 * nothing at all when there is none.
 */
import type { inferRouterOutputs } from "@trpc/server";
import { AlertTriangle, Ban, BadgeCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import type { AppRouter } from "../../../server/trpc/root";
import { formatMoney } from "../../lib/format";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { buttonClass } from "../ui/buttons";
import { ConfirmDialog } from "../ui/Dialog";
import { useFormatters } from "./common";

type Hold = inferRouterOutputs<AppRouter>["admin"]["paymentHolds"][number];
type Pending = { kind: "credit" | "dismiss"; hold: Hold };

export function PaymentHoldsAlert() {
  const { t } = useTranslation();
  const format = useFormatters();
  const utils = trpc.useUtils();
  // A webhook may hold a payment at any time: asked again while the page is open.
  const holds = trpc.admin.paymentHolds.useQuery(undefined, { staleTime: 0, refetchInterval: 30_000 });
  const credit = trpc.admin.creditHeldPayment.useMutation();
  const dismiss = trpc.admin.dismissHeldPayment.useMutation();
  const [pending, setPending] = useState<Pending | null>(null);

  const list = holds.data ?? [];
  if (list.length === 0) return null;

  const money = (cents: number | null, currency: string | null) =>
    cents === null || currency === null ? t("admin.holds.noAmount") : formatMoney(cents, currency, format.language);
  const texts = (hold: Hold) => ({
    email: hold.email ?? hold.userId,
    name: t(`pricing.packages.${hold.packageId}`, { defaultValue: hold.packageId }),
    count: hold.credits,
    price: money(hold.priceCents, hold.currency),
    paid: money(hold.paidCents, hold.paidCurrency),
  });

  const onConfirm = async () => {
    if (!pending) return;
    const { kind, hold } = pending;
    try {
      if (kind === "credit") {
        const { credits } = await credit.mutateAsync({ id: hold.purchaseId });
        toast.success(t("admin.holds.credited", { email: texts(hold).email, count: credits }));
      } else {
        await dismiss.mutateAsync({ id: hold.purchaseId });
        toast.success(t("admin.holds.dismissed", { email: texts(hold).email }));
      }
      setPending(null);
    } catch (caught) {
      // Another admin, or a refund at Stripe, may have resolved it first: the list says so once refreshed.
      toast.error(friendlyError(caught, t));
      setPending(null);
    }
    await Promise.all([utils.admin.paymentHolds.invalidate(), utils.admin.users.invalidate()]);
  };

  return (
    <section
      aria-labelledby="payment-holds-title"
      className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 shadow-sm dark:border-amber-800/70 dark:bg-amber-950/30 dark:text-amber-100"
      data-testid="payment-holds"
    >
      <div className="flex items-start gap-3">
        <AlertTriangle className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-300" aria-hidden="true" />
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <h2 id="payment-holds-title" className="font-semibold" data-testid="payment-holds-title">
              {t("admin.holds.title", { count: list.length })}
            </h2>
            <p className="mt-0.5 text-sm opacity-90">{t("admin.holds.body")}</p>
          </div>
          <ul className="divide-y divide-amber-200 rounded-lg border border-amber-200 bg-white/80 dark:divide-amber-900/60 dark:border-amber-900/60 dark:bg-slate-900/60">
            {list.map((hold) => {
              const text = texts(hold);
              return (
                <li
                  key={hold.purchaseId}
                  className="flex flex-col gap-3 px-3 py-3 sm:flex-row sm:items-center sm:px-4"
                  data-testid="payment-hold"
                  data-purchase-id={hold.purchaseId}
                >
                  <div className="min-w-0 flex-1 space-y-0.5">
                    <p className="truncate font-medium">{text.email}</p>
                    <p className="text-sm">{t("admin.holds.package", { name: text.name, count: text.count })}</p>
                    <p className="text-sm font-medium tabular-nums" data-testid="payment-hold-amounts">
                      {t("admin.holds.amounts", { price: text.price, paid: text.paid })}
                    </p>
                    <p className="flex flex-wrap gap-x-3 text-xs opacity-80">
                      <span>{t("admin.holds.heldAt", { date: format.dateTime(hold.heldAt) })}</span>
                      <span className="break-all font-mono">{hold.checkoutSessionId}</span>
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    <button
                      type="button"
                      className={`${buttonClass.secondary} px-3 py-1.5`}
                      onClick={() => setPending({ kind: "credit", hold })}
                    >
                      <BadgeCheck className="size-4" aria-hidden="true" />
                      {t("admin.holds.credit")}
                    </button>
                    <button
                      type="button"
                      className={`${buttonClass.dangerOutline} px-3 py-1.5`}
                      onClick={() => setPending({ kind: "dismiss", hold })}
                    >
                      <Ban className="size-4" aria-hidden="true" />
                      {t("admin.holds.dismiss")}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={pending?.kind === "dismiss" ? t("admin.holds.dismissTitle") : t("admin.holds.creditTitle")}
        description={
          pending === null
            ? ""
            : pending.kind === "dismiss"
              ? t("admin.holds.dismissBody", texts(pending.hold))
              : t("admin.holds.creditBody", texts(pending.hold))
        }
        confirmLabel={pending?.kind === "dismiss" ? t("admin.holds.dismiss") : t("admin.holds.credit")}
        busy={credit.isPending || dismiss.isPending}
        onConfirm={() => void onConfirm()}
      />
    </section>
  );
}
