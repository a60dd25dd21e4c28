import { Container } from 'inversify';
import { HomeVm } from './features/home/home.vm';

/** The web app's composition root: every view-model and API client is bound here. */
export function createContainer(): Container {
  const container = new Container();
  // Transient: each mounted view gets its own view-model.
  container.bind(HomeVm).toSelf();
  return container;
}
