/**
 * Messages the server sends, word for word as the spec writes them (section 8 and 7).
 * The client translates known messages through i18n (key "serverMessages.<name>") and shows
 * any other message unchanged.
 */
export const MESSAGES = {
  notAuthenticated: "User not authenticated",
  adminRequired: "Access denied. Admin privileges required.",
  missingRequiredFields: "Missing required fields",
  internalError: "Something went wrong on our side. Please try again.",
  // Provider-style messages of spec section 8; the client maps them to the friendly texts.
  invalidCredentials: "Invalid login credentials",
  emailNotConfirmed: "Email not confirmed",
  userAlreadyRegistered: "User already registered",
  tooManyRequests: "Too many requests",
  tooManyAccountsToday: "Too many accounts were created from this network today. Please try again tomorrow.",
  invalidVerificationCode: "Invalid verification code",
  verificationCodeUsed: "This code has already been used. Wait for the next code in your app, then enter it.",
  resetLinkInvalid: "This password reset link is invalid or has expired",
  confirmationLinkInvalid: "This confirmation link is invalid or has expired",
  twoFactorChallengeExpired: "Your sign-in has expired. Please sign in again.",
  sessionExpired: "Your session has expired. Please sign in again.",
  currentPasswordWrong: "Your current password is incorrect",
  accountDisabled: "This account has been disabled",
  twoFactorAlreadyEnabled: "Two-factor authentication is already enabled",
  twoFactorLocked: "Too many wrong codes. Two-factor sign-in is locked for an hour; we have e-mailed the account's owner.",
  crossSiteRequest: "Cross-site request refused",
  // Uploads (spec sections 5 and 9): each refusal says what to do.
  uploadUnsupportedType: "Only JPEG and PNG images can be uploaded",
  uploadTooLarge: "The file is larger than 10 MB",
  uploadTooManyPixels: "The image has too many pixels (at most 40 megapixels)",
  uploadUnreadable: "The image is damaged or incomplete and cannot be read",
  uploadTooSmall: "The image is too small: it needs at least 100 pixels on each side",
  uploadTooNarrow: "The image is too long and narrow: its long side can be at most 10 times its short side",
  uploadEmpty: "No file was received",
  requestTooLarge: "The request is too large",
  malformedAddress: "The address of this request is malformed",
  requestTooSlow: "The connection was too slow to send this request. Please try again on a better connection.",
  // Rendering.
  notFound: "Not found",
  unknownStyle: "Unknown design style",
  notEnoughCredits: "Not enough credits",
  demoUsed: "Your free demo render has been used. Sign up to get 10 free credits.",
  demoOneStyle: "The free demo renders one style. Sign up to apply several styles.",
  demoOneVariation: "The free demo renders one picture. Sign up to render variations.",
  engineCannot: "The render engine on this server cannot do that",
  floorPlanUnsupported:
    "This studio's render engine cannot turn a floor plan into a room, so nothing was rendered or charged. Upload a photo of the room instead.",
  upscaleNotNeeded: "This render is already as large as the photo",
  // "Apply to the whole project".
  setNoPhotos: "Choose at least one photo of the project",
  setTooManyPhotos: "A set renders at most 50 photos at once",
  setReferenceNotInProject: "The reference picture must be a finished render of this project",
  upscaleFailed: "The upscale failed. Please try again.",
  // The engine's own words when it refused or failed an upscale (a missing model file, say): trying again will not help.
  upscaleEngineStopped: "The render engine could not upscale this render: {{detail}}",
  renderNotCancelable: "This render has already finished",
  renderNotFinished: "This render has not finished yet",
  renderFailed: "The render failed. Your credit was not charged.",
  renderInterrupted: "The render was interrupted by a server restart",
  renderTimedOut: "The render took too long and was stopped",
  renderUploadGone: "The uploaded picture is no longer there",
  renderEditSourceGone: "The picture to edit is no longer there",
  // The engine's own words (a provider's refusal, its failure) inside a sentence the client translates.
  renderEngineStopped: "The render engine stopped this render: {{detail}}",
  // Engines chosen per task, with fallback (issue 30): why another engine made it, or why none could.
  engineFallback: "Made by {{engine}}: {{skipped}} could not be used ({{detail}})",
  engineNoneAvailable:
    "None of this studio's engines could make this picture now ({{detail}}). Your credit was returned; please try again later.",
  engineRouteUnable: "{{engine}} is not set up here or cannot do this task ({{task}}). Choose among the engines offered for it.",
  // The modification studio.
  maskNotPng: "The mask must be a PNG image",
  maskWrongSize: "The mask must be the same size as the picture",
  maskTooSmall: "Paint a larger area to edit",
  maskTooLarge: "The painted area covers almost the whole picture. Paint only the part to change.",
  instructionTooLong: "The instruction must be at most 300 characters",
  // Exteriors (issue 33).
  exteriorNeedsAi:
    "A blue sky, a twilight shot or a garden refresh needs an AI engine that can make them, and this server has none (the Preview engine cannot). Nothing was charged.",
  // Listing videos (issue 33).
  videoPicturesRequired: "Choose at least one picture for the video",
  videoTooManyPictures: "A video may show at most 20 pictures",
  videoFormatInvalid: "Choose a landscape (16:9) or portrait (9:16) video",
  videoLengthInvalid: "A video lasts 3 to 60 seconds",
  videoPictureRepeated: "Each picture may appear once in a video",
  videoTooShortForPictures: "Give each picture at least 1.5 seconds: make the video longer or choose fewer pictures",
  videoPictureNotInProject: "Choose the video's pictures among this project's finished renders",
  videoFailed: "The video could not be made. Please try again.",
  videoTooLarge: "The video came out larger than 200 MB and was not kept: make it shorter or choose fewer pictures",
  videoNotMade: "Only a finished video can be shown on the listing pages",
  // The studio's Paint tool (issue 33).
  paintColourInvalid: "Choose a colour as #rrggbb",
  paintSurfaceInvalid: "Choose what you are painting",
  paintTooManyColours: "Compare at most three colours at once",
  paintColourRepeated: "Each colour to compare must be different",
  paletteNameInvalid: "Give each palette colour a name of 1 to 40 characters",
  paletteTooLong: "The palette may hold at most 24 colours",
  // Purchases (spec sections 7 and 8).
  stripeNotConfigured: "Stripe secret key not configured",
  unknownCreditPackage: "Unknown credit package",
  // Administration.
  roleNotAllowed: "Roles are letters, digits, dashes and underscores, at most 50",
  cannotChangeOwnAdmin: "You cannot remove your own admin role or disable your own account",
  paymentHoldResolved: "This held payment has already been dealt with",
  deleteConfirmationMismatch: "Type your e-mail address to confirm",
  backupRunning: "A backup is being written right now. Wait for it to finish.",
  backupDirMissing: "Backups have no folder yet: set BACKUP_DIR (docs/operations.md).",
  backupToolMissing:
    "Backups of a PostgreSQL database need pg_dump, which is not installed on the server: install PostgreSQL's client programs (apt-get install postgresql-client).",
  housekeepingRunning: "Housekeeping is running right now. Wait for it to finish.",
  packageNameRequired: "Give the package a name",
  packageNameTooLong: "The name must be at most 40 characters",
  packageCreditsInvalid: "Credits must be a whole number from 1 to 100,000",
  packagePriceInvalid: "The price must be from 0.50 to 100,000.00",
  // Studio settings (/admin → Studio).
  studioNameRequired: "Give the studio a name",
  studioNameTooLong: "The studio's name must be at most 60 characters",
  supportEmailInvalid: "Enter the support e-mail address, e.g. support@example.com",
  accentColorInvalid: "Pick a colour as #rrggbb",
  accentColorContrast: "This colour does not reach WCAG AA contrast in both themes: pick a darker or more saturated one",
  legalTextTooLong: "The text must be at most 50,000 characters",
  studioNumberInvalid: "Enter a whole number from 0 to 1,000",
  setByEnvironment: "This setting is set by the environment; change the variable and restart to change it",
  logoInvalid: "The logo must be a PNG or JPEG picture of at most 1 MB, from 16 to 4096 pixels a side",
  engineKeyInvalid: "The key must be at most 500 characters",
  engineModelInvalid: "Enter a model name, e.g. owner/name for Replicate or gpt-image-1 for OpenAI",
  engineUpscaleModelInvalid:
    "Enter the file name of an upscale model in ComfyUI's models/upscale_models folder, e.g. RealESRGAN_x4plus.pth, or leave it empty for no AI upscale",
  engineUrlInvalid: "Enter the http(s) address of the ComfyUI server, e.g. http://gpu-box:8188",
  engineKeyMissing: "This engine needs its key: enter it before choosing the engine",
  engineUrlMissing: "ComfyUI needs the address of its server: enter it before choosing the engine",
  engineModelUnknown: "This Replicate model has no preset here: choose one of the listed models",
  projectNameRequired: "Project name is required",
  projectNameTooLong: "Project name must be less than 100 characters",
  tooManyProjects: "You have reached the largest number of projects. Delete one to make room.",
  // Upload budgets and storage.
  uploadVisitorBudgetSpent: "You have uploaded as many pictures as a visitor can today. Sign up to keep going, or come back tomorrow.",
  uploadAddressBudgetSpent: "Too many pictures were uploaded from your network today. Sign up to keep going, or come back tomorrow.",
  storageQuotaFull: "Your storage is full. Delete renders or projects you no longer need to make room.",
  serverStorageFull: "The server is running out of disk space. Please try again later.",
  freeCreditsNeedConfirmation: "Confirm your e-mail address to use your free credits.",
  // Listing exports.
  listingAccountRequired: "Sign in to export pictures for listings",
  listingDisclosureEmpty: "Write the disclosure shown on the picture",
  listingDisclosureTooLong: "The disclosure must be at most 80 characters",
  listingNoFont: "This server has no font to write the disclosure with (install fonts-dejavu-core)",
  listingNoPublicAddress:
    "This server does not know the address it is reached at, so the listing's link cannot be made. The administrator must set PUBLIC_URL.",
  // Teams (issue 28).
  teamNameTooShort: "Team name must be at least 2 characters",
  teamNameTooLong: "Team name must be less than 100 characters",
  teamRightMissing: "Your role in this team does not allow this",
  tooManyTeams: "You are in the largest number of teams. Leave one before creating or joining another.",
  teamOwnerMustTransfer: "The team's Owner cannot leave it: transfer ownership to an Admin first",
  teamMonthlyCapReached: "You have used your monthly cap of {{cap}} credits in this team. Ask its Owner or an Admin to raise it.",
  teamNotEnoughCredits: "The team has no credits left. Its Owner or an Admin can buy credits or move some in.",
  teamCreditMoveTooLarge: "You can move at most your own balance into the team",
  projectAlreadyInTeam: "This project is already in a team",
  accountOwnsTeam: "You own a team. Transfer its ownership to an Admin, or delete the team, before deleting your account.",
  teamPurchaseNotAllowed:
    "Only the team's Owner or an Admin can buy credits for it. Switch to your personal space to buy credits for yourself.",
  // Clients (issue 28, spec section 5).
  clientNameRequired: "Client name is required",
  clientNameTooLong: "Client name must be less than 100 characters",
  clientPhoneInvalid: "Phone can only contain digits, spaces, dashes, plus and parentheses",
  clientPhoneLength: "Phone must be 10 to 20 characters",
  clientAddressTooLong: "Address must be less than 200 characters",
  clientNotesTooLong: "Notes must be at most 2,000 characters",
  clientOtherSpace: "This client belongs to another space than the project",
  tooManyClients: "This space keeps the largest number of clients. Delete one to make room.",
  // Client review links (issue 28, decision 073).
  reviewCommentEmpty: "Write a comment first",
  reviewCommentTooLong: "A comment can be at most 2,000 characters",
  reviewNameMissing: "Tell the studio your name first",
  reviewNameTooLong: "Your name can be at most 80 characters",
  reviewLabelTooLong: "The link's label can be at most 100 characters",
  reviewTooManyComments:
    "Too many comments from your address on this link: at most {{count}} every {{minutes}} minutes. Please wait a little, then try again.",
  reviewPicturesNotInProject: "Choose finished pictures of this project",
  reviewNoPictures: "This project has no finished pictures to review yet",
  // Measuring a room from a photo (issue 30, decision 089).
  measurePointOutside: "A measure's points must be inside the picture",
  measureLabelTooLong: "A measure's label can be at most 60 characters",
  measureSizeOutOfRange: "The reference's size must be between 10 cm and 20 m",
  tooManyMeasures: "A photo keeps at most 50 measures. Delete one to make room.",
  measureNeedsReference: "Mark something of known size on this photo first",
  measureUnsupported:
    "This reference cannot measure that: a door's height measures heights only; mark a rectangle on the floor to measure the floor",
  measureReferenceUnusable: "The reference's points do not fit a rectangle on the floor or an upright door. Mark them again.",
  measureOffTheFloor: "A floor point must be on the floor, below the horizon",
  apiKeyNameInvalid: "An API key's name must be 1 to 60 characters",
  apiKeyScopesRequired: "Choose at least one scope for the API key",
  apiKeyExpiryInvalid: "An API key expires in 1 to 365 days, or never",
  tooManyApiKeys: "This space has the most API keys it may keep. Revoke one to make room.",
  apiKeyMissing: "Send an API key as Authorization: Bearer <key>",
  apiKeyInvalid: "This API key is not valid: it is unknown, revoked or expired",
  apiScopeMissing: "This API key lacks the scope this needs: {{scope}}",
  apiNotFound: "There is no such API route",
  apiRateLimited: "This API key sent too many requests this minute: wait for Retry-After seconds",
  apiCursorInvalid: "This cursor is not one this API gave: start again from the first page",
  // Webhooks of the REST API (issue 31, decision 095).
  webhookUrlInvalid: "A webhook's URL must be a full address, such as https://example.com/hooks",
  webhookUrlNotHttps: "A webhook's URL must start with https://",
  webhookUrlRefused: "This webhook URL leads to a private, local or reserved address, which this server does not send to",
  webhookUrlUnresolved: "This webhook URL's host name cannot be found",
  webhookEventsRequired: "Choose at least one event for the webhook",
  webhookCreditsLowInvalid: "The credit threshold must be a whole number from 1 to 1,000,000",
  // The community hub (decision 102).
  publicationNotFound: "This picture is not published",
  publicationTitleRequired: "Give the picture a title",
  publicationTitleTooLong: "A title may be at most 80 characters",
  publicationNotPossible: "Only a finished render in a style can be published",
  alreadyPublished: "This render is already published",
  publishingBlocked: "Your account may not publish pictures. Contact the studio's administrator if you think this is a mistake.",
  reportNoteTooLong: "A note may be at most 500 characters",
  followSelf: "You cannot follow yourself",
  alreadyReported: "You have already reported this picture; an administrator will look at it",
  // Portfolio pages of the social hub (decision 105).
  portfolioNotFound: "There is no portfolio at this address",
  portfolioHandleInvalid: "A portfolio address is 3 to 30 lower-case letters, digits or single hyphens",
  portfolioHandleTaken: "This portfolio address is taken: choose another",
  portfolioNameRequired: "Give the page a name",
  portfolioNameTooLong: "A name may be at most 80 characters",
  portfolioHeadlineTooLong: "An introduction may be at most 300 characters",
  portfolioTooManyLinks: "A portfolio shows at most 5 links",
  portfolioLinkLabelInvalid: "A link's label is 1 to 40 characters",
  portfolioLinkUrlInvalid: "A link must be a full web address, such as https://example.com",
  portfolioEmailInvalid: "This e-mail address is not valid",
  portfolioPhoneInvalid: "A phone number holds digits, spaces and + ( ) . -, at most 40 characters",
  portfolioStudioNotAllowed: "You may present only a team in which you may publish work",
  customStyleNotFound: "This style was not found in this space",
  customStyleNameRequired: "Give the style a name",
  customStyleNameTooLong: "A style's name may be at most 40 characters",
  customStyleDescriptionTooShort: "Describe the style in at least 10 characters",
  customStyleDescriptionTooLong: "A style's description may be at most 600 characters",
  customStyleAvoidTooLong: "What to avoid may be at most 300 characters",
  customStylePaletteInvalid: "Choose one to six colours, each as #rrggbb",
  customStyleToneInvalid: "Choose the style's tone",
  customStyleReferenceInvalid: "The reference picture must be a JPEG or PNG photo of at most 10 MB",
  tooManyCustomStyles: "This space has the most styles it may keep (50). Delete one to make room.",
  // Style packs (issue 32, decision 104): each reason an imported pack is refused.
  stylePackTooLarge: "A style pack may be at most 32 MB",
  stylePackUnreadable:
    "This file is not a style pack that can be read: a style pack is a .zip file with a manifest.json, as this server exports it",
  stylePackTooManyEntries: "A style pack holds at most 50 styles and a picture for each; this one has more files",
  stylePackTooLargeUnpacked: "This style pack unpacks to more than it may: at most 10 MB for each picture and 64 MB in all",
  stylePackPathRefused: "A style pack may hold only manifest.json and the pictures it names, under pictures/; this one holds other paths",
  stylePackEmpty: "This style pack holds no styles",
  stylePackStyleInvalid:
    "Style {{number}} in this pack is not valid: check its name, description, what to avoid, its palette (one to six #rrggbb colours) and its tone",
  stylePackPictureInvalid: "The picture of style {{number}} in this pack is not a JPEG or PNG photo that can be read",
  stylePackNoRoom: "This space has room for {{room}} more styles (at most 50), and this pack holds {{count}}. Nothing was imported.",
  // The marketplace of styles (issue 32, decision 104).
  marketplaceListingNotFound: "This listing was not found on the marketplace",
  marketplaceTitleRequired: "Give the listing a title",
  marketplaceTitleTooLong: "A listing's title may be at most 60 characters",
  marketplaceStylesInvalid: "Choose one to ten of your styles, each once, all from the same space",
  marketplaceExamplesInvalid: "Choose at most six example renders, each once",
  marketplaceRenderNotUsable: "Covers and examples must be finished renders of the space the styles belong to",
  tooManyMarketplaceListings: "This space has published the most listings it may (20). Unpublish one to make room.",
  marketplaceAlreadyInstalled: "This listing is already installed in this space",
  marketplaceNotInstalled: "This listing is not installed in this space",
  marketplaceNoUpdate: "This space already has the newest version of this listing",
  tooManyWebhooks: "This space has the most webhooks it may keep. Delete one to make room.",
  apiRendersAtOnce:
    "This API key has {{max}} renders running, the most it may run at once: order more once one has ended (wait Retry-After seconds)",
  idempotencyKeyInvalid: "An Idempotency-Key is 1 to 255 visible characters",
  idempotencyKeyReused: "This Idempotency-Key was sent before with another request",
  idempotencyKeyInProgress: "A request with this Idempotency-Key is still being answered; try again in a moment",
  arMeasureOutOfRange: "A measure made in AR must be between 1 cm and 50 m",
  arMeasurePointInvalid: "A measure made in AR needs two points in the room, in metres",
  tooManyArMeasures: "A project keeps at most 100 measures made in AR. Delete one to make room.",
  // Team members and invitations (issue 28).
  teamInviteAlreadyMember: "{{email}} is already a member of this team",
  teamInviteAlreadyPending: "An invitation to {{email}} is already pending. Re-send it from the list instead.",
  teamFull: "The team has the largest number of members and pending invitations ({{max}}). Remove someone or revoke an invitation first.",
  teamInviteNoPublicAddress:
    "This server does not know the address it is reached at, so the invitation's link cannot be made. The administrator must set PUBLIC_URL.",
  teamInviteResendTooSoon: "An invitation can be re-sent once every {{minutes}} minutes. Try again in {{wait}} minutes.",
  teamInviteResendLimit: "This invitation was re-sent {{max}} times, the most it can be. Revoke it and invite the address again.",
  teamInvitationExpired: "This invitation has expired. Ask the team for a new one.",
  teamInvitationUsed: "This invitation has already been used.",
  teamInvitationRevoked: "This invitation was withdrawn by the team.",
  teamInvitationOtherAccount: "This invitation is for {{email}}. Sign in with that address to accept it.",
  teamOwnerRoleByTransfer: "The Owner's role changes only by transferring ownership to an Admin",
  teamTransferToAdminOnly: "Ownership can only be transferred to an Admin of the team. Make them an Admin first.",
  teamOwnerCannotBeRemoved: "The team's Owner cannot be removed",
  teamAdminRemovedByOwnerOnly: "Only the team's Owner can remove an Admin",
} as const;

