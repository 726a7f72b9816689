/**
 * The landing page (spec section 2): the hero with its three ways in (Watch Demo opens the demo
 * dialog), the studio's own figures, the problem and the solution (before/after pairs the studio
 * made), who it is for, and a last call to action.
 */
import { AudienceSection } from "../components/landing/AudienceSection";
import { ClosingCta } from "../components/landing/ClosingCta";
import { Hero } from "../components/landing/Hero";
import { ProblemSection } from "../components/landing/ProblemSection";
import { SolutionSection } from "../components/landing/SolutionSection";
import { StatsStrip } from "../components/landing/StatsStrip";

export default function Landing() {
  return (
    <>
      <Hero />
      <StatsStrip />
      <ProblemSection />
      <SolutionSection />
      <AudienceSection />
      <ClosingCta />
    </>
  );
}
