/**
 * Admin · Credits: the credit packages on sale, created, edited and retired by the admin (issue 16).
 * What was already bought keeps the credits and price it was sold at; every change is audited.
 */
import { Archive, ArchiveRestore, Pencil, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { CURRENCIES, LICENCES, creditPackageInputSchema, type CreditPackageInput } from "../../../shared/credit-packages";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { Spinner } from "../Spinner";
import { FormDialog } from "../ui/Dialog";
import { buttonClass, labelClass, selectClass } from "../ui/buttons";
import { Badge, ErrorNote, Panel, useFormatters } from "./common";

interface FormState {
  name: string;
  credits: string;
  price: string;
  currency: CreditPackageInput["currency"];
  licence: CreditPackageInput["licence"];
}

const EMPTY: FormState = { name: "", credits: "", price: "", currency: "usd", licence: "commercial" };

/** "29.00" or "29,00" → 2900; anything else → NaN (the schema says what is wrong). */
function priceCents(text: string): number {
  const match = /^\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0")) : Number.NaN;
}

export function CreditPackagesSection() {
  const { t } = useTranslation();
  const format = useFormatters();
  const utils = trpc.useUtils();
  const packages = trpc.admin.creditPackages.useQuery(undefined, { staleTime: 0 });
  const create = trpc.admin.createCreditPackage.useMutation();
  const update = trpc.admin.updateCreditPackage.useMutation();
  const retire = trpc.admin.setCreditPackageRetired.useMutation();
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const money = (cents: number, currency: string) =>
    new Intl.NumberFormat(format.language, { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
  const nameOf = (pack: { id: string; name: string | null }) => pack.name ?? t(`pricing.packages.${pack.id}`, { defaultValue: pack.id });

  const refresh = () => Promise.all([utils.admin.creditPackages.invalidate(), utils.billing.packages.invalidate()]);
  const open = (pack?: {
    id: string;
    name: string | null;
    credits: number;
    priceCents: number;
    currency: "usd" | "eur";
    licence: "personal" | "commercial";
  }) => {
    setFormError(null);
    setForm(
      pack
        ? {
            name: nameOf(pack),
            credits: String(pack.credits),
            price: (pack.priceCents / 100).toFixed(2),
            currency: pack.currency,
            licence: pack.licence,
          }
        : EMPTY,
    );
    setEditing({ id: pack?.id ?? null });
  };
  const submit = async () => {
    const parsed = creditPackageInputSchema.safeParse({
      name: form.name,
      credits: Number(form.credits),
      priceCents: priceCents(form.price),
      currency: form.currency,
      licence: form.licence,
    });
    if (!parsed.success) return setFormError(friendlyError(parsed.error.issues[0]!, t));
    try {
      if (editing?.id) await update.mutateAsync({ id: editing.id, ...parsed.data });
      else await create.mutateAsync(parsed.data);
      toast.success(t(editing?.id ? "admin.packages.saved" : "admin.packages.created", { name: parsed.data.name }));
      setEditing(null);
      await refresh();
    } catch (error) {
      setFormError(friendlyError(error, t));
    }
  };
  const setRetired = async (id: string, name: string, retired: boolean) => {
    try {
      await retire.mutateAsync({ id, retired });
      toast.success(t(retired ? "admin.packages.retiredToast" : "admin.packages.restoredToast", { name }));
      await refresh();
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };

  return (
    <Panel title={t("admin.packages.title")} description={t("admin.packages.description")} testId="admin-packages">
      {packages.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {packages.error ? <ErrorNote>{friendlyError(packages.error, t)}</ErrorNote> : null}
      {packages.data ? (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {packages.data.map((pack) => (
            <li
              key={pack.id}
              className="flex flex-col gap-3 px-3 py-3 sm:flex-row sm:items-center sm:px-4"
              data-testid={`admin-package-${pack.id}`}
            >
              <div className="min-w-0 sm:flex-1">
                <p className="flex flex-wrap items-center gap-1.5 font-medium">
                  <span className="min-w-0 break-words">{nameOf(pack)}</span>
                  {pack.retiredAt ? (
                    <Badge tone="amber">{t("admin.packages.retired")}</Badge>
                  ) : (
                    <Badge tone="green">{t("admin.packages.onSale")}</Badge>
                  )}
                  <Badge>{t(`pricing.licence.${pack.licence}`)}</Badge>
                </p>
                <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="admin-package-terms">
                  {t("admin.packages.terms", { credits: pack.credits, price: money(pack.priceCents, pack.currency) })}
                  {" · "}
                  {t("admin.packages.sold", { count: pack.sold })}
                </p>
              </div>
              <div className="flex shrink-0 gap-2">
                <button type="button" className={`${buttonClass.secondary} py-2`} onClick={() => open(pack)}>
                  <Pencil className="size-4" aria-hidden="true" />
                  {t("admin.packages.edit")}
                  <span className="sr-only"> {nameOf(pack)}</span>
                </button>
                <button
                  type="button"
                  className={`${buttonClass.ghost}`}
                  onClick={() => void setRetired(pack.id, nameOf(pack), pack.retiredAt === null)}
                  disabled={retire.isPending}
                >
                  {pack.retiredAt === null ? (
                    <Archive className="size-4" aria-hidden="true" />
                  ) : (
                    <ArchiveRestore className="size-4" aria-hidden="true" />
                  )}
                  {pack.retiredAt === null ? t("admin.packages.retire") : t("admin.packages.restore")}
                  <span className="sr-only"> {nameOf(pack)}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {packages.data ? (
        <button type="button" className={`${buttonClass.primary} mt-4`} onClick={() => open()}>
          <Plus className="size-4" aria-hidden="true" />
          {t("admin.packages.new")}
        </button>
      ) : null}

      <FormDialog
        open={editing !== null}
        onOpenChange={(isOpen) => (isOpen ? undefined : setEditing(null))}
        title={editing?.id ? t("admin.packages.editTitle") : t("admin.packages.newTitle")}
        description={t("admin.packages.formDescription")}
        submitLabel={t("admin.packages.save")}
        busy={create.isPending || update.isPending}
        onSubmit={() => void submit()}
      >
        <div>
          <label htmlFor="package-name" className={labelClass}>
            {t("admin.packages.name")}
          </label>
          <input
            id="package-name"
            className={inputClass}
            value={form.name}
            maxLength={60}
            onChange={(event) => setForm({ ...form, name: event.target.value })}
            autoComplete="off"
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor="package-credits" className={labelClass}>
              {t("admin.packages.credits")}
            </label>
            <input
              id="package-credits"
              className={inputClass}
              inputMode="numeric"
              value={form.credits}
              onChange={(event) => setForm({ ...form, credits: event.target.value.replace(/[^\d]/g, "") })}
              autoComplete="off"
            />
          </div>
          <div>
            <label htmlFor="package-price" className={labelClass}>
              {t("admin.packages.price")}
            </label>
            <input
              id="package-price"
              className={inputClass}
              inputMode="decimal"
              value={form.price}
              onChange={(event) => setForm({ ...form, price: event.target.value.replace(/[^\d.,]/g, "") })}
              autoComplete="off"
            />
          </div>
          <div>
            <label htmlFor="package-currency" className={labelClass}>
              {t("admin.packages.currency")}
            </label>
            <select
              id="package-currency"
              className={selectClass}
              value={form.currency}
              onChange={(event) => setForm({ ...form, currency: event.target.value as FormState["currency"] })}
            >
              {CURRENCIES.map((currency) => (
                <option key={currency} value={currency}>
                  {currency.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="package-licence" className={labelClass}>
              {t("admin.packages.licence")}
            </label>
            <select
              id="package-licence"
              className={selectClass}
              value={form.licence}
              onChange={(event) => setForm({ ...form, licence: event.target.value as FormState["licence"] })}
            >
              {LICENCES.map((licence) => (
                <option key={licence} value={licence}>
                  {t(`pricing.licence.${licence}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {formError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {formError}
          </p>
        ) : null}
      </FormDialog>
    </Panel>
  );
}
