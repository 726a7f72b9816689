/**
 * Admin · Users: search, credits (adjusted with a reason, written to the credit ledger), roles,
 * unlocking a sign-in lockout, disabling and enabling an account. Every change asks first.
 */
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Ban, CheckCircle2, Coins, KeyRound, Lock, MoreVertical, Search, ShieldMinus, ShieldPlus, Unlock } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/trpc/root";
import { ROLE_PATTERN } from "../../../shared/constants";
import { useSession } from "../../hooks/useSession";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { inputClass } from "../auth/fields";
import { Spinner } from "../Spinner";
import { buttonClass, labelClass } from "../ui/buttons";
import { ConfirmDialog, FormDialog } from "../ui/Dialog";
import { AdjustCreditsDialog } from "./AdjustCreditsDialog";
import { Badge, EmptyNote, ErrorNote, Pager, Panel, useFormatters } from "./common";

type AdminUser = inferRouterOutputs<AppRouter>["admin"]["users"]["users"][number];

type DialogState =
  | { kind: "credits"; user: AdminUser }
  | { kind: "grant"; user: AdminUser }
  | { kind: "revoke"; user: AdminUser; role: string }
  | { kind: "unlock"; user: AdminUser }
  | { kind: "disable"; user: AdminUser; disabled: boolean }
  | null;

const PAGE_SIZE = 25;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const menuItem =
  "flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500 data-[highlighted]:bg-slate-100 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 dark:data-[highlighted]:bg-slate-800";

