import {
  AiEngine,
  AppError,
  DEFAULT_SAMPLES_PER_PROMPT,
  type VisibilityProfileRequest,
  type VisibilityProfileView,
} from "@scan/contract";
import type { Db } from "@scan/db";
import { type Owner, visibility } from "@scan/records";
import { siteNotFound } from "../sites";

export type ProfileService = {
  /** The site's profile, or, before one is set, the defaults drawn from the site (`configured: false`). */
  get: (workspaceId: string, siteId: string) => Promise<VisibilityProfileView>;
  /** Sets the site's profile whole; its domains pass the address policy first. */
  set: (owner: Owner, siteId: string, input: VisibilityProfileRequest) => Promise<VisibilityProfileView>;
};

/**
 * Refuses a brand or competitor domain the address policy would not let the service scan: the
 * pages an engine cites on these hosts are scanned later (a private or reserved host is 400).
 */
export type VetDomains = (domains: readonly string[], field: string) => Promise<void>;

export const createVetDomains =
  (assertScannable: (url: string) => Promise<void>): VetDomains =>
  async (domains, field) => {
    for (const domain of domains) {
      try {
        await assertScannable(`https://${domain}/`);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new AppError(
          "invalid_request",
          `${field}: ${domain} is not allowed: ${error.message.replace(/^url is not scannable: /, "")}`,
          "Give the public domain names the brand's pages are served from, such as example.com.",
        );
      }
    }
  };

/** A site's AI-visibility profile: the brand's names and domains, samples per prompt, engines. */
export const createProfileService = ({ db, vetDomains }: { db: Db; vetDomains: VetDomains }): ProfileService => {
  const get = async (workspaceId: string, siteId: string): Promise<VisibilityProfileView> => {
    const site = await db.site.findFirst({
      where: { id: siteId, workspaceId },
      select: {
        name: true,
        domain: true,
        visibilityProfile: true,
        _count: { select: { prompts: true, competitors: true } },
      },
    });
    if (!site) throw siteNotFound(siteId);
    const keys = await db.engineKey.findMany({ where: { workspaceId }, select: { engine: true } });
    const profile = site.visibilityProfile;
    return {
      site_id: siteId,
      brand_names: profile?.brandNames ?? [site.name],
      brand_domains: profile?.brandDomains ?? [site.domain],
      samples_per_prompt: profile?.samplesPerPrompt ?? DEFAULT_SAMPLES_PER_PROMPT,
      engines: profile?.engines ?? [...AiEngine.options],
      configured: profile !== null,
      workspace_keys: AiEngine.options.filter((engine) => keys.some((key) => key.engine === engine)),
      prompt_count: site._count.prompts,
      competitor_count: site._count.competitors,
      updated_at: profile?.updatedAt.toISOString() ?? null,
    };
  };

  const set = async (owner: Owner, siteId: string, input: VisibilityProfileRequest) => {
    const site = await db.site.findFirst({
      where: { id: siteId, workspaceId: owner.workspaceId },
      select: { id: true },
    });
    if (!site) throw siteNotFound(siteId);
    await vetDomains(input.brand_domains, "brand_domains");
    await visibility.saveProfile(
      db,
      { ...owner, siteId },
      {
        brandNames: input.brand_names,
        brandDomains: input.brand_domains,
        samplesPerPrompt: input.samples_per_prompt,
        engines: input.engines,
      },
    );
    return get(owner.workspaceId, siteId);
  };

  return { get, set };
};
