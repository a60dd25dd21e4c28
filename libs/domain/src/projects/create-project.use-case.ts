import type { PlanCatalog } from '../plans/plan-catalog.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type Project, newProject } from './project.entity.js';
import { type ProjectLimitReached, projectLimitReached } from './project.errors.js';
import type { ProjectRepository } from './project-repository.port.js';

export interface CreateProjectInput {
  readonly creatorId: string;
  readonly name: string;
}

/** Creates a private project if the plan's private-project limit allows one more. */
export class CreateProject {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly projects: ProjectRepository,
    private readonly plans: PlanCatalog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateProjectInput): Promise<Result<Project, ProjectLimitReached | ProfileNotFound>> {
    const profile = await this.profiles.findById(input.creatorId);
    if (!profile) return err(profileNotFound(input.creatorId));
    const plan = this.plans.resolve(profile.subscriptionPlan);
    const limit = plan.features.privateProjects;
    const max = limit.kind === 'limited' ? limit.value : null;
    const project = newProject({ id: this.ids.next(), creatorId: profile.id, name: input.name }, this.clock.now());
    // The count and the insert are one atomic step in the repository (no check-then-write race).
    if (!(await this.projects.insertWithinLimit(project, max))) return err(projectLimitReached(plan.name, max ?? -1));
    return ok(project);
  }
}
