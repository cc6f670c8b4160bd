/** The visibility feature's surface: what the composition root and other features use of it. */
export { type CompetitorService, createCompetitorService } from "./competitor-service";
export { competitorRoutes } from "./competitors.route";
export { createEngineKeyService, type EngineKeyService } from "./engine-key-service";
export { engineKeyRoutes } from "./engine-keys.route";
export { createProfileService, createVetDomains, type ProfileService, type VetDomains } from "./profile-service";
export { createPromptService, type PromptService } from "./prompt-service";
export { createRunService, type RunService } from "./run-service";
export { runRoutes } from "./runs.route";
export { visibilityRoutes } from "./visibility.route";
