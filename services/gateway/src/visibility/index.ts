/** The visibility feature's surface: what the composition root and other features use of it. */

export { citedPageRoutes } from "./cited-pages.route";
export { type CitedPageLimits, type CitedPagesService, createCitedPagesService } from "./cited-pages-service";
export { type CompetitorService, createCompetitorService } from "./competitor-service";
export { competitorRoutes } from "./competitors.route";
export { createEngineKeyService, type EngineKeyService } from "./engine-key-service";
export { engineKeyRoutes } from "./engine-keys.route";
export { createProfileService, createVetDomains, type ProfileService, type VetDomains } from "./profile-service";
export { createPromptService, type PromptService } from "./prompt-service";
export { createRunObservationReader, type RunObservationReader, type RunObservations } from "./run-evaluation";
export { createRunService, type RunService } from "./run-service";
export { runRoutes } from "./runs.route";
export { visibilityRoutes } from "./visibility.route";
