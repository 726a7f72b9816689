/** What an edit or a paint costs, the credits left and, when they are too few, a way to buy more. */
import { useTranslation } from "react-i18next";
import { Link } from "wouter";
import { linkClass } from "../ui/buttons";

export function PriceNote({
  price,
  credits,
  short,
  testId,
  creditsTestId,
}: {
  /** The price, as the form says it ("This edit uses 1 credit.", "Each colour is free…"). */
  price: string;
  /** The user's credits in the space they work in; null while unknown. */
  credits: number | null;
  /** Too few credits for what is asked: the note offers to buy more. */
  short: boolean;
  testId: string;
  creditsTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60" data-testid={testId}>
      <p className="font-medium">{price}</p>
      {credits !== null ? (
        <p className="text-slate-600 dark:text-slate-300" data-testid={creditsTestId}>
          {t("studio.credits", { count: credits })}
          {short ? (
            <>
              {" · "}
              <Link href="/pricing" className={linkClass}>
                {t("studio.buyCredits")}
              </Link>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
