/**
 * Portfolio pages of the social hub (issue 32, decision 105) through the real server: the owner's
 * settings with the spec-style messages for each field, the public page at /p/<handle> showing only
 * work published under the owner's name (or their studio's, while they may publish for it), gone at
 * once when a picture is unpublished or hidden or the page is taken down, and the authors the
 * community shows pointing at their pages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../src/shared/messages";
import { createStudioClient, PASSWORD, roomPhoto, signedInClient, upload, waitForRenders } from "../helpers/render";
import { metaTags } from "../helpers/meta-tags";
import { startTestServer, type TestServer } from "../helpers/server";

type Client = Awaited<ReturnType<typeof signedInClient>>;

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedInClient(server.url);
  await server.deps.db.insertInto("user_roles").values({ user_id: admin.userId, role: "admin", created_at: Date.now() }).execute();
});
afterAll(async () => {
  await server?.stop();
});

async function rendersOf(user: Client, styles: string[]): Promise<string[]> {
  const uploaded = await upload(server.url, user.jar, await roomPhoto(400, 300));
  expect(uploaded.status).toBe(201);
  const { jobs } = await user.client.render.create.mutate({
    projectId: uploaded.body.projectId,
    imageId: uploaded.body.imageId,
    style: styles as never,
  });
  const ids = jobs.map((job) => job.id);
  await waitForRenders(user, ids);
  return ids;
}

const visitor = () => createStudioClient(server.url);
const pageStatus = async (path: string) => (await fetch(`${server.url}${path}`)).status;
const refusal = (field: string, message: string) => ({ data: { httpStatus: 400, zodError: { fieldErrors: { [field]: [message] } } } });

const SETTINGS = {
  handle: "ana-lima",
  displayName: "Ana Lima",
  headline: "Calm rooms for small flats.",
  links: [{ label: "Website", url: "https://ana.example.com" }],
  contactEmail: "hello@ana.example.com",
  contactPhone: "+34 600 123 456",
  brandTeamId: null,
  visible: true,
};

describe("a portfolio page", () => {
  it("starts from a handle made of the user's name, and refuses each bad field with its message", async () => {
    const ana = await signedInClient(server.url);
    await ana.client.account.updateProfile.mutate({ fullName: "Ána María Lima" });
    expect(await ana.client.community.myPortfolio.query()).toEqual({
      settings: null,
      teams: [],
      suggestedHandle: "ana-maria-lima",
      suggestedName: "Ána María Lima",
    });

    const save = (change: Record<string, unknown>) =>
      ana.client.community.savePortfolio.mutate({ ...SETTINGS, handle: "ana-maria-lima", ...change } as never);
    await expect(save({ handle: "a" })).rejects.toMatchObject(refusal("handle", MESSAGES.portfolioHandleInvalid));
    await expect(save({ handle: "ana--lima" })).rejects.toMatchObject(refusal("handle", MESSAGES.portfolioHandleInvalid));
    await expect(save({ handle: "ana/../admin" })).rejects.toMatchObject(refusal("handle", MESSAGES.portfolioHandleInvalid));
    await expect(save({ displayName: " " })).rejects.toMatchObject(refusal("displayName", MESSAGES.portfolioNameRequired));
    await expect(save({ displayName: "x".repeat(81) })).rejects.toMatchObject(refusal("displayName", MESSAGES.portfolioNameTooLong));
    await expect(save({ headline: "x".repeat(301) })).rejects.toMatchObject(refusal("headline", MESSAGES.portfolioHeadlineTooLong));
    await expect(save({ links: [{ label: "Mine", url: "javascript:alert(1)" }] })).rejects.toMatchObject(
      refusal("links", MESSAGES.portfolioLinkUrlInvalid),
    );
    await expect(save({ links: [{ label: "", url: "https://a.example.com" }] })).rejects.toMatchObject(
      refusal("links", MESSAGES.portfolioLinkLabelInvalid),
    );
    const six = Array.from({ length: 6 }, (_, n) => ({ label: `Link ${n}`, url: `https://l${n}.example.com` }));
    await expect(save({ links: six })).rejects.toMatchObject(refusal("links", MESSAGES.portfolioTooManyLinks));
    await expect(save({ contactEmail: "not an address" })).rejects.toMatchObject(refusal("contactEmail", MESSAGES.portfolioEmailInvalid));
    await expect(save({ contactPhone: "call me" })).rejects.toMatchObject(refusal("contactPhone", MESSAGES.portfolioPhoneInvalid));
    // Upper case and spaces around are taken as the address people type.
    expect(await save({ handle: "  Ana-Maria-Lima " })).toMatchObject({ handle: "ana-maria-lima" });
    expect(await pageStatus("/p/ana-maria-lima")).toBe(200);
    // Nothing published yet: a card without a picture; the name escaped in the tags.
    await save({ handle: "ana-maria-lima", displayName: `Ana "<b>" Lima $&`, headline: "" });
    const html = await (await fetch(`${server.url}/p/ana-maria-lima`)).text();
    expect(html).not.toContain("<b>");
    const tags = metaTags(html);
    expect(tags.get("og:title")).toBe(`Ana "<b>" Lima $&`);
    expect(tags.get("og:description")).toBe(`Rooms redesigned by Ana "<b>" Lima $&, before and after.`);
    expect(tags.get("twitter:card")).toBe("summary");
    expect(tags.has("og:image")).toBe(false);

    // Another user cannot take it, in any case.
    const bruno = await signedInClient(server.url);
    await expect(bruno.client.community.savePortfolio.mutate({ ...SETTINGS, handle: "ANA-MARIA-LIMA" })).rejects.toMatchObject({
      data: { httpStatus: 409 },
      message: MESSAGES.portfolioHandleTaken,
    });
    await bruno.client.account.updateProfile.mutate({ fullName: "Ana Maria Lima" });
    expect((await bruno.client.community.myPortfolio.query()).suggestedHandle).toBe("ana-maria-lima-2");

    // Taken down, the address answers 404 and is free again.
    expect(await ana.client.community.removePortfolio.mutate()).toEqual({ ok: true });
    expect(await pageStatus("/p/ana-maria-lima")).toBe(404);
    await expect(visitor().client.community.portfolio.query({ handle: "ana-maria-lima" })).rejects.toMatchObject({
      data: { httpStatus: 404 },
      message: MESSAGES.portfolioNotFound,
    });
    expect(await bruno.client.community.savePortfolio.mutate({ ...SETTINGS, handle: "ana-maria-lima" })).toMatchObject({
      handle: "ana-maria-lima",
    });
  });

  it("shows only work published under the owner's name, and loses a picture at once when it is unpublished or hidden", async () => {
    const carla = await signedInClient(server.url);
    await carla.client.account.updateProfile.mutate({ fullName: "Carla Souza" });
    const [named, anonymous, later] = await rendersOf(carla, ["japandi", "coastal", "industrial"]);
    const first = await carla.client.community.publish.mutate({ jobId: named!, title: "Named", layout: "before-after", showName: true });
    const hidden = await carla.client.community.publish.mutate({ jobId: anonymous!, title: "Unnamed", layout: "after-only" });
    const second = await carla.client.community.publish.mutate({ jobId: later!, title: "Later", layout: "after-only", showName: true });
    await carla.client.community.savePortfolio.mutate({ ...SETTINGS, handle: "carla-souza", displayName: "Carla Souza" });

    // Pasted in a chat, the page shows its name, introduction and its newest work's card.
    const tags = metaTags(await (await fetch(`${server.url}/p/carla-souza`)).text());
    expect(tags.get("og:title")).toBe("Carla Souza");
    expect(tags.get("og:description")).toBe(SETTINGS.headline);
    expect(tags.get("og:url")).toBe(`${server.url}/p/carla-souza`);
    expect(tags.get("og:image")).toBe(`${server.url}/files/published/${second.id}/card`);
    expect(tags.get("twitter:card")).toBe("summary_large_image");
    expect((await fetch(tags.get("og:image")!)).status).toBe(200);

    const page = await visitor().client.community.portfolio.query({ handle: "carla-souza" });
    expect(page).toMatchObject({
      handle: "carla-souza",
      displayName: "Carla Souza",
      headline: SETTINGS.headline,
      links: SETTINGS.links,
      contactEmail: SETTINGS.contactEmail,
      contactPhone: SETTINGS.contactPhone,
      studio: null,
    });
    expect(page.publications.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(page.publications[0]!.author).toEqual({ kind: "user", id: carla.userId, name: "Carla Souza", portfolio: "carla-souza" });
    // The community's authors lead to the page; a publication without the name never does.
    expect((await visitor().client.community.get.query({ id: first.id })).author?.portfolio).toBe("carla-souza");
    expect((await visitor().client.community.get.query({ id: hidden.id })).author).toBeNull();

    await carla.client.community.unpublish.mutate({ id: second.id });
    await admin.client.admin.setPublicationHidden.mutate({ id: first.id, hidden: true });
    expect((await visitor().client.community.portfolio.query({ handle: "carla-souza" })).publications).toEqual([]);
    // The owner's share links list what they published, a hidden picture marked so.
    expect((await carla.client.community.mine.query()).map((item) => [item.id, item.hidden])).toEqual([
      [hidden.id, false],
      [first.id, true],
    ]);

    // A page its owner made private answers 404 and keeps its settings.
    await carla.client.community.savePortfolio.mutate({ ...SETTINGS, handle: "carla-souza", displayName: "Carla Souza", visible: false });
    expect(await pageStatus("/p/carla-souza")).toBe(404);
    await expect(visitor().client.community.portfolio.query({ handle: "carla-souza" })).rejects.toMatchObject({
      data: { httpStatus: 404 },
    });
    expect((await carla.client.community.myPortfolio.query()).settings).toMatchObject({ handle: "carla-souza", visible: false });
    for (const path of ["/p/nobody-here", "/p/Bad%20Name", "/p/x"]) expect(await pageStatus(path), path).toBe(404);
  });

  it("presents a studio only for a member who may publish its work, and shows the studio's named work", async () => {
    const [owner, member] = [await signedInClient(server.url), await signedInClient(server.url)];
    const team = await owner.client.teams.create.mutate({ name: "Casa Nova" });
    await owner.client.teams.moveCredits.mutate({ teamId: team.id, amount: 2 });
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: member.userId, role: "member", joined_at: Date.now() })
      .execute();
    await owner.client.teams.switchSpace.mutate({ teamId: team.id });
    const [teamJob] = await rendersOf(owner, ["bohemian"]);
    const studioWork = await owner.client.community.publish.mutate({
      jobId: teamJob!,
      title: "Studio",
      layout: "after-only",
      showName: true,
    });

    expect((await owner.client.community.myPortfolio.query()).teams).toEqual([{ id: team.id, name: "Casa Nova" }]);
    expect((await member.client.community.myPortfolio.query()).teams).toEqual([]);
    await expect(
      member.client.community.savePortfolio.mutate({ ...SETTINGS, handle: "casa-nova-member", brandTeamId: team.id }),
    ).rejects.toMatchObject({ data: { httpStatus: 403 }, message: MESSAGES.portfolioStudioNotAllowed });

    await owner.client.community.savePortfolio.mutate({ ...SETTINGS, handle: "casa-nova", displayName: "Bea", brandTeamId: team.id });
    const page = await visitor().client.community.portfolio.query({ handle: "casa-nova" });
    expect(page.studio).toEqual({ id: team.id, name: "Casa Nova" });
    expect(page.publications.map((item) => item.id)).toEqual([studioWork.id]);
    expect((await visitor().client.community.get.query({ id: studioWork.id })).author).toEqual({
      kind: "team",
      id: team.id,
      name: "Casa Nova",
      portfolio: "casa-nova",
    });

    // An Admin who published the studio's work deletes their account: the work stays published, the Owner's now.
    const leaving = await signedInClient(server.url);
    await server.deps.db
      .insertInto("team_members")
      .values({ team_id: team.id, user_id: leaving.userId, role: "admin", joined_at: Date.now() })
      .execute();
    await leaving.client.teams.switchSpace.mutate({ teamId: team.id });
    const [leavingJob] = await rendersOf(leaving, ["minimalist"]);
    const leftWork = await leaving.client.community.publish.mutate({
      jobId: leavingJob!,
      title: "Left",
      layout: "after-only",
      showName: true,
    });
    await leaving.client.account.deleteAccount.mutate({ confirmEmail: leaving.email, password: PASSWORD });
    expect((await visitor().client.community.get.query({ id: leftWork.id })).author?.name).toBe("Casa Nova");
    expect((await visitor().client.community.portfolio.query({ handle: "casa-nova" })).publications.map((item) => item.id)).toEqual([
      leftWork.id,
      studioWork.id,
    ]);
    expect((await owner.client.community.mine.query()).map((item) => item.id)).toContain(leftWork.id);

    // Once they may no longer publish for it, the page presents them alone.
    await server.deps.db.updateTable("team_members").set({ role: "member" }).where("user_id", "=", owner.userId).execute();
    const after = await visitor().client.community.portfolio.query({ handle: "casa-nova" });
    expect(after.studio).toBeNull();
    expect(after.publications).toEqual([]);
    expect((await visitor().client.community.get.query({ id: studioWork.id })).author?.portfolio).toBeNull();
  });
});
