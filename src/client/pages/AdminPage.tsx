/**
 * /admin (protected; admins only — the server checks the role on every call too): Users, Teams,
 * Render jobs, Credits, Studio (brand, free credits, engine), Mail outbox, System status, Self-test history and Analytics, one tab each; the
 * open tab is kept in the address (?section=) so it can be linked and reloaded. Payments held for
 * review (amount or currency not the package's) are shown above every tab.
 */
import { BarChart3, Coins, Flag, FlaskConical, Images, Mail, Palette, Server, Users, UsersRound } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearch } from "wouter";
import { AccessDenied } from "../components/admin/QuickAdminBar";
import { AnalyticsSection } from "../components/admin/AnalyticsSection";
import { JobsSection } from "../components/admin/JobsSection";
import { PaymentHoldsAlert } from "../components/admin/PaymentHolds";
import { BackupsSection } from "../components/admin/BackupsSection";
import { CommunitySection } from "../components/admin/CommunitySection";
import { CreditPackagesSection } from "../components/admin/CreditPackagesSection";
import { HousekeepingSection } from "../components/admin/HousekeepingSection";
import { StudioSettingsSection } from "../components/admin/StudioSettingsSection";
import { TeamsSection } from "../components/admin/TeamsSection";
import { OutboxSection, SelfTestSection, SystemSection } from "../components/admin/SystemSections";
import { UsersSection } from "../components/admin/UsersSection";
import { PageShell } from "../components/render/PageShell";
import { Spinner } from "../components/Spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/Tabs";
import { useRoles } from "../hooks/useRoles";

const SECTIONS = ["users", "teams", "jobs", "community", "credits", "studio", "outbox", "system", "self-tests", "analytics"] as const;
type Section = (typeof SECTIONS)[number];

export default function AdminPage() {
  const { t } = useTranslation();
  const { isAdmin, isLoading } = useRoles();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(search).get("section");
  const section: Section = SECTIONS.includes(requested as Section) ? (requested as Section) : "users";

  if (isLoading) return <Spinner label={t("quickAdmin.loadingAccess")} />;
  if (!isAdmin) {
    return (
      <PageShell title={t("pages.admin.title")}>
        <AccessDenied />
      </PageShell>
    );
  }

  const select = (value: string) => navigate(value === "users" ? location : `${location}?section=${value}`, { replace: true });
  const labels: Record<Section, { label: string; icon: React.ReactNode }> = {
    users: { label: t("admin.tabs.users"), icon: <Users aria-hidden="true" /> },
    teams: { label: t("admin.tabs.teams"), icon: <UsersRound aria-hidden="true" /> },
    jobs: { label: t("admin.tabs.jobs"), icon: <Images aria-hidden="true" /> },
    community: { label: t("admin.tabs.community"), icon: <Flag aria-hidden="true" /> },
    credits: { label: t("admin.tabs.credits"), icon: <Coins aria-hidden="true" /> },
    studio: { label: t("admin.tabs.studio"), icon: <Palette aria-hidden="true" /> },
    outbox: { label: t("admin.tabs.outbox"), icon: <Mail aria-hidden="true" /> },
    system: { label: t("admin.tabs.system"), icon: <Server aria-hidden="true" /> },
    "self-tests": { label: t("admin.tabs.selfTests"), icon: <FlaskConical aria-hidden="true" /> },
    analytics: { label: t("admin.tabs.analytics"), icon: <BarChart3 aria-hidden="true" /> },
  };

  return (
    <PageShell title={t("pages.admin.title")} intro={t("admin.intro")} wide>
      <PaymentHoldsAlert />
      <Tabs value={section} onValueChange={select} className="space-y-5">
        <TabsList label={t("admin.tabs.label")}>
          {SECTIONS.map((value) => (
            <TabsTrigger key={value} value={value}>
              {labels[value].icon}
              {labels[value].label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="users">
          <UsersSection />
        </TabsContent>
        <TabsContent value="teams">
          <TeamsSection />
        </TabsContent>
        <TabsContent value="jobs">
          <JobsSection />
        </TabsContent>
        <TabsContent value="community">
          <CommunitySection />
        </TabsContent>
        <TabsContent value="credits">
          <CreditPackagesSection />
        </TabsContent>
        <TabsContent value="studio">
          <StudioSettingsSection />
        </TabsContent>
        <TabsContent value="outbox">
          <OutboxSection />
        </TabsContent>
        <TabsContent value="system">
          <div className="space-y-6">
            <SystemSection />
            <BackupsSection />
            <HousekeepingSection />
          </div>
        </TabsContent>
        <TabsContent value="self-tests">
          <SelfTestSection />
        </TabsContent>
        <TabsContent value="analytics">
          <AnalyticsSection />
        </TabsContent>
      </Tabs>
    </PageShell>
  );
}