export type MessageName = keyof typeof MESSAGES;

/** The name of a known server message, for looking up its translation. */
export function messageName(message: string): MessageName | undefined {
  return (Object.keys(MESSAGES) as MessageName[]).find((name) => MESSAGES[name] === message);
}

export type MessageParams = Record<string, string | number>;

/** A known message with its parameters ({{detail}}, ...), as the client translates it. */
export interface KeyedMessage {
  key: MessageName;
  params: MessageParams;
}

/**
 * A message with parameters as it travels and is stored (render_jobs.error): JSON {"key", "params"},
 * readable for an admin, translated by the client (serverMessages.<key>). A message without
 * parameters travels as its English text, which names it (messageName).
 */
export function keyedMessage(key: MessageName, params: MessageParams): string {
  return JSON.stringify({ key, params } satisfies KeyedMessage);
}

/** The English text of a keyed message (logs, the credit ledger's reason). */
export function englishMessage(message: KeyedMessage): string {
  return MESSAGES[message.key].replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => String(message.params[name] ?? ""));
}

/**
 * Reads what the server sent: a known English text (no parameters) or a keyed message; undefined
 * for any other text (a free English text stored before messages had keys is shown as it is).
 */
export function readMessage(text: string): KeyedMessage | undefined {
  const name = messageName(text);
  if (name) return { key: name, params: {} };
  if (!text.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null) return undefined;
    const { key, params } = parsed as { key?: unknown; params?: unknown };
    if (typeof key !== "string" || !Object.hasOwn(MESSAGES, key)) return undefined;
    if (typeof params !== "object" || params === null) return undefined;
    const clean: MessageParams = {};
    for (const [param, value] of Object.entries(params)) if (typeof value === "string" || typeof value === "number") clean[param] = value;
    return { key: key as MessageName, params: clean };
  } catch {
    return undefined;
  }
}
