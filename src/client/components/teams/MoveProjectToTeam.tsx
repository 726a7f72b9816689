/**
 * "Move to a team" on a personal project's view (issue 28, decision 070): the project with its
 * renders, versions and files becomes the chosen team's, seen and worked on by its members. Shown
 * only to someone with a team; the server checks the project is theirs and that they are a member.
 */
import { Users } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useLocation } from "wouter";
import { useSession } from "../../hooks/useSession";
import { friendlyError } from "../../lib/friendlyError";
import { trpc } from "../../trpc";
import { buttonClass, labelClass, selectClass } from "../ui/buttons";
import { FormDialog } from "../ui/Dialog";

export function MoveProjectToTeam({ project }: { project: { id: string; name: string; teamId: string | null } }) {
  const { t } = useTranslation();
  const id = useId();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const { user } = useSession();
  const mine = trpc.teams.mine.useQuery(undefined, { enabled: user !== null });
  const move = trpc.projects.moveToTeam.useMutation();
  const [open, setOpen] = useState(false);
  const teams = mine.data?.teams ?? [];
  const [teamId, setTeamId] = useState<string>("");
  if (project.teamId !== null || teams.length === 0) return null;
  const chosen = teamId || teams[0]!.id;
  const team = teams.find((entry) => entry.id === chosen);

  const submit = async () => {
    try {
      await move.mutateAsync({ id: project.id, teamId: chosen });
      toast.success(t("moveToTeam.moved", { project: project.name, team: team?.name ?? "" }));
      setOpen(false);
      await utils.invalidate();
      navigate("/dashboard", { replace: true });
    } catch (caught) {
      toast.error(friendlyError(caught, t));
    }
  };

  return (
    <>
      <button type="button" className={buttonClass.secondary} onClick={() => setOpen(true)}>
        <Users className="size-4" aria-hidden="true" />
        {t("moveToTeam.button")}
      </button>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title={t("moveToTeam.title", { project: project.name })}
        description={t("moveToTeam.description")}
        submitLabel={t("moveToTeam.submit")}
        busy={move.isPending}
        onSubmit={() => void submit()}
      >
        <label htmlFor={id} className={labelClass}>
          {t("moveToTeam.team")}
        </label>
        <select id={id} className={selectClass} value={chosen} onChange={(event) => setTeamId(event.target.value)}>
          {teams.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
        </select>
      </FormDialog>
    </>
  );
}
