/**
 * What a project left running outside its own rows — its published site — taken down before the
 * project is deleted (hosting's TakeDownSite). The projects room does not know about hosting;
 * hosting implements this port, so the dependency stays one way.
 */
export interface ProjectTakedown {
  /** Stops everything the project serves; idempotent. Rejects when it could not (the delete then fails and may be retried). */
  takeDown(projectId: string): Promise<void>;
}
