/**
 * A project's client (issue 28, decision 072), for a project's view: who keeps the space's clients
 * (Owner and Admins of a team, the owner of a personal project) picks one of the space's clients or
 * none; a Member reads its name only (the server sends nothing more).
 */
import { Contact } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Link } from "wouter";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { labelClass, linkClass, selectClass } from "../ui/buttons";

export function ProjectClientPicker({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const utils = trpc.useUtils();
  const current = trpc.clients.ofProject.useQuery({ projectId }, { retry: false });
  const canManage = current.data?.canManage === true;
  const choices = trpc.clients.list.useQuery(undefined, { enabled: canManage });
  const link = trpc.clients.setProjectClient.useMutation();

  if (!current.data) return null;
  const client = current.data.client;
  // The choices are the current space's clients: a project of another space is changed from there.
  const sameSpace = choices.data !== undefined && choices.data.teamId === current.data.teamId;

  const choose = async (clientId: string) => {
    try {
      await link.mutateAsync({ projectId, clientId: clientId === "" ? null : clientId });
      toast.success(t("clients.picker.saved"));
      await utils.clients.ofProject.invalidate({ projectId });
    } catch (error) {
      toast.error(friendlyError(error, t));
    }
  };

  if (!canManage || !sameSpace) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="project-client">
        <Contact className="size-4 text-slate-400 dark:text-slate-500" aria-hidden="true" />
        <span className="text-slate-600 dark:text-slate-400">{t("clients.picker.label")}:</span>
        <span className="font-medium [overflow-wrap:anywhere]">{client ? client.name : t("clients.picker.none")}</span>
        {canManage && choices.data ? <span className="text-slate-500 dark:text-slate-400">{t("clients.picker.otherSpace")}</span> : null}
      </div>
    );
  }

  return (
    <div className="space-y-1" data-testid="project-client">
      <label htmlFor={id} className={labelClass}>
        {t("clients.picker.label")}
      </label>
      <select
        id={id}
        className={selectClass}
        value={client?.id ?? ""}
        disabled={link.isPending}
        onChange={(event) => void choose(event.target.value)}
      >
        <option value="">{t("clients.picker.none")}</option>
        {choices.data!.clients.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </select>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {choices.data!.clients.length === 0 ? `${t("clients.picker.noClients")} ` : null}
        <Link href="/clients" className={linkClass}>
          {t("clients.picker.manage")}
        </Link>
      </p>
    </div>
  );
}
