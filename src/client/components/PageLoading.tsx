import { useTranslation } from "react-i18next";
import { Spinner } from "./Spinner";

/** Shown while a lazily loaded page arrives (spec section 2: "Loading page..."). */
export function PageLoading() {
  const { t } = useTranslation();
  return <Spinner label={t("common.loadingPage")} testId="page-loading" />;
}