function UserActions({ user, isSelf, onAction }: { user: AdminUser; isSelf: boolean; onAction(state: DialogState): void }) {
  const { t } = useTranslation();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={buttonClass.icon} aria-label={t("admin.users.actionsFor", { email: user.email })}>
        <MoreVertical className="size-4" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-52 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <DropdownMenu.Item className={menuItem} onSelect={() => onAction({ kind: "credits", user })}>
            <Coins className="size-4" aria-hidden="true" />
            {t("admin.users.adjustCredits")}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={menuItem} onSelect={() => onAction({ kind: "grant", user })}>
            <ShieldPlus className="size-4" aria-hidden="true" />
            {t("admin.users.grantRole")}
          </DropdownMenu.Item>
          {user.roles.map((role) => (
            <DropdownMenu.Item
              key={role}
              className={menuItem}
              disabled={isSelf && role === "admin"}
              onSelect={() => onAction({ kind: "revoke", user, role })}
            >
              <ShieldMinus className="size-4" aria-hidden="true" />
              {t("admin.users.revokeRole", { role })}
            </DropdownMenu.Item>
          ))}
          {user.locked ? (
            <DropdownMenu.Item className={menuItem} onSelect={() => onAction({ kind: "unlock", user })}>
              <Unlock className="size-4" aria-hidden="true" />
              {t("admin.users.unlock")}
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200 dark:bg-slate-800" />
          {user.disabled ? (
            <DropdownMenu.Item className={menuItem} onSelect={() => onAction({ kind: "disable", user, disabled: false })}>
              <CheckCircle2 className="size-4" aria-hidden="true" />
              {t("admin.users.enable")}
            </DropdownMenu.Item>
          ) : (
            <DropdownMenu.Item
              className={`${menuItem} text-red-700 dark:text-red-300`}
              disabled={isSelf}
              onSelect={() => onAction({ kind: "disable", user, disabled: true })}
            >
              <Ban className="size-4" aria-hidden="true" />
              {t("admin.users.disable")}
            </DropdownMenu.Item>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function UsersSection() {
  const { t } = useTranslation();
  const format = useFormatters();
  const { user: me } = useSession();
  const utils = trpc.useUtils();
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const term = useDebounced(search.trim(), 300);
  const users = trpc.admin.users.useQuery(
    { search: term || undefined, limit: PAGE_SIZE, offset },
    { staleTime: 0, placeholderData: (previous) => previous },
  );
  const adjust = trpc.admin.adjustCredits.useMutation();
  const grant = trpc.admin.grantRole.useMutation();
  const revoke = trpc.admin.revokeRole.useMutation();
  const unlock = trpc.admin.unlockAccount.useMutation();
  const setDisabled = trpc.admin.setDisabled.useMutation();

  const [dialog, setDialog] = useState<DialogState>(null);
  const [role, setRole] = useState("admin");
  const [formError, setFormError] = useState<string>();

  useEffect(() => setOffset(0), [term]);

  const open = (next: DialogState) => {
    setFormError(undefined);
    setRole("admin");
    setDialog(next);
  };
  const close = (isOpen: boolean) => {
    if (!isOpen) setDialog(null);
  };
  const done = async (message: string) => {
    toast.success(message);
    setDialog(null);
    await utils.admin.users.invalidate();
  };

  const submitGrant = async () => {
    if (dialog?.kind !== "grant") return;
    const value = role.trim();
    if (!ROLE_PATTERN.test(value)) return setFormError(t("serverMessages.roleNotAllowed"));
    try {
      await grant.mutateAsync({ userId: dialog.user.id, role: value });
      await done(t("admin.users.roleGranted", { role: value, email: dialog.user.email }));
    } catch (caught) {
      setFormError(friendlyError(caught, t));
    }
  };

  const confirm = async () => {
    try {
      if (dialog?.kind === "revoke") {
        await revoke.mutateAsync({ userId: dialog.user.id, role: dialog.role });
        await done(t("admin.users.roleRevoked", { role: dialog.role, email: dialog.user.email }));
      } else if (dialog?.kind === "unlock") {
        await unlock.mutateAsync({ userId: dialog.user.id });
        await done(t("admin.users.unlocked", { email: dialog.user.email }));
      } else if (dialog?.kind === "disable") {
        await setDisabled.mutateAsync({ userId: dialog.user.id, disabled: dialog.disabled });
        await done(
          dialog.disabled
            ? t("admin.users.disabledToast", { email: dialog.user.email })
            : t("admin.users.enabledToast", { email: dialog.user.email }),
        );
      }
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  const confirmText = (() => {
    switch (dialog?.kind) {
      case "revoke":
        return {
          title: t("admin.users.revokeTitle", { role: dialog.role }),
          body: t("admin.users.revokeBody", { role: dialog.role, email: dialog.user.email }),
          label: t("admin.users.revokeConfirm"),
        };
      case "unlock":
        return {
          title: t("admin.users.unlockTitle"),
          body: t("admin.users.unlockBody", { email: dialog.user.email }),
          label: t("admin.users.unlock"),
        };
      case "disable":
        return dialog.disabled
          ? {
              title: t("admin.users.disableTitle"),
              body: t("admin.users.disableBody", { email: dialog.user.email }),
              label: t("admin.users.disable"),
            }
          : {
              title: t("admin.users.enableTitle"),
              body: t("admin.users.enableBody", { email: dialog.user.email }),
              label: t("admin.users.enable"),
            };
      default:
        return { title: "", body: "", label: "" };
    }
  })();

  const list = users.data?.users ?? [];

  return (
    <Panel
      title={t("admin.users.title")}
      description={users.data ? t("admin.users.count", { count: users.data.total }) : undefined}
      testId="admin-users"
      actions={
        <div className="relative w-full sm:w-72">
          <label htmlFor="user-search" className="sr-only">
            {t("admin.users.search")}
          </label>
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <input
            id="user-search"
            type="search"
            className={`${inputClass} pl-9`}
            placeholder={t("admin.users.searchPlaceholder")}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      }
    >
      {users.isLoading ? <Spinner label={t("common.loading")} /> : null}
      {users.error ? <ErrorNote>{friendlyError(users.error, t)}</ErrorNote> : null}
      {users.data && list.length === 0 ? <EmptyNote>{term ? t("admin.users.noMatch", { term }) : t("admin.users.none")}</EmptyNote> : null}
      {list.length > 0 ? (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          data-testid="admin-user-list"
        >
          {list.map((user) => {
            const isSelf = user.id === me?.id;
            return (
              <li key={user.id} className="flex items-start gap-3 px-3 py-3 sm:px-4" data-testid="admin-user" data-email={user.email}>
                <div className="min-w-0 flex-1 space-y-1">
                  <div className="flex flex-wrap items-center gap-1.5">
                    <p className="min-w-0 break-all font-medium">{user.email}</p>
                    {isSelf ? <Badge tone="brand">{t("admin.users.you")}</Badge> : null}
                    {user.roles.map((item) => (
                      <Badge key={item} tone={item === "admin" ? "brand" : "slate"}>
                        <KeyRound className="size-3" aria-hidden="true" />
                        {item}
                      </Badge>
                    ))}
                    {user.emailConfirmed ? null : <Badge tone="amber">{t("admin.users.unconfirmed")}</Badge>}
                    {user.locked ? (
                      <Badge tone="red">
                        <Lock className="size-3" aria-hidden="true" />
                        {user.lockedUntil
                          ? t("admin.users.lockedUntil", { time: format.dateTime(user.lockedUntil) })
                          : t("admin.users.locked")}
                      </Badge>
                    ) : null}
                    {user.disabled ? <Badge tone="red">{t("admin.users.disabled")}</Badge> : null}
                  </div>
                  <p className="truncate text-sm text-slate-600 dark:text-slate-300">{user.fullName}</p>
                  <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-500 dark:text-slate-400">
                    <span data-testid="admin-user-credits">
                      {t("admin.users.credits", { count: user.credits, formatted: format.number(user.credits) })}
                    </span>
                    <span>{t("admin.users.renders", { count: user.renders, formatted: format.number(user.renders) })}</span>
                    <span>{t("admin.users.joined", { date: format.date(user.createdAt) })}</span>
                  </p>
                </div>
                <UserActions user={user} isSelf={isSelf} onAction={open} />
              </li>
            );
          })}
        </ul>
      ) : null}
      {users.data ? <Pager offset={offset} limit={PAGE_SIZE} total={users.data.total} onChange={setOffset} /> : null}

      <AdjustCreditsDialog
        open={dialog?.kind === "credits"}
        onOpenChange={close}
        description={
          dialog?.kind === "credits"
            ? t("admin.users.adjustDescription", { email: dialog.user.email, credits: dialog.user.credits })
            : undefined
        }
        balance={dialog?.kind === "credits" ? dialog.user.credits : 0}
        idPrefix="credit"
        busy={adjust.isPending}
        onAdjust={async (amount, reason) => {
          if (dialog?.kind !== "credits") return;
          const result = await adjust.mutateAsync({ userId: dialog.user.id, amount, reason });
          await done(t("admin.users.creditsAdjusted", { email: dialog.user.email, credits: result.credits }));
        }}
      />

      <FormDialog
        open={dialog?.kind === "grant"}
        onOpenChange={close}
        title={t("admin.users.grantTitle")}
        description={dialog?.kind === "grant" ? t("admin.users.grantDescription", { email: dialog.user.email }) : undefined}
        submitLabel={t("admin.users.grantSubmit")}
        busy={grant.isPending}
        onSubmit={() => void submitGrant()}
      >
        <div>
          <label htmlFor="grant-role" className={labelClass}>
            {t("admin.users.role")}
          </label>
          <input
            id="grant-role"
            className={inputClass}
            value={role}
            maxLength={50}
            onChange={(event) => setRole(event.target.value)}
            autoComplete="off"
          />
        </div>
        {formError ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {formError}
          </p>
        ) : null}
      </FormDialog>

      <ConfirmDialog
        open={dialog?.kind === "revoke" || dialog?.kind === "unlock" || dialog?.kind === "disable"}
        onOpenChange={close}
        title={confirmText.title}
        description={confirmText.body}
        confirmLabel={confirmText.label}
        busy={revoke.isPending || unlock.isPending || setDisabled.isPending}
        onConfirm={() => void confirm()}
      />
    </Panel>
  );
}
